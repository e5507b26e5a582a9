import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WorkflowEvent, WorkflowState } from '../../../statemachine/index.js';
import type { ReviewStep } from '../../../statemachine/reviewPolicies/index.js';
import type { FieldLock } from '../documents/index.js';
import type { PathOf, ValueAt } from './paths.js';

/** Where a document came from (the S3 object version that started the workflow). */
export interface DocumentSource {
  bucket: string;
  key: string;
  versionId?: string;
  etag?: string;
  size?: number;
  sha256?: string;
}

/** An error recorded with a `fail` transition, structured so an audit can group and count errors. */
export interface RecordedError {
  /** The error's `name`, the same string Step Functions Catch matched. */
  type: string;
  message: string;
  retryable: boolean;
}

/** Review bookkeeping on the workflow item (the task token is kept apart, see `reviewTaskToken`). */
export interface ReviewInfo {
  /** 0-100, higher is more urgent. */
  priority: number;
  /** Review reason codes and messages from validation, with the fields each is about. */
  reasons: { code: string; message: string; fields?: string[] }[];
  /** ISO time the review times out unless someone claims it: its Task's heartbeat deadline. */
  dueAt?: string;
  /**
   * The heartbeat the review's current Task started with (its `HeartbeatSecondsPath`, recorded by
   * schedule-review): a claim, which sends SendTaskHeartbeat, moves `dueAt` this far ahead, as
   * Step Functions re-arms the heartbeat with it.
   */
  heartbeatSeconds?: number;
  /** @deprecated Written by request-review before `heartbeatSeconds`: the configured timeout. */
  timeoutSeconds?: number;
  claimedBy?: string;
  /** When `claimedBy` first claimed it: a renewal by the same reviewer keeps it. */
  claimedAt?: string;
  /**
   * When the claim runs out unless its holder acts again (claims, decides): then it no longer
   * keeps anyone else from the review. Absent on claims made before claims expired.
   */
  claimExpiresAt?: string;
  decision?: {
    decision: 'approve' | 'correct' | 'reject';
    reviewer: string;
    at: string;
    reason?: string;
    corrections?: Record<string, unknown>;
  };
  /**
   * When request-review handed the recorded decision to a review task itself (the review was
   * re-armed after the decision was written). The review API then must not undo the decision when
   * its own `SendTaskSuccess` finds the old token gone.
   */
  redeliveredAt?: string;
  /**
   * When the recorded decision was handed to its review task. A decision without it (and without
   * `redeliveredAt`) long after it was recorded lost its delivery to a crash, and is sent again.
   */
  deliveredAt?: string;
  /**
   * Under a review policy: the approval step the review is at (policy, version, step, the role that
   * decides it, whom four-eyes excludes, whether an escalation brought it here).
   */
  step?: ReviewStep;
  /**
   * Under a review policy: who decided the earlier steps of this run, in order. Four-eyes reads it
   * (the log holds the same, as each decision's actor and step).
   */
  deciders?: { step: string; reviewer: string; decision: 'approve' | 'correct' | 'reject'; at: string }[];
  /** Under a review policy with a `timeout`: when the whole review ends, however often it escalated. */
  policyDueAt?: string;
}

/** S3 keys of the artifacts a workflow has written. */
export interface Artifacts {
  text?: string;
  /** The machine's extraction (immutable: the content-hash cache hands it on). */
  extraction?: string;
  /** The extraction with a reviewer's corrections applied. */
  reviewed?: string;
  comparison?: string;
}

