import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { GuardContext, WorkflowEvent, WorkflowState } from '../../../statemachine/index.js';
import { chainEntry, chainsAfter, effectiveHash, GENESIS_HASH, headOf } from './chain.js';
import { when } from './conditions.js';
import { StaleWorkflowError, WorkflowNotFoundError } from './errors.js';
import { checkLoggedPatch } from './loggedPatch.js';
import { outboxPatch } from './outbox.js';
import type { TransitionLog } from './transitionLog.js';
import type {
  IndexAttributes,
  ItemPatch,
  LedgerFlag,
  LogEntry,
  RecordedError,
  StoredPatch,
  WorkflowItem,
} from './types.js';
import { isConditionFailed } from './updateExpression.js';
import { conditionalUpdate } from './writes.js';

/** A state change to apply through the transition table. */
export interface TransitionRequest {
  event: WorkflowEvent;
  /** `system` unless a person caused it. */
  actor?: string;
  /** Facts the table's guards read (confidence, retry counts...). */
  context?: GuardContext;
  /** Item attributes this transition sets (null removes). */
  patch?: ItemPatch;
  metadata?: Record<string, unknown>;
  error?: RecordedError;
  /** When set, a workflow of another tenant is reported as not found. */
  tenant?: string;
  /** Optimistic lock: the version the caller decided on; any other is a conflict. */
  expectVersion?: number;
}

const MAX_EPOCH_MS = 9_999_999_999_999;

/** Sort key of the review queue: priority first, then oldest first (both descending-friendly). */
export const reviewRank = (priority: number, enteredAt: string): string =>
  `${String(Math.max(0, Math.min(999, Math.round(priority)))).padStart(3, '0')}#${String(
    MAX_EPOCH_MS - Date.parse(enteredAt),
  ).padStart(13, '0')}`;

/** Partition key of the counterparty index: completed documents of one type and counterparty. */
export const counterpartyKey = (tenant: string, docType: string, counterparty: string) =>
  `${tenant}#${docType}#${counterparty}`;

/**
 * The index attributes that follow the state, derived from the item before the transition and
 * the entry: computed when the entry is applied (also in a roll-forward), never stored in the
 * log, since the counterparty key is a name read from the document.
 */
const indexAttributes = (before: WorkflowItem, entry: LogEntry): IndexAttributes => {
  const { to, at } = entry;
  const inReview = to === 'review_required';
  const summary = before.summary as { docType?: string; counterpartyKey?: string; date?: string } | undefined;
  const reference = to === 'completed' && summary?.docType && summary.counterpartyKey;
  return {
    gsiStateKey: `${to}#${at}`,
    reviewTenant: inReview ? before.tenant : null,
    // An escalated review heads the queue (the console shows it first) until it moves on.
    reviewRank: inReview
      ? reviewRank(entry.event === 'escalate' ? 999 : (before.review?.priority ?? 0), at)
      : null,
    ...(reference && {
      refKey: counterpartyKey(before.tenant, summary.docType as string, summary.counterpartyKey as string),
      refSort: `${summary.date ?? ''}#${at}`,
    }),
  };
};

/**
 * The log entry that moves `item` to `to`: sequence number `version + 1`, chained after
 * `prevHash` (the item's head), with the item change it makes. The change may hold only what
 * `checkLoggedPatch` allows.
 */
export const entryFor = (
  item: WorkflowItem,
  to: WorkflowState,
  request: TransitionRequest,
  at: string,
  prevHash: string,
): LogEntry => {
  checkLoggedPatch(request.patch ?? {});
  const patch: StoredPatch = {
    ...request.patch,
    ...(request.error && { lastError: request.error }),
    entryFailures: null,
    ...(request.event === 'retry' && { retryCount: item.retryCount + 1 }),
    ...(request.event === 'fail' && { failedAtStep: item.state }),
  };
  return chainEntry(
    {
      workflowId: item.id,
      seq: item.version + 1,
      tenant: item.tenant,
      from: item.state,
      to,
      event: request.event,
      actor: request.actor ?? 'system',
      at,
      durationMs: Math.max(0, Date.parse(at) - Date.parse(item.stateEnteredAt)),
      retryCount: patch.retryCount ?? item.retryCount,
      ...(request.error && { error: request.error }),
      ...(request.metadata && { metadata: request.metadata }),
      patch,
    },
    prevHash,
  );
};

