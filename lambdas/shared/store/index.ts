/**
 * The workflow store: the one module other code imports it through. Everything a caller needs is
 * here; the files behind it (log, projection, queries, attribute updates) are its insides.
 */
export type { UpdateOptions } from './attributeUpdate.js';
export { entryHash, GENESIS_HASH, headOf, isChainHash } from './chain.js';
export type { ChainFinding, LedgerFindingKind } from './chainVerify.js';
export { type Condition, when } from './conditions.js';
export {
  InvalidCursorError,
  LedgerTamperedError,
  ReservedAttributeError,
  StaleWorkflowError,
  TransitionConflictError,
  TransitionContentionError,
  UnloggableAttributeError,
  WorkflowNotFoundError,
} from './errors.js';
export type { ExtractionCacheRecord } from './extractionCache.js';
export {
  exportLedger,
  type LedgerStats,
  ledgerStats,
  type TimeInState,
} from './ledger.js';
export {
  type LedgerProblem,
  type LedgerScope,
  type LedgerVerification,
  verifyLedger,
  verifyWorkflowLog,
  workflowsIn,
} from './ledgerVerify.js';
export {
  COMPLETION_EVENT_TYPES,
  NOTIFICATION_EVENT_TYPE,
  notificationEntriesFor,
  OUTBOX_PENDING,
  outboxEntryFor,
  outboxEventId,
} from './outbox.js';
export type { TransitionRequest } from './projection.js';
export type { ListQuery, Page } from './queries.js';
export {
  createTableInput,
  Index,
  type IndexSpec,
  type KeyAttribute,
  PROVIDERS_TABLE,
  TABLES,
  type TableSpec,
  TRANSITIONS_TABLE,
  tableEnvVar,
  WORKFLOWS_TABLE,
} from './tables.js';
export type {
  Artifacts,
  CompletionEventType,
  DocumentSource,
  ImportedStep,
  ItemPatch,
  LedgerFlag,
  LogEntry,
  NewWorkflow,
  OutboxEntry,
  RecordedError,
  ReprocessInfo,
  ReviewInfo,
  StoreTables,
  TransitionOutcome,
  WorkflowAttributes,
  WorkflowItem,
  WorkflowStoreOptions,
} from './types.js';
export { WorkflowOutbox } from './workflowOutbox.js';
export { isWorkflowId, WorkflowStore, workflowIdFor } from './workflowStore.js';
