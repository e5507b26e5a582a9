import { Duration, Validations } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { EnvVar } from '../../lambdas/shared/config.js';
import { STARTER_SETTINGS } from '../../lambdas/starter/settings.js';
import type { DocketConfig } from '../config.js';
import { wildcardResourceFinding } from '../nagFindings.js';
import type { DocumentStorage } from './DocumentStorage.js';
import { Prefix } from './DocumentStorage.js';
import { functionLogs, StageFunction } from './StageFunction.js';
import { executionsArnOf } from './WorkflowStateMachine.js';

/** Settings of the upload path. */
export interface UploadTriggerProps {
  readonly storage: DocumentStorage;
  readonly stateMachine: StateMachine;
  readonly config: DocketConfig;
}

const STARTER_TIMEOUT = Duration.seconds(STARTER_SETTINGS.timeoutSeconds);

/**
 * The upload path: S3 "Object Created" of a non-empty object under `incoming/` -> EventBridge ->
 * the upload queue -> the starter, which takes an execution slot and starts the execution named
 * by the workflow id. The queue absorbs bursts and the slots bound the running executions
 * (`maxRunningExecutions`), so nothing is rejected for throttling. An execution's close (an
 * EventBridge "Execution Status Change") gives its slot back through slot-release. Undeliverable
 * events, events nobody can read and starts that keep failing land in the dead-letter queue, which
 * `docket dlq` lists and redrives and an alarm watches.
 */
export class UploadTrigger extends Construct {
  readonly rule: Rule;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly starter: StageFunction;
  readonly slotRelease: StageFunction;

  constructor(scope: Construct, id: string, props: UploadTriggerProps) {
    super(scope, id);
    const { config, storage, stateMachine } = props;
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      // SQS-managed SSE: EventBridge cannot write to a queue under the AWS managed KMS key.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the upload path.',
    });
    this.queue = new Queue(this, 'Uploads', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.seconds(STARTER_SETTINGS.retentionSeconds),
      visibilityTimeout: Duration.seconds(STARTER_SETTINGS.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: STARTER_SETTINGS.maxReceiveCount },
    });

    this.rule = new Rule(this, 'ObjectCreated', {
      description: 'Docket: a PDF uploaded under incoming/ is queued for a workflow',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        detail: {
          bucket: { name: [storage.bucket.bucketName] },
          // Not zero-byte objects: the S3 console's "Create folder" makes one (`incoming/acme/`).
          object: { key: [{ prefix: Prefix.incoming }], size: [{ numeric: ['>', 0] }] },
        },
      },
    });
    this.rule.addTarget(
      new SqsQueue(this.queue, {
        deadLetterQueue: this.deadLetterQueue,
        retryAttempts: 185,
        maxEventAge: Duration.hours(24),
      }),
    );

    const fn = (name: string, description: string, timeout: Duration) =>
      new StageFunction(this, name, {
        name,
        description,
        memorySize: 256,
        timeout,
        ...functionLogs(config),
        environment: { [EnvVar.executionSlotLimit]: String(config.policy.maxRunningExecutions) },
      });
    this.starter = fn(
      'starter',
      'Docket starter: queued upload -> execution, within the slot limit',
      STARTER_TIMEOUT,
    );
    this.bindStarter(this.starter, storage, stateMachine);
    this.slotRelease = fn(
      'slot-release',
      'Docket slot-release: a closed execution frees its slot',
      Duration.seconds(30),
    );
    storage.bindSlots(this.slotRelease);

    new Rule(this, 'ExecutionClosed', {
      description: 'Docket: a closed execution gives its slot back',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: {
          stateMachineArn: [stateMachine.stateMachineArn],
          status: ['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED'],
        },
      },
      // No dead-letter queue: a release lost after a day of retries is made good by the starter's
      // reconcile, and the upload dead-letter queue holds uploads only.
      targets: [
        new LambdaFunction(this.slotRelease.function, {
          retryAttempts: 185,
          maxEventAge: Duration.hours(24),
        }),
      ],
    });
  }

  private bindStarter(starter: StageFunction, storage: DocumentStorage, stateMachine: StateMachine): void {
    starter.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: STARTER_SETTINGS.batchSize,
        reportBatchItemFailures: true,
        maxConcurrency: STARTER_SETTINGS.concurrency,
      }),
    );
    starter.addEnvironment(EnvVar.uploadQueueUrl, this.queue.queueUrl);
    starter.addEnvironment(EnvVar.stateMachineArn, stateMachine.stateMachineArn);
    starter.bindQueueSender(this.deadLetterQueue, EnvVar.deadLetterQueueUrl);
    storage.bindSlots(starter, { readWorkflows: true });
    stateMachine.grantStartExecution(starter.function);
    // Reconcile asks whether a slot's execution still runs.
    const executions = executionsArnOf(this, stateMachine);
    starter.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['states:DescribeExecution'], resources: [executions] }),
    );
    Validations.of(starter.role).acknowledge({
      id: wildcardResourceFinding(this, executions),
      reason:
        'Execution names are per document; access is limited to executions of the Docket state machine.',
    });
  }
}