/** The attributes stages may set through a transition or an update (not state/version). */
export interface WorkflowAttributes {
  docType?: 'contract' | 'invoice';
  source?: DocumentSource;
  pageCount?: number;
  /** Overall confidence 0-100 from validation. */
  confidence?: number;
  /**
   * Each extracted field's confidence 0-1 after validation's checks (sums, the vendor master):
   * what decided between auto-approval and a person, shown instead of the extractor's first reading.
   */
  fieldConfidence?: Record<string, number>;
  retryCount?: number;
  failedAtStep?: WorkflowState;
  lastError?: RecordedError;
  /** Identity of the last failure mark-failed recorded, to recognise it when handed over again. */
  lastFailureKey?: string;
  /** Failures in a row before a stage's first write (no state change to log); reset by the next transition. */
  entryFailures?: number;
  review?: ReviewInfo;
  artifacts?: Artifacts;
  executionArn?: string;
  /** Workflow whose extraction this one reused (same content, so it was not extracted again). */
  cachedFrom?: string;
  /**
   * Server-side only: never returned by an API, never logged. Anyone with the token and Step
   * Functions access could decide the review past the API's checks.
   */
  reviewTaskToken?: string;
  /** Why and by whom an operator cancelled the workflow (on the item: the log holds no free text). */
  cancellation?: { reason: string; by: string; at: string };
  /**
   * When an erasure of the workflow began (set before it deletes anything; the `erase` log entry
   * ends it). The outbox deliverer checks it after writing a result (erasure.ts).
   */
  erasingSince?: string;
  /**
   * For a history imported from an older pipeline: per source file (its SHA-256), the last line
   * imported, so running the import again writes nothing twice.
   */
  legacyImport?: Record<string, number>;
  /** Free-form stage results small enough for the item (ids, counts, summaries). */
  summary?: Record<string, unknown>;
  /**
   * Which run of the document the workflow is on: absent on the first, 1 after the first
   * `reprocess`, and so on. Each run writes its artifacts under its own keys (`artifactKey`).
   */
  run?: number;
  /** The last reprocess: who asked, and what the run before it left. */
  reprocess?: ReprocessInfo;
  /**
   * Fields a person set (a reviewer's correction), by name: every later run keeps the value the
   * person gave, and the record says who set it and when. Names and authors only; the values are
   * in the previous run's record.
   */
  lockedFields?: Record<string, FieldLock>;
}

/** A reprocess of a completed workflow (`docket reprocess`). */
export interface ReprocessInfo {
  /** The run it started. */
  run: number;
  /** The reprocess batch (one `docket reprocess`): a repeated request of the same batch is a no-op. */
  batch: string;
  requestedBy: string;
  at: string;
  /** The completed run before it: its final record stays readable at `record`. */
  previous: {
    run: number;
    /** S3 key of its final record (the reviewed one when a person corrected it). */
    record: string;
    completedAt: string;
    /** The person who approved it, when one did: a change to its record then needs a person again. */
    approvedBy?: string;
    /** Its JSON result, which the new run's result replaces. */
    resultKey?: string;
  };
  /** Fields whose value the new run changed (set by extract). */
  changedFields?: string[];
}

/** The workflow item: the current snapshot, `version` = seq of the last log entry applied. */
export interface WorkflowItem extends WorkflowAttributes {
  id: string;
  tenant: string;
  state: WorkflowState;
  version: number;
  idempotencyKey: string;
  createdAt: string;
  updatedAt: string;
  stateEnteredAt: string;
  lastEvent?: WorkflowEvent;
  retryCount: number;
  createdBy: string;
  /**
   * The `hash` of the log entry at `version`: the head of the workflow's chain. Absent at version
   * 0 (the chain starts from `GENESIS_HASH`) and on items last moved before the log was chained.
   */
  headHash?: string;
  /**
   * The chain encoding the workflow's log was begun with (1). Absent only on workflows created
   * before the log was chained: only those may have entries without hashes, at the start.
   */
  ledgerChain?: 1;
  /** Set when the store found a log entry after `version` that does not chain, and left it alone. */
  ledgerFlag?: LedgerFlag;
  /**
   * Events waiting for the deliverer, by event id: written by the store in the same conditional
   * write as the transition that makes them (see outbox.ts), removed once published.
   */
  outbox?: Record<string, OutboxEntry>;
  /** `pending` while the outbox may hold an entry: the sparse outbox index's partition key. */
  outboxPending?: string;
  /** When the newest entry was written: the outbox index's sort key. */
  outboxAt?: string;
}

/** The type (EventBridge `detail-type`) of the event a workflow's end publishes. */
export type CompletionEventType =
  | 'Docket Document Completed'
  | 'Docket Document Rejected'
  | 'Docket Document Timed Out'
  | 'Docket Document Cancelled';

/** The type of the event a review policy's notification step publishes. */
export type NotificationEventType = 'Docket Review Notification';

