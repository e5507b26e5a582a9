import { EnvVar } from '../lambdas/shared/config.js';

/**
 * The stack outputs, by key. The `docket` CLI reads them (CloudFormation DescribeStacks) to work
 * against a deployed stack; `env` names the environment variable each one feeds, the same ones the
 * Lambda functions and the local runtime use.
 */
export const StackOutput = {
  region: { key: 'Region', description: 'Region of the stack' },
  bucket: { key: 'DocumentsBucket', description: 'Upload PDFs under incoming/{tenant}/', env: EnvVar.bucket },
  workflowsTable: {
    key: 'WorkflowsTable',
    description: 'Workflow items (one per document)',
    env: EnvVar.workflowsTable,
  },
  transitionsTable: {
    key: 'TransitionsTable',
    description: 'Append-only transition log',
    env: EnvVar.transitionsTable,
  },
  providersTable: {
    key: 'ProvidersTable',
    description: 'Providers / counterparties (docket providers import)',
    env: EnvVar.providersTable,
  },
  stateMachineArn: {
    key: 'StateMachineArn',
    description: 'The Docket state machine',
    env: EnvVar.stateMachineArn,
  },
  workflowLogGroup: {
    key: 'WorkflowLogGroup',
    description: 'Log group of the state machine (its name carries a per-stack suffix)',
  },
  uploadQueueUrl: {
    key: 'UploadQueueUrl',
    description: 'Uploads waiting for an execution slot',
    env: EnvVar.uploadQueueUrl,
  },
  deadLetterQueueUrl: {
    key: 'DeadLetterQueueUrl',
    description: 'Uploads Docket could not start (docket dlq list|redrive)',
    env: EnvVar.deadLetterQueueUrl,
  },
  apiUrl: { key: 'ApiUrl', description: 'Reviewer API base URL' },
  userPoolId: { key: 'UserPoolId', description: 'Cognito user pool of reviewers and admins' },
  userPoolClientId: { key: 'UserPoolClientId', description: 'App client for reviewer sign-in' },
  alarmTopicArn: { key: 'AlarmTopicArn', description: 'SNS topic the alarms publish to' },
  dashboardName: { key: 'DashboardName', description: 'CloudWatch dashboard' },
  ledgerSnapshotBucket: {
    key: 'LedgerSnapshotBucket',
    description: 'Ledger snapshots under ledger/snapshots/ (Object Lock, compliance mode)',
    env: EnvVar.ledgerSnapshotBucket,
  },
  eventBusName: {
    key: 'EventBusName',
    description: 'Event bus of the completion events (source docket; dedupe by detail.eventId)',
    env: EnvVar.eventBusName,
  },
  resultsDatabase: {
    key: 'ResultsDatabase',
    description:
      'Glue database of the results: tables invoices and contracts (query with WHERE tenant = ...)',
  },
  reprocessStateMachineArn: {
    key: 'ReprocessStateMachineArn',
    description: 'The reprocess state machine (docket reprocess): a Distributed Map over workflow ids',
  },
  resultsWorkGroup: {
    key: 'ResultsWorkGroup',
    description:
      'Athena workgroup for SQL over the results (query results encrypted in the documents bucket)',
  },
  operatorPolicyArn: {
    key: 'OperatorPolicyArn',
    description: 'Managed policy for operators running docket --stack (attach to their role or group)',
  },
} as const satisfies Record<string, { key: string; description: string; env?: string }>;

/** One of the outputs. */
export type StackOutputName = keyof typeof StackOutput;
