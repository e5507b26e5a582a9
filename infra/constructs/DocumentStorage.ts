import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { StreamViewType, type TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, HttpMethods } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { EnvVar } from '../../lambdas/shared/config.js';
import { RESULTS_PARQUET_PREFIX, RESULTS_PREFIX } from '../../lambdas/shared/results/keys.js';
import { SLOTS_ITEM_ID } from '../../lambdas/shared/slots/index.js';
import {
  Index,
  PROVIDERS_TABLE,
  type TableSpec,
  TRANSITIONS_TABLE,
  tableEnvVar,
  WORKFLOWS_TABLE,
} from '../../lambdas/shared/store/index.js';
import { wildcardResourceFinding } from '../nagFindings.js';
import { tableFromSpec } from '../tableFromSpec.js';
import type { StageFunction } from './StageFunction.js';

/**
 * Key prefixes of the documents bucket: uploads, stage artifacts, quarantine, the results of
 * completed workflows (JSON, and Parquet compacted per tenant and day) and Athena's query results.
 */
export const Prefix = {
  incoming: 'incoming/',
  artifacts: 'artifacts/',
  quarantine: 'quarantine/',
  results: RESULTS_PREFIX,
  resultsParquet: RESULTS_PARQUET_PREFIX,
  athenaResults: 'athena-results/',
} as const;
/** One of the bucket's key prefixes. */
export type Prefix = (typeof Prefix)[keyof typeof Prefix];

/**
 * What a Lambda may do with the transition log: append and read. No UpdateItem, DeleteItem or
 * BatchWriteItem: the log is append-only by IAM, not by convention, so no stage bug can rewrite
 * the audit trail.
 */
export const LOG_TABLE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:Query'] as const;
/** Reading the transition log only (the ledger snapshot, stages that never transition but read). */
export const LOG_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query'] as const;

/**
 * What a function does with the transition log: `append` (it makes transitions: PutItem, and the
 * reads a roll-forward makes), `read`, or `none` (it only updates the workflow item, as
 * schedule-review and request-review do). Each role gets only what its code does.
 */
export type LogAccess = 'append' | 'read' | 'none';
/** The workflow item: read, create, conditional update (the commit protocol), list by index. */
export const WORKFLOW_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:Query',
] as const;
/**
 * Providers are read-only for the functions, and read whole: validate caches one paginated Scan
 * and reads one item, the import stamp, to know when to reload (lambdas/shared/providersStore.ts).
 * `docket providers import` writes them.
 */
export const PROVIDER_TABLE_ACTIONS = ['dynamodb:Scan', 'dynamodb:GetItem'] as const;

/** Settings of the storage. */
export interface DocumentStorageProps {
  /** Days before `artifacts/` objects expire. */
  readonly artifactExpirationDays: number;
  /** Keep bucket and tables when the stack is deleted (and protect the tables from deletion). */
  readonly retainData: boolean;
  /** Origins of the review console, allowed to GET objects (pdf.js fetches the presigned PDF link). */
  readonly consoleOrigins?: readonly string[];
}

/**
 * The documents bucket (with its access-log bucket) and the three tables, plus the one place
 * functions get access to them: each `bind*` method sets the environment variable a function reads
 * and grants exactly the actions that go with it.
 */
export class DocumentStorage extends Construct {
  readonly bucket: Bucket;
  readonly accessLogs: Bucket;
  readonly workflows: TableV2;
  readonly transitions: TableV2;
  readonly providers: TableV2;

