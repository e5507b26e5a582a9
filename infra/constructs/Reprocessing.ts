import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { EnvVar } from '../../lambdas/shared/config.js';
import { buildReprocessDefinition } from '../../statemachine/index.js';
import type { DocketConfig } from '../config.js';
import { wildcardResourceFinding } from '../nagFindings.js';
import type { DocumentStorage } from './DocumentStorage.js';
import { functionLogs, StageFunction } from './StageFunction.js';
import { executionsArnOf } from './WorkflowStateMachine.js';

/** Settings of reprocessing. */
export interface ReprocessingProps {
  readonly storage: DocumentStorage;
  readonly config: DocketConfig;
  /** The document state machine a rerun executes on. */
  readonly workflow: StateMachine;
}

/**
 * `docket reprocess` on AWS: the reprocess function (the `reprocess` transition and a new
 * execution of the document machine at parse) and the Standard state machine whose Distributed
 * Map runs it over a batch of workflow ids with bounded concurrency. The definition is
 * `buildReprocessDefinition` (statemachine/), the one the local runtime runs.
 */
export class Reprocessing extends Construct {
  readonly stateMachine: StateMachine;
  readonly function: StageFunction;

  constructor(scope: Construct, id: string, props: ReprocessingProps) {
    super(scope, id);
    const { storage, config, workflow } = props;
    const logs = functionLogs(config);
    this.function = new StageFunction(this, 'Function', {
      name: 'reprocess',
      description: 'Docket: runs a completed document again from parse (docket reprocess)',
      memorySize: 256,
      timeout: Duration.seconds(60),
      ...logs,
    });
    storage.bindStore(this.function);
    // A rerun takes an execution slot as an upload does (maxRunningExecutions holds for both).
    storage.bindSlots(this.function);
    this.function.addEnvironment(EnvVar.executionSlotLimit, String(config.policy.maxRunningExecutions));
    this.function.addEnvironment(EnvVar.stateMachineArn, workflow.stateMachineArn);
    workflow.grantStartExecution(this.function.function);
    // A repeated start of a run finds the first (ExecutionAlreadyExists needs no more than this).
    const workflowExecutions = executionsArnOf(this, workflow);
    this.function.function.addToRolePolicy(
      new PolicyStatement({ actions: ['states:DescribeExecution'], resources: [workflowExecutions] }),
    );
    Validations.of(this.function.role).acknowledge({
      id: wildcardResourceFinding(this, workflowExecutions),
      reason: 'A rerun finds the execution it started before by name; execution names are per document.',
    });

    const logGroup = new LogGroup(this, 'Logs', {
      retention: logs.logRetention,
      removalPolicy: logs.logRemovalPolicy,
    });
    const stateMachineName = `${Stack.of(this).stackName}-reprocess`;
    // Its own ARNs by name: a reference to the machine from its role's policy would be circular.
    const own = (resource: 'stateMachine' | 'execution', resourceName: string) =>
      Stack.of(this).formatArn({
        service: 'states',
        resource,
        resourceName,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      stateMachineName,
      stateMachineType: StateMachineType.STANDARD,
      comment: 'Docket: runs completed documents again from parse (docket reprocess)',
      definitionBody: DefinitionBody.fromString(JSON.stringify(buildReprocessDefinition(`\${ReprocessArn}`))),
      definitionSubstitutions: { ReprocessArn: this.function.function.functionArn },
      logs: { destination: logGroup, level: LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [this.function.function.functionArn],
      }),
    );
    // A Distributed Map runs its items as child executions of the machine itself.
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({
        actions: ['states:StartExecution'],
        resources: [own('stateMachine', stateMachineName)],
      }),
    );
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({
        actions: ['states:DescribeExecution', 'states:StopExecution'],
        resources: [own('execution', `${stateMachineName}:*`)],
      }),
    );
    Validations.of(this.stateMachine).acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'CloudWatch Logs delivery (logs:*LogDelivery, Describe*) and X-Ray trace APIs have no resource-level permissions.',
      },
      {
        id: wildcardResourceFinding(this, own('execution', `${stateMachineName}:*`)),
        reason:
          "A Distributed Map describes and stops its map run's child executions, named by Step Functions.",
      },
    );
  }
}
