import { ArnFormat, Aws, Fn, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import {
  type AslDefinition,
  buildDefinition,
  STAGES,
  type Stage,
  type StageArns,
  type WorkflowPolicy,
} from '../../statemachine/index.js';
import type { CheckedPolicy } from '../../statemachine/reviewPolicies/index.js';
import type { StageFunction } from './StageFunction.js';

/** The `DefinitionSubstitutions` key that carries a stage's function ARN, e.g. `ParseArn`. */
export const substitutionKey = (stage: Stage): string => `${STAGES[stage].task}Arn`;

/** `${ParseArn}`-style placeholders in place of the ARNs: CloudFormation substitutes them. */
export const placeholderArns = (): StageArns =>
  Object.fromEntries(
    (Object.keys(STAGES) as Stage[]).map((s) => [s, `\${${substitutionKey(s)}}`]),
  ) as StageArns;

/**
 * The last group of the stack id's UUID (12 hex digits), resolved by CloudFormation: unique to
 * one creation of the stack, so a name that carries it never meets a group left by a destroyed one.
 */
const stackIdSuffix = (): string => Fn.select(4, Fn.split('-', Fn.select(2, Fn.split('/', Aws.STACK_ID))));

/**
 * The ARN pattern of every execution of `stateMachine` and none of another's: what a policy that
 * describes, stops or redrives Docket's executions names (execution names are per document).
 */
export const executionsArnOf = (scope: Construct, stateMachine: StateMachine): string =>
  Stack.of(scope).formatArn({
    service: 'states',
    resource: 'execution',
    resourceName: `${stateMachine.stateMachineName}:*`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });

/** Settings of the state machine. */
export interface WorkflowStateMachineProps {
  readonly functions: Readonly<Record<Stage, StageFunction>>;
  readonly policy: WorkflowPolicy;
  /** Review policies compiled into the definition (none: the built-in default review). */
  readonly reviewPolicies?: readonly CheckedPolicy[];
  readonly logRetention: RetentionDays;
  readonly logRemovalPolicy: RemovalPolicy;
}

/**
 * The Standard state machine that runs one execution per document. Its definition is the output
 * of `buildDefinition` (statemachine/), deployed as is with `${<Task>Arn}` placeholders that
 * CloudFormation fills from `DefinitionSubstitutions`: no second copy of the ASL exists. Logs ALL
 * events (without execution data, which holds the task token) to CloudWatch; X-Ray tracing on.
 */
export class WorkflowStateMachine extends Construct {
  readonly stateMachine: StateMachine;
  readonly logGroup: LogGroup;
  /** The definition as deployed, placeholders and all. */
  readonly definition: AslDefinition;

  constructor(scope: Construct, id: string, props: WorkflowStateMachineProps) {
    super(scope, id);
    const stages = Object.keys(STAGES) as Stage[];
    this.definition = buildDefinition(placeholderArns(), props.policy, props.reviewPolicies);

    this.logGroup = new LogGroup(this, 'Logs', {
      // The vendedlogs prefix keeps Step Functions from growing the account's log resource policy.
      // The suffix (from the stack id's UUID) is new with every stack: a group retained by an
      // earlier `cdk destroy` would otherwise make the next deploy fail with "already exists".
      logGroupName: `/aws/vendedlogs/states/${Stack.of(this).stackName}-workflow-${stackIdSuffix()}`,
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });

    // A fixed name lets request-review be granted SendTaskSuccess on this ARN without the
    // reference cycle a token would make (the state machine already refers to the function).
    const stateMachineName = `${Stack.of(this).stackName}-workflow`;
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      stateMachineName,
      stateMachineType: StateMachineType.STANDARD,
      comment: 'Docket: one execution per document',
      definitionBody: DefinitionBody.fromString(JSON.stringify(this.definition)),
      definitionSubstitutions: Object.fromEntries(
        stages.map((s) => [substitutionKey(s), props.functions[s].function.functionArn]),
      ),
      // ALL events, but without execution data: the review Task's parameters carry the task token,
      // which must never be logged (a reader with Step Functions access could decide the review past
      // the API).
      logs: { destination: this.logGroup, level: LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });
    // Task Resources are the unqualified function ARNs (and FunctionName in the review Task), so
    // exactly those: no `:*` for versions or aliases.
    this.stateMachine.addToRolePolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: stages.map((s) => props.functions[s].function.functionArn),
      }),
    );
    // request-review hands a decision recorded before a failure straight to the new task.
    props.functions['request-review'].function.addToRolePolicy(
      new PolicyStatement({
        actions: ['states:SendTaskSuccess'],
        resources: [
          Stack.of(this).formatArn({
            service: 'states',
            resource: 'stateMachine',
            resourceName: stateMachineName,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
    Validations.of(this.stateMachine).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'CloudWatch Logs delivery (logs:*LogDelivery, Describe*) and X-Ray trace APIs have no resource-level permissions.',
    });
  }
}