/**
 * The workflow item as the projection of its log: the only writer of `state` and `version`. An
 * entry is applied on `version = seq - 1`; entries a crashed writer left unapplied are rolled
 * forward from the log.
 */
export class ItemProjection {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly log: TransitionLog,
    private readonly find: (id: string) => Promise<WorkflowItem | undefined>,
    private readonly now: () => Date,
  ) {}

  /**
   * Moves the item (`before`, at version `seq - 1`) to the entry's state on `version = seq - 1`;
   * a rival may have done it first. A transition into an end state also puts its event in the
   * item's outbox, in the same write (outbox.ts).
   */
  apply(entry: LogEntry, before: WorkflowItem): Promise<WorkflowItem> {
    return this.applyRun([entry], before);
  }

  /**
   * Applies consecutive entries (`before` at the version before the first) in one conditional
   * update: their patches in order, then the last one's state, version and head. An import
   * writes a document's steps this way, one item update for several log appends; a crash before
   * the update leaves entries that chain, which the next roll-forward applies.
   */
  async applyRun(entries: readonly LogEntry[], before: WorkflowItem): Promise<WorkflowItem> {
    const first = entries[0] as LogEntry;
    const last = entries.at(-1) as LogEntry;
    const patch = Object.assign(
      {},
      ...entries.map((entry) => ({ ...indexAttributes(before, entry), ...entry.patch })),
      outboxPatch(before, entries),
      {
        headHash: last.hash ?? null,
        state: last.to,
        version: last.seq,
        lastEvent: last.event,
        updatedAt: last.at,
        stateEnteredAt: last.at,
      },
    );
    try {
      return await conditionalUpdate(
        this.client,
        this.table,
        last.workflowId,
        patch,
        when.equals('version', first.seq - 1),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      const current = await this.find(last.workflowId);
      if (!current) throw new WorkflowNotFoundError(last.workflowId);
      if (current.version >= last.seq) return current;
      throw new StaleWorkflowError(
        last.workflowId,
        `log entry ${first.seq} cannot follow version ${current.version}`,
      );
    }
  }

  /**
   * The head of the chain at the item's version: `headHash`, or for an item last moved before the
   * log was chained, the hash its log computes to (one Query, only for such items).
   */
  async headOf(item: WorkflowItem): Promise<string> {
    if (item.headHash !== undefined) return item.headHash;
    if (item.version === 0) return GENESIS_HASH;
    return headOf((await this.log.entries(item.id)).filter((e) => e.seq <= item.version));
  }

  /**
   * Applies log entries the item has not seen yet (a writer crashed between its two writes), as
   * long as they chain: an entry whose content does not give its hash, or that does not follow the
   * head, was not written by the store (edited, forged). It is not applied: the item is flagged
   * with `ledgerFlag` and returned as far as it got.
   */
  async rollForward(item: WorkflowItem): Promise<WorkflowItem> {
    let current = item;
    let head: string | undefined;
    for (const entry of await this.log.entries(item.id, item.version)) {
      if (entry.seq !== current.version + 1) break;
      head ??= await this.headOf(current);
      // A workflow begun before the chain existed may meet an unchained entry of that time.
      const legacy =
        current.ledgerChain === undefined && current.headHash === undefined && entry.hash === undefined;
      if (!legacy && !chainsAfter(entry, head)) return this.flag(current, entry, head);
      current = await this.apply(entry, current);
      head = effectiveHash(entry, head);
    }
    return current;
  }

  /** Records on the item that the entry after it was refused, unless another writer moved it. */
  private async flag(item: WorkflowItem, entry: LogEntry, head: string): Promise<WorkflowItem> {
    const reason =
      entry.prevHash !== head
        ? 'does not follow the head of the chain (prevHash differs)'
        : 'does not match its hash (its content was changed after it was written)';
    if (item.ledgerFlag?.seq === entry.seq) return item;
    const ledgerFlag: LedgerFlag = { seq: entry.seq, reason, at: this.now().toISOString() };
    try {
      return await conditionalUpdate(
        this.client,
        this.table,
        item.id,
        { ledgerFlag },
        when.equals('version', item.version),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      return item;
    }
  }
}
