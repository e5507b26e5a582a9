import { EnvVar } from '../../lambdas/shared/config.js';

/** Where the in-process Lambdas find their emulated services and tables. */
export interface LocalServices {
  region: string;
  endpoints: { dynamodb: string; s3: string; sfn?: string; sqs?: string; events?: string };
  /** The bus completion events are put on. */
  eventBus?: string;
  /** The upload queue and its dead-letter queue. */
  queues?: { uploads: string; deadLetters: string };
  /** The execution slot limit (`maxRunningExecutions`). */
  executionSlotLimit?: number;
  tables: { workflows: string; transitions: string; providers: string };
  bucket: string;
  stateMachineArn?: string;
  /** `POWERTOOLS_LOG_LEVEL` of the stages (default WARN). */
  logLevel?: string;
  /** How long a review claim lasts without activity (the review API's `DOCKET_CLAIM_TTL_SECONDS`). */
  claimTtlSeconds?: number;
  /** Extra settings (extractor, limits) passed through as-is. */
  extra?: Record<string, string>;
}

/**
 * The environment the Lambda handlers run with on one machine: only standard AWS variables
 * (`AWS_ENDPOINT_URL_*`, region, dummy credentials) plus the same Docket variables the CDK
 * constructs bind. Handler code reads them exactly as it does on AWS.
 */
export const lambdaEnvironment = (services: LocalServices): Record<string, string> => ({
  AWS_REGION: services.region,
  AWS_DEFAULT_REGION: services.region,
  // The emulators accept any credentials; these dummy ones (named after s3rver, which wanted them)
  // are never real.
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_ENDPOINT_URL_DYNAMODB: services.endpoints.dynamodb,
  AWS_ENDPOINT_URL_S3: services.endpoints.s3,
  ...(services.endpoints.sfn && { AWS_ENDPOINT_URL_SFN: services.endpoints.sfn }),
  ...(services.endpoints.sqs && { AWS_ENDPOINT_URL_SQS: services.endpoints.sqs }),
  ...(services.endpoints.events && { AWS_ENDPOINT_URL_EVENTBRIDGE: services.endpoints.events }),
  ...(services.eventBus && { [EnvVar.eventBusName]: services.eventBus }),
  ...(services.queues && {
    [EnvVar.uploadQueueUrl]: services.queues.uploads,
    [EnvVar.deadLetterQueueUrl]: services.queues.deadLetters,
  }),
  ...(services.executionSlotLimit !== undefined && {
    [EnvVar.executionSlotLimit]: String(services.executionSlotLimit),
  }),
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  [EnvVar.workflowsTable]: services.tables.workflows,
  [EnvVar.transitionsTable]: services.tables.transitions,
  [EnvVar.providersTable]: services.tables.providers,
  [EnvVar.bucket]: services.bucket,
  // The local S3 has no Object Lock: snapshots go to the stack's one bucket.
  [EnvVar.ledgerSnapshotBucket]: services.bucket,
  ...(services.stateMachineArn && { [EnvVar.stateMachineArn]: services.stateMachineArn }),
  ...(services.claimTtlSeconds !== undefined && {
    [EnvVar.claimTtlSeconds]: String(services.claimTtlSeconds),
  }),
  // No CloudWatch or X-Ray on one machine: keep the EMF lines and traces out of the console.
  POWERTOOLS_METRICS_DISABLED: 'true',
  POWERTOOLS_TRACE_ENABLED: 'false',
  // With tracing off, the X-Ray SDK's default automatic mode still installs cls-hooked's async
  // hooks when Powertools' Tracer loads it: an init and a destroy hook on every promise, about a
  // tenth of a function worker's CPU. Manual mode is the SDK's own switch for not doing that.
  AWS_XRAY_MANUAL_MODE: 'true',
  POWERTOOLS_LOG_LEVEL: services.logLevel ?? 'WARN',
  ...services.extra,
});