/**
 * An event waiting in a workflow's outbox: ids and the type only, never document content (the
 * event's detail is built when it is delivered, from the item and its artifacts).
 */
export interface OutboxEntry {
  /** `{workflowId}:{seq}`: the same on every delivery of the event, for consumers to dedupe by. */
  eventId: string;
  type: CompletionEventType | NotificationEventType;
  /**
   * A review policy's notification: the channel and the message as the policy wrote it (its
   * placeholders are filled when it is delivered). Policy text, never document content.
   */
  notification?: { policy: string; step: string; channel: string; message: string };
  /** The log entry that made it, and the state that entry entered. */
  seq: number;
  state: WorkflowState;
  /** Who caused the transition (`system`, a reviewer, an operator), as the log entry says. */
  actor: string;
  /** The transition's time. */
  createdAt: string;
}

/**
 * A change to the item's attributes, by dotted path (`review.claimedBy`); `null` removes one.
 * `state`, `version` and the other keys of the item itself are not paths of `WorkflowAttributes`,
 * so naming one is a type error: only a transition moves a workflow, through the table.
 */
export type ItemPatch = { [P in PathOf<WorkflowAttributes>]?: ValueAt<WorkflowAttributes, P> | null };

/**
 * The index attributes the store derives on every transition so the GSIs follow the state: never
 * set by a caller, stored with the entry's patch so a roll-forward sets them too.
 */
export interface IndexAttributes {
  gsiStateKey?: string | null;
  reviewTenant?: string | null;
  reviewRank?: string | null;
  refKey?: string | null;
  refSort?: string | null;
}

/**
 * The item change a transition made, as stored in its log entry so a crashed writer's transition
 * can be rolled forward from the log alone.
 */
export type StoredPatch = ItemPatch & IndexAttributes;

/** One transition log entry (pk workflowId, sk seq): write-once. */
export interface LogEntry {
  workflowId: string;
  seq: number;
  tenant: string;
  from: WorkflowState;
  to: WorkflowState;
  event: WorkflowEvent;
  /** `system`, or the reviewer / operator who caused it. */
  actor: string;
  at: string;
  /** Time spent in `from`, ms. */
  durationMs: number;
  /** Retries spent after this transition. */
  retryCount: number;
  error?: RecordedError;
  metadata?: Record<string, unknown>;
  /** The item change this transition made (see `StoredPatch`). */
  patch: StoredPatch;
  /**
   * The previous entry's `hash` (`GENESIS_HASH` for the first) and this entry's own (see
   * `chain.ts` for the encoding). Absent only on entries written before the log was chained.
   */
  prevHash?: string;
  hash?: string;
}

/** Why the store stopped at a log entry it would not apply (see `ItemProjection.rollForward`). */
export interface LedgerFlag {
  /** The sequence number of the entry refused. */
  seq: number;
  /** What was wrong with it, for a person. */
  reason: string;
  /** When the store found it. */
  at: string;
}

/** Table names the store writes to. */
export interface StoreTables {
  workflows: string;
  transitions: string;
}

/** What a new workflow starts with. */
export interface NewWorkflow {
  tenant: string;
  /**
   * Same key, same workflow: a duplicate create returns the first one, since S3 may deliver the
   * same "Object Created" event more than once.
   */
  idempotencyKey: string;
  source?: DocumentSource;
  actor?: string;
  attributes?: WorkflowAttributes;
  /** When it began, if not now (an imported history begins at its first record). */
  createdAt?: string;
}

/** A step of an imported history, written as it happened (see `WorkflowStore.importStep`). */
export interface ImportedStep {
  to: WorkflowState;
  /** When it happened, by the history's own clock. */
  at: string;
  actor: string;
  metadata: Record<string, unknown>;
  patch?: ItemPatch;
}

/** The committed transition and the item after it. */
export interface TransitionOutcome {
  workflow: WorkflowItem;
  entry: LogEntry;
}

/** How a store is built. */
export interface WorkflowStoreOptions {
  client: DynamoDBDocumentClient;
  tables: StoreTables;
  /** Clock, injectable so tests and the ledger can reason about durations. */
  now?: () => Date;
  /** How many times one `transition` call re-reads after losing a race. */
  maxAttempts?: number;
}
