import { Aws, CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import type { Stage } from '../statemachine/index.js';
import type { DocketConfig } from './config.js';
import { CompletionEvents } from './constructs/CompletionEvents.js';
import { DocumentStorage } from './constructs/DocumentStorage.js';
import { LedgerAnchors } from './constructs/LedgerAnchors.js';
import { Operations } from './constructs/Operations.js';
import { OperatorPolicy } from './constructs/OperatorPolicy.js';
import { Reprocessing } from './constructs/Reprocessing.js';
import { ResultsCatalog } from './constructs/ResultsCatalog.js';
import { ReviewerApi } from './constructs/ReviewerApi.js';
import { ReviewNotifications } from './constructs/ReviewNotifications.js';
import { UploadTrigger } from './constructs/UploadTrigger.js';
import { WorkflowFunctions } from './constructs/WorkflowFunctions.js';
import { WorkflowStateMachine } from './constructs/WorkflowStateMachine.js';
import { StackOutput, type StackOutputName } from './outputs.js';

/** Settings of the stack. */
export interface DocketStackProps extends StackProps {
  readonly config: DocketConfig;
  /** Per-stage esbuild overrides, passed to the stage functions. */
  readonly bundling?: Partial<Record<Stage, Partial<BundlingOptions>>>;
}

/** The Docket stack: composes the constructs and publishes the outputs the CLI reads. */
export class DocketStack extends Stack {
  readonly storage: DocumentStorage;
  readonly functions: WorkflowFunctions;
  readonly workflow: WorkflowStateMachine;
  readonly trigger: UploadTrigger;
  readonly reviewerApi: ReviewerApi;
  readonly operations: Operations;
  readonly operatorPolicy: OperatorPolicy;
  readonly ledger: LedgerAnchors;
  readonly events: CompletionEvents;
  readonly notifications: ReviewNotifications;
  readonly results: ResultsCatalog;
  readonly reprocessing: Reprocessing;

  constructor(scope: Construct, id: string, props: DocketStackProps) {
    super(scope, id, props);
    const { config } = props;
    const logRemovalPolicy = config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.storage = new DocumentStorage(this, 'Storage', {
      artifactExpirationDays: config.artifactExpirationDays,
      retainData: config.retainData,
      consoleOrigins: config.consoleOrigins,
    });
    this.functions = new WorkflowFunctions(this, 'Stages', {
      storage: this.storage,
      config,
      ...(props.bundling && { bundling: props.bundling }),
    });
    this.workflow = new WorkflowStateMachine(this, 'Workflow', {
      functions: this.functions.stages,
      policy: config.policy,
      reviewPolicies: config.reviewPolicies,
      logRetention: config.logRetentionDays,
      logRemovalPolicy,
    });
    this.trigger = new UploadTrigger(this, 'Trigger', {
      storage: this.storage,
      stateMachine: this.workflow.stateMachine,
      config,
    });
    // The trigger's queue needs the state machine, so it is bound after the functions exist.
    this.functions.bindDeadLetterQueue(this.trigger.deadLetterQueue);
    this.reviewerApi = new ReviewerApi(this, 'Reviewers', {
      storage: this.storage,
      stateMachine: this.workflow.stateMachine,
      config,
    });
    this.ledger = new LedgerAnchors(this, 'Ledger', { storage: this.storage, config });
    this.events = new CompletionEvents(this, 'Events', { storage: this.storage, config });
    this.notifications = new ReviewNotifications(this, 'Notifications', {
      bus: this.events.bus,
      reviewPolicies: config.reviewPolicies,
    });
    this.results = new ResultsCatalog(this, 'Results', { storage: this.storage, config });
    this.reprocessing = new Reprocessing(this, 'Reprocessing', {
      storage: this.storage,
      config,
      workflow: this.workflow.stateMachine,
    });
    this.operations = new Operations(this, 'Operations', {
      config,
      storage: this.storage,
      stateMachine: this.workflow.stateMachine,
      stateMachineLogs: this.workflow.logGroup,
      functions: {
        ...this.functions.stages,
        'review-api': this.reviewerApi.handler,
        starter: this.trigger.starter,
        'slot-release': this.trigger.slotRelease,
        'ledger-snapshot': this.ledger.snapshotter,
        'ledger-witness': this.ledger.witness,
        'outbox-deliverer': this.events.deliverer,
        'results-compactor': this.results.compactor,
        reprocess: this.reprocessing.function,
      },
      deadLetterQueue: this.trigger.deadLetterQueue,
    });

    this.ledger.alarmTo(this.operations.topic);
    this.events.alarmTo(this.operations.topic);

    this.operatorPolicy = new OperatorPolicy(this, 'Operators', {
      snapshots: this.ledger.snapshots,
      bucket: this.storage.bucket,
      tables: [this.storage.workflows, this.storage.providers],
      log: this.storage.transitions,
      stateMachine: this.workflow.stateMachine,
      // `docket dlq redrive` moves dead letters back to the upload queue.
      queues: [this.trigger.deadLetterQueue, this.trigger.queue],
    });

    const values: Record<StackOutputName, string> = {
      region: Aws.REGION,
      bucket: this.storage.bucket.bucketName,
      workflowsTable: this.storage.workflows.tableName,
      transitionsTable: this.storage.transitions.tableName,
      providersTable: this.storage.providers.tableName,
      stateMachineArn: this.workflow.stateMachine.stateMachineArn,
      workflowLogGroup: this.workflow.logGroup.logGroupName,
      uploadQueueUrl: this.trigger.queue.queueUrl,
      deadLetterQueueUrl: this.trigger.deadLetterQueue.queueUrl,
      apiUrl: this.reviewerApi.url,
      userPoolId: this.reviewerApi.userPool.userPoolId,
      userPoolClientId: this.reviewerApi.client.userPoolClientId,
      alarmTopicArn: this.operations.topic.topicArn,
      dashboardName: this.operations.dashboard.dashboardName,
      operatorPolicyArn: this.operatorPolicy.policy.managedPolicyArn,
      ledgerSnapshotBucket: this.ledger.snapshots.bucketName,
      eventBusName: this.events.bus.eventBusName,
      resultsDatabase: this.results.database.ref,
      resultsWorkGroup: this.results.workGroup.ref,
      reprocessStateMachineArn: this.reprocessing.stateMachine.stateMachineArn,
    };
    for (const [name, output] of Object.entries(StackOutput)) {
      new CfnOutput(this, output.key, {
        value: values[name as StackOutputName],
        description: output.description,
      });
    }
  }
}