  constructor(scope: Construct, id: string, props: DocumentStorageProps) {
    super(scope, id);
    const removalPolicy = props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const secureBucket = {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy,
    };

    this.accessLogs = new Bucket(this, 'AccessLogs', {
      ...secureBucket,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(365) }],
    });
    Validations.of(this.accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the server access log bucket of the documents bucket; logging it would log itself.',
    });

    this.bucket = new Bucket(this, 'Documents', {
      ...secureBucket,
      versioned: true,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'documents/',
      lifecycleRules: [
        {
          id: 'expire-artifacts',
          prefix: Prefix.artifacts,
          expiration: Duration.days(props.artifactExpirationDays),
          noncurrentVersionExpiration: Duration.days(30),
        },
        {
          id: 'expire-replaced-uploads',
          prefix: Prefix.incoming,
          noncurrentVersionExpiration: Duration.days(90),
        },
        {
          // A Parquet file is rewritten every compaction: its replaced versions are of no use.
          id: 'expire-replaced-parquet',
          prefix: Prefix.resultsParquet,
          noncurrentVersionExpiration: Duration.days(7),
        },
        { id: 'expire-athena-results', prefix: Prefix.athenaResults, expiration: Duration.days(30) },
        { id: 'abort-multipart', abortIncompleteMultipartUploadAfter: Duration.days(7) },
      ],
      // Read-only: the presigned link still decides which object; CORS only lets the page read it.
      ...(props.consoleOrigins?.length && {
        cors: [
          {
            allowedOrigins: [...props.consoleOrigins],
            allowedMethods: [HttpMethods.GET, HttpMethods.HEAD],
            allowedHeaders: ['*'],
            exposedHeaders: ['Content-Length', 'Content-Range', 'Accept-Ranges'],
            maxAge: 600,
          },
        ],
      }),
    });
    // EventBridge notifications straight on the bucket resource: the L2 `eventBridgeEnabled`
    // would add a custom-resource Lambda to set what CloudFormation can set itself.
    (this.bucket.node.defaultChild as CfnBucket).notificationConfiguration = {
      eventBridgeConfiguration: { eventBridgeEnabled: true },
    };

    const table = (tableId: string, spec: TableSpec) =>
      tableFromSpec(this, tableId, spec, { removalPolicy, deletionProtection: props.retainData });
    this.workflows = table('Workflows', WORKFLOWS_TABLE);
    // The stream (keys only) feeds the ledger witness (LedgerAnchors): the store only inserts.
    this.transitions = tableFromSpec(this, 'Transitions', TRANSITIONS_TABLE, {
      removalPolicy,
      deletionProtection: props.retainData,
      stream: StreamViewType.KEYS_ONLY,
    });
    this.providers = table('Providers', PROVIDERS_TABLE);
  }

  /**
   * The workflow store (lambdas/shared/store): the workflows table and its indexes, and the
   * transition log as `log` says: append-only for a function that makes transitions, read-only or
   * not at all for one that does not.
   */
  bindStore(fn: StageFunction, log: LogAccess = 'append'): void {
    fn.addEnvironment(tableEnvVar(WORKFLOWS_TABLE), this.workflows.tableName);
    fn.addEnvironment(tableEnvVar(TRANSITIONS_TABLE), this.transitions.tableName);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: [...WORKFLOW_TABLE_ACTIONS],
        resources: [
          this.workflows.tableArn,
          ...WORKFLOWS_TABLE.indexes.map((i) => `${this.workflows.tableArn}/index/${i.indexName}`),
        ],
      }),
    );
    if (log === 'none') return;
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: [...(log === 'append' ? LOG_TABLE_ACTIONS : LOG_READ_ACTIONS)],
        resources: [this.transitions.tableArn],
      }),
    );
  }

  /**
   * Reading every workflow and the log, for the ledger snapshot: the tenants (a Scan of the
   * workflows table), each tenant's workflows (its index), and the log of an item moved before
   * the chain existed. No write of either table.
   */
  bindLedgerReader(fn: StageFunction): void {
    fn.addEnvironment(tableEnvVar(WORKFLOWS_TABLE), this.workflows.tableName);
    fn.addEnvironment(tableEnvVar(TRANSITIONS_TABLE), this.transitions.tableName);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:Scan', 'dynamodb:Query', 'dynamodb:GetItem'],
        resources: [this.workflows.tableArn, `${this.workflows.tableArn}/index/${Index.byTenantState}`],
      }),
    );
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: [...LOG_READ_ACTIONS], resources: [this.transitions.tableArn] }),
    );
  }

  /** Read access to the providers (counterparties) validation and compare look up. */
  /**
   * The execution slots (lambdas/shared/slots): GetItem and UpdateItem on their one item of the
   * workflows table and nothing else of it, unless `readWorkflows` (the starter's reconcile reads
   * whether a holder's workflow waits for a reviewer).
   */
  bindSlots(fn: StageFunction, options: { readWorkflows?: boolean } = {}): void {
    fn.addEnvironment(tableEnvVar(WORKFLOWS_TABLE), this.workflows.tableName);
    fn.addEnvironment(tableEnvVar(TRANSITIONS_TABLE), this.transitions.tableName);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        resources: [this.workflows.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [SLOTS_ITEM_ID] } },
      }),
    );
    if (options.readWorkflows) {
      fn.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['dynamodb:GetItem'], resources: [this.workflows.tableArn] }),
      );
    }
  }

  bindProviders(fn: StageFunction): void {
    fn.addEnvironment(tableEnvVar(PROVIDERS_TABLE), this.providers.tableName);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: [...PROVIDER_TABLE_ACTIONS], resources: [this.providers.tableArn] }),
    );
  }

  /**
   * Reading (object and object version) under `read` prefixes and writing under `write` ones.
   * `s3:ListBucket` makes a missing key a 404 (`NoSuchKey`, which the stages treat as a missing
   * artifact) rather than a 403.
   */
  bindDocuments(fn: StageFunction, access: { read: Prefix[]; write?: Prefix[]; remove?: Prefix[] }): void {
    fn.addEnvironment(EnvVar.bucket, this.bucket.bucketName);
    const objects = (prefixes: Prefix[]) => prefixes.map((p) => `${this.bucket.bucketArn}/${p}*`);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.bucket.bucketArn] }),
    );
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:GetObjectVersion'],
        resources: objects(access.read),
      }),
    );
    if (access.write?.length) {
      fn.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['s3:PutObject'], resources: objects(access.write) }),
      );
    }
    // Ingest moves an upload whose key breaks the key policy out of incoming/ (that version too);
    // an erasure deletes every version of a document's objects, which it lists first.
    if (access.remove?.length) {
      fn.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
          resources: objects(access.remove),
        }),
      );
      fn.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['s3:ListBucketVersions'], resources: [this.bucket.bucketArn] }),
      );
    }
    for (const resource of new Set(
      objects([...access.read, ...(access.write ?? []), ...(access.remove ?? [])]),
    )) {
      Validations.of(fn.role).acknowledge({
        id: wildcardResourceFinding(this, resource),
        reason: 'Objects are per document; access is scoped to one key prefix of the documents bucket.',
      });
    }
  }

  /**
   * Deleting content-hash cache records (`cache#…` items of the workflows table) and nothing else
   * of it: an erasure removes the record its document made, whose id holds the content's hash.
   */
  bindCacheEraser(fn: StageFunction): void {
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:DeleteItem'],
        resources: [this.workflows.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['cache#*'] } },
      }),
    );
  }

  /**
   * The outbox deliverer's share of the workflows table (lambdas/shared/store/workflowOutbox.ts):
   * the sparse outbox index to find items with events, GetItem to read one, UpdateItem to clear a
   * delivered event (a conditional update the store builds). Nothing of the transition log.
   */
  bindOutbox(fn: StageFunction): void {
    fn.addEnvironment(tableEnvVar(WORKFLOWS_TABLE), this.workflows.tableName);
    const allow = (actions: string[], resource: string) =>
      fn.role.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [resource] }));
    allow(['dynamodb:GetItem', 'dynamodb:UpdateItem'], this.workflows.tableArn);
    allow(['dynamodb:Query'], `${this.workflows.tableArn}/index/${Index.pendingOutbox}`);
  }

  /**
   * The results compaction (lambdas/shared/results/compact.ts): list and read the JSON results,
   * and read (HEAD), write and delete the Parquet files under results-parquet/. Nothing else of
   * the bucket, and neither table.
   */
  bindResultsCompactor(fn: StageFunction): void {
    fn.addEnvironment(EnvVar.bucket, this.bucket.bucketName);
    const objects = (prefix: Prefix) => `${this.bucket.bucketArn}/${prefix}*`;
    const allow = (actions: string[], resource: string) =>
      fn.role.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [resource] }));
    allow(['s3:ListBucket'], this.bucket.bucketArn);
    allow(['s3:GetObject'], objects(Prefix.results));
    allow(['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], objects(Prefix.resultsParquet));
    for (const prefix of [Prefix.results, Prefix.resultsParquet]) {
      Validations.of(fn.role).acknowledge({
        id: wildcardResourceFinding(this, objects(prefix)),
        reason:
          'One object per result or per tenant and day, all under one key prefix of the documents bucket.',
      });
    }
  }

  /** Scanning the sparse review-queue index (every tenant's open reviews) for queue metrics. */
  bindReviewQueueReader(fn: StageFunction): void {
    fn.addEnvironment(tableEnvVar(WORKFLOWS_TABLE), this.workflows.tableName);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:Scan'],
        resources: [`${this.workflows.tableArn}/index/${Index.reviewQueue}`],
      }),
    );
  }
}
