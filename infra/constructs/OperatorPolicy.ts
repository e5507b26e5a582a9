import { Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { SNAPSHOT_PREFIX } from '../../lambdas/shared/ledgerSnapshots/index.js';
import { wildcardResourceFinding } from '../nagFindings.js';
import { executionsArnOf } from './WorkflowStateMachine.js';

/** What an operator's `docket --stack` commands touch. */
export interface OperatorPolicyProps {
  readonly bucket: IBucket;
  /** Listed and read (Scan, Query, GetItem): workflows and providers. */
  readonly tables: readonly ITable[];
  /** The transition log: read by key only (GetItem, Query), as every role reads it. */
  readonly log: ITable;
  readonly stateMachine: StateMachine;
  /** The dead-letter queue and, once it exists, the upload queue: `docket dlq list|redrive`. */
  readonly queues: readonly IQueue[];
  /** The ledger snapshot bucket: `docket ledger verify --against` reads, `ledger snapshot` writes. */
  readonly snapshots: IBucket;
}

/** Reading a table and its indexes: `docket list|show|reviews|providers`. */
export const OPERATOR_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan'] as const;

/** Reading the transition log: `docket history|ledger verify` (a subset of what stages may do). */
export const OPERATOR_LOG_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query'] as const;

/** Starting, reading and redriving executions: `docket retry`, `docket history`. */
export const OPERATOR_EXECUTION_ACTIONS = [
  'states:DescribeExecution',
  'states:GetExecutionHistory',
  'states:RedriveExecution',
] as const;

/** Reading and moving dead letters: `docket dlq list|redrive` (redrive sends to the upload queue). */
export const OPERATOR_QUEUE_ACTIONS = [
  'sqs:SendMessage',
  'sqs:ReceiveMessage',
  'sqs:DeleteMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueAttributes',
  'sqs:GetQueueUrl',
] as const;

/**
 * A managed policy for operators who run the `docket` CLI against this stack: read the tables
 * and the bucket, start, read and redrive executions, work the dead-letter (and upload) queue,
 * read and add ledger snapshots, and read the stack's outputs (how `--stack` finds everything).
 * Nothing it grants writes a table or changes an object: changes to a workflow go through
 * executions, which keep the ledger, and a new snapshot leaves every locked one as it was. Attach
 * it to the operators' role or group (its ARN is the OperatorPolicyArn output).
 */
export class OperatorPolicy extends Construct {
  readonly policy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: OperatorPolicyProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // Every execution of this state machine, and none of another's.
    const executions = executionsArnOf(this, props.stateMachine);
    const tableResources = props.tables.flatMap((t) => [t.tableArn, `${t.tableArn}/index/*`]);
    this.policy = new ManagedPolicy(this, 'Policy', {
      description: `Docket operators (docket --stack ${stack.stackName}): read, start, redrive, dead letters`,
      statements: [
        new PolicyStatement({ actions: [...OPERATOR_TABLE_ACTIONS], resources: tableResources }),
        new PolicyStatement({ actions: [...OPERATOR_LOG_ACTIONS], resources: [props.log.tableArn] }),
        new PolicyStatement({
          actions: ['s3:GetObject', 's3:GetObjectVersion'],
          resources: [props.bucket.arnForObjects('*')],
        }),
        new PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [props.bucket.bucketArn, props.snapshots.bucketArn],
        }),
        // A snapshot on demand adds an object; Object Lock keeps every earlier one as it was.
        new PolicyStatement({
          actions: ['s3:GetObject', 's3:GetObjectVersion', 's3:PutObject', 's3:AbortMultipartUpload'],
          resources: [props.snapshots.arnForObjects(`${SNAPSHOT_PREFIX}*`)],
        }),
        new PolicyStatement({
          actions: ['states:StartExecution', 'states:ListExecutions', 'states:DescribeStateMachine'],
          resources: [props.stateMachine.stateMachineArn],
        }),
        new PolicyStatement({ actions: [...OPERATOR_EXECUTION_ACTIONS], resources: [executions] }),
        ...(props.queues.length > 0
          ? [
              new PolicyStatement({
                actions: [...OPERATOR_QUEUE_ACTIONS],
                resources: props.queues.map((q) => q.queueArn),
              }),
            ]
          : []),
        new PolicyStatement({ actions: ['cloudformation:DescribeStacks'], resources: [stack.stackId] }),
      ],
    });
    const reasons: Record<string, string> = {
      [executions]: 'Executions are created per document; the policy names this state machine, not its runs.',
      [props.bucket.arnForObjects('*')]: 'Operators read any upload or artifact of the documents bucket.',
      [props.snapshots.arnForObjects(`${SNAPSHOT_PREFIX}*`)]:
        'One snapshot object per tenant and time, all under ledger/snapshots/.',
      ...Object.fromEntries(
        props.tables.map((t) => [
          `${t.tableArn}/index/*`,
          'Listing by state and the review queue use the GSIs.',
        ]),
      ),
    };
    for (const [resource, reason] of Object.entries(reasons)) {
      Validations.of(this.policy).acknowledge({ id: wildcardResourceFinding(this, resource), reason });
    }
  }
}
