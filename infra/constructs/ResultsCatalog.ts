import { Duration, Stack } from 'aws-cdk-lib';
import { CfnWorkGroup } from 'aws-cdk-lib/aws-athena';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { CfnDatabase, CfnTable } from 'aws-cdk-lib/aws-glue';
import { Construct } from 'constructs';
import { COMPACTION_SETTINGS, RESULTS_COMPACTOR_SERVICE } from '../../lambdas/results-compactor/settings.js';
import type { DocType } from '../../lambdas/shared/documents/index.js';
import {
  ColumnKind,
  GLUE_PARTITION_KEYS,
  RESULT_COLUMNS,
  resultTableName,
} from '../../lambdas/shared/results/columns.js';
import { PARQUET_PART } from '../../lambdas/shared/results/keys.js';
import type { DocketConfig } from '../config.js';
import { type DocumentStorage, Prefix } from './DocumentStorage.js';
import { functionLogs, StageFunction } from './StageFunction.js';

/** Settings of the results catalog. */
export interface ResultsCatalogProps {
  readonly storage: DocumentStorage;
  readonly config: DocketConfig;
}

/** Days the partition projection starts at: no result is older than Docket's results. */
const FIRST_DAY = '2024-01-01';

/**
 * The Glue columns of a doc type's table: the Parquet writer's columns (RESULT_COLUMNS, the one
 * list both are made from) less the partition keys, which Glue lists apart.
 */
export const glueColumns = (docType: DocType): CfnTable.ColumnProperty[] => {
  const keys = new Set<string>(GLUE_PARTITION_KEYS.map((k) => k.name));
  return RESULT_COLUMNS[docType]
    .filter((c) => !keys.has(c.name))
    .map((c) => ({ name: c.name.toLowerCase(), type: ColumnKind[c.kind].glue, comment: c.description }));
};

/**
 * The results on AWS, queryable with SQL: the compaction function (every 15 minutes, today and
 * yesterday of every tenant, results/ JSON -> results-parquet/ Parquet), a Glue database with a
 * table per doc type (`invoices`, `contracts`) over the Parquet files, partitions projected from
 * the key layout (no crawler, no partition to add), and an Athena workgroup whose query results
 * go, SSE-S3 encrypted, to athena-results/ of the documents bucket, enforced for every query.
 */
export class ResultsCatalog extends Construct {
  readonly compactor: StageFunction;
  readonly database: CfnDatabase;
  readonly tables: Record<DocType, CfnTable>;
  readonly workGroup: CfnWorkGroup;

  constructor(scope: Construct, id: string, props: ResultsCatalogProps) {
    super(scope, id);
    const { storage, config } = props;
    this.compactor = new StageFunction(this, 'Compactor', {
      name: RESULTS_COMPACTOR_SERVICE,
      description: "Docket: compacts each tenant's day of JSON results into one Parquet file per doc type",
      memorySize: COMPACTION_SETTINGS.memorySizeMb,
      timeout: Duration.seconds(COMPACTION_SETTINGS.timeoutSeconds),
      ...functionLogs(config),
    });
    storage.bindResultsCompactor(this.compactor);
    new Rule(this, 'Schedule', {
      description: 'Docket: compact results to Parquet',
      schedule: Schedule.rate(Duration.minutes(COMPACTION_SETTINGS.everyMinutes)),
      // A failed run is left to the next one, which rewrites the same days.
      targets: [new LambdaFunction(this.compactor.function, { retryAttempts: 0 })],
    });

    const account = Stack.of(this).account;
    // Glue names are lower case, letters, digits and underscores.
    const databaseName = `${config.stackName.toLowerCase().replace(/[^a-z0-9]/g, '_')}_results`;
    this.database = new CfnDatabase(this, 'Database', {
      catalogId: account,
      databaseInput: {
        name: databaseName,
        description: 'Docket: results of completed workflows (Parquet, one table per doc type)',
      },
    });
    const base = `s3://${storage.bucket.bucketName}/${Prefix.resultsParquet}`;
    const table = (docType: DocType) => {
      const t = new CfnTable(this, `${docType}Table`, {
        catalogId: account,
        databaseName,
        tableInput: {
          name: resultTableName(docType),
          description: `Docket: completed ${docType}s, one row each (${PARQUET_PART} per tenant and day)`,
          tableType: 'EXTERNAL_TABLE',
          partitionKeys: GLUE_PARTITION_KEYS.map((k) => ({ name: k.name, type: k.glue })),
          parameters: {
            classification: 'parquet',
            'projection.enabled': 'true',
            // Tenants are not known in advance: a query names its tenant (WHERE tenant = '...').
            'projection.tenant.type': 'injected',
            'projection.date.type': 'date',
            'projection.date.format': 'yyyy-MM-dd',
            'projection.date.range': `${FIRST_DAY},NOW`,
            'projection.date.interval': '1',
            'projection.date.interval.unit': 'DAYS',
            'storage.location.template': `${base}\${tenant}/${docType}/date=\${date}/`,
          },
          storageDescriptor: {
            columns: glueColumns(docType),
            location: base,
            inputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
            outputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
            serdeInfo: {
              serializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe',
            },
          },
        },
      });
      t.node.addDependency(this.database);
      return t;
    };
    this.tables = { invoice: table('invoice'), contract: table('contract') };

    this.workGroup = new CfnWorkGroup(this, 'WorkGroup', {
      name: `${config.stackName}-results`,
      description: 'Docket: SQL over the results; query results in the documents bucket, encrypted',
      recursiveDeleteOption: !config.retainData,
      workGroupConfiguration: {
        // Every query of this workgroup writes where and how it says, whatever the client asks.
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        resultConfiguration: {
          outputLocation: `s3://${storage.bucket.bucketName}/${Prefix.athenaResults}`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
          expectedBucketOwner: account,
        },
      },
    });
  }
}
