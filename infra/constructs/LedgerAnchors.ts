import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectLockRetention } from 'aws-cdk-lib/aws-s3';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { LEDGER_SNAPSHOT_SERVICE } from '../../lambdas/ledger-snapshot/handler.js';
import { LEDGER_CHANGED_METRIC, LEDGER_WITNESS_SERVICE } from '../../lambdas/ledger-witness/handler.js';
import { EnvVar } from '../../lambdas/shared/config.js';
import { SNAPSHOT_PREFIX } from '../../lambdas/shared/ledgerSnapshots/index.js';
import type { DocketConfig } from '../config.js';
import { wildcardResourceFinding } from '../nagFindings.js';
import type { DocumentStorage } from './DocumentStorage.js';
import { docketMetric } from './faultAlarms.js';
import { functionLogs, StageFunction } from './StageFunction.js';

/** Settings of the ledger anchors. */
export interface LedgerAnchorsProps {
  readonly storage: DocumentStorage;
  readonly config: DocketConfig;
}

/**
 * What proves the transition log from outside its table. A hash chain alone cannot stop a writer
 * who recomputes it, so:
 * - snapshots: a scheduled function writes each tenant's chain heads (`ledger/snapshots/`) to a
 *   bucket with Object Lock in compliance mode, where nobody can rewrite or delete them before
 *   their retention ends; `docket ledger verify --against` checks the tables against one;
 * - a witness: the log table's stream (keys only) feeds a function with its own role that counts
 *   every MODIFY and REMOVE of a log entry (the store never makes either), and an alarm fires on
 *   the first.
 */
export class LedgerAnchors extends Construct {
  readonly snapshots: Bucket;
  readonly snapshotter: StageFunction;
  readonly witness: StageFunction;

  constructor(scope: Construct, id: string, props: LedgerAnchorsProps) {
    super(scope, id);
    const { storage, config } = props;
    const logs = functionLogs(config);

    this.snapshots = new Bucket(this, 'Snapshots', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      objectLockEnabled: true,
      objectLockDefaultRetention: ObjectLockRetention.compliance(Duration.days(config.ledger.retentionDays)),
      serverAccessLogsBucket: storage.accessLogs,
      serverAccessLogsPrefix: 'ledger-snapshots/',
      // Locked objects outlive any stack: the bucket is kept whatever retainData says.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.snapshotter = new StageFunction(this, 'Snapshotter', {
      name: LEDGER_SNAPSHOT_SERVICE,
      description: "Docket: writes each tenant's ledger chain heads to the Object Lock bucket",
      memorySize: 512,
      timeout: Duration.minutes(10),
      ...logs,
    });
    storage.bindLedgerReader(this.snapshotter);
    this.snapshotter.addEnvironment(EnvVar.ledgerSnapshotBucket, this.snapshots.bucketName);
    const objects = this.snapshots.arnForObjects(`${SNAPSHOT_PREFIX}*`);
    this.snapshotter.role.addToPrincipalPolicy(
      // PutObject covers the parts of a multipart upload; a failed one may be aborted. Never delete.
      new PolicyStatement({ actions: ['s3:PutObject', 's3:AbortMultipartUpload'], resources: [objects] }),
    );
    Validations.of(this.snapshotter.role).acknowledge({
      id: wildcardResourceFinding(this, objects),
      reason: 'One object per tenant and snapshot time, all under ledger/snapshots/ of the snapshot bucket.',
    });
    new Rule(this, 'Schedule', {
      description: 'Docket: ledger snapshot',
      schedule: Schedule.rate(Duration.minutes(config.ledger.snapshotMinutes)),
      targets: [new LambdaFunction(this.snapshotter.function, { retryAttempts: 2 })],
    });

    this.witness = new StageFunction(this, 'Witness', {
      name: LEDGER_WITNESS_SERVICE,
      description: 'Docket: counts every change or removal of a transition log entry',
      memorySize: 256,
      timeout: Duration.seconds(30),
      ...logs,
    });
    this.witness.function.addEventSource(
      new DynamoEventSource(storage.transitions, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        retryAttempts: 5,
        // Inserts are the store's own appends: only what it never does reaches the witness.
        filters: [FilterCriteria.filter({ eventName: FilterRule.or('MODIFY', 'REMOVE') })],
      }),
    );
  }

  /** The ledger alarm: a log entry was changed or removed (the witness counted one). */
  alarmTo(topic: ITopic): Alarm {
    const alarm = new Alarm(this, 'LedgerChanged', {
      alarmDescription:
        'A transition log entry was modified or deleted after it was written; the store never does either. ' +
        'See the ledger-witness logs for the workflow and sequence number, then run docket ledger verify --against the latest snapshot.',
      metric: docketMetric(LEDGER_WITNESS_SERVICE, LEDGER_CHANGED_METRIC, 'Sum').with({
        period: Duration.minutes(1),
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(topic));
    return alarm;
  }
}
