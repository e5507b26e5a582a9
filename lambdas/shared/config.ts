import { CLAIM_TTL_ENV } from './claimWindow.js';
import { requireEnv } from './env.js';
import { PROVIDERS_TABLE, TRANSITIONS_TABLE, tableEnvVar, WORKFLOWS_TABLE } from './store/index.js';

/** Names of the environment variables the Docket constructs bind (one place, read by CDK too). */
export const EnvVar = {
  workflowsTable: tableEnvVar(WORKFLOWS_TABLE),
  transitionsTable: tableEnvVar(TRANSITIONS_TABLE),
  providersTable: tableEnvVar(PROVIDERS_TABLE),
  bucket: 'DOCUMENTS_BUCKET',
  extractor: 'DOCKET_EXTRACTOR',
  bedrockModelId: 'DOCKET_BEDROCK_MODEL_ID',
  maxPdfBytes: 'MAX_PDF_BYTES',
  maxPdfPages: 'MAX_PDF_PAGES',
  parseTimeoutMs: 'PARSE_TIMEOUT_MS',
  parseMemoryMb: 'PARSE_MEMORY_MB',
  stateMachineArn: 'STATE_MACHINE_ARN',
  deadLetterQueueUrl: 'DEAD_LETTER_QUEUE_URL',
  uploadQueueUrl: 'UPLOAD_QUEUE_URL',
  executionSlotLimit: 'EXECUTION_SLOT_LIMIT',
  /** Where ledger snapshots go (on AWS a bucket with Object Lock; locally the documents bucket). */
  /**
   * The review target, seconds (`reviewSlaSeconds`): review-metrics counts open reviews past it.
   * The local runtime's variable too, so `docket report sla` reads the target the stack uses.
   */
  reviewSlaSeconds: 'DOCKET_REVIEW_SLA_SECONDS',
  ledgerSnapshotBucket: 'LEDGER_SNAPSHOT_BUCKET',
  /** The EventBridge bus completion events are published to (the outbox deliverer). */
  eventBusName: 'EVENT_BUS_NAME',
  /** How long a review claim lasts without activity, seconds (the review API, `docket review`). */
  claimTtlSeconds: CLAIM_TTL_ENV,
} as const;

/** Table names of the workflow store, read once per cold start. */
export const storeTablesFromEnv = () => ({
  workflows: requireEnv(EnvVar.workflowsTable),
  transitions: requireEnv(EnvVar.transitionsTable),
});

/**
 * Memoises a dependency factory: environment is read and clients are built on the first
 * invocation, then reused by every warm one.
 */
export const once = <T>(factory: () => T): (() => T) => {
  let value: { v: T } | undefined;
  return () => {
    value ??= { v: factory() };
    return value.v;
  };
};
