import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { GuardContext, WorkflowEvent, WorkflowState } from '../../../statemachine/index.js';
import { when } from './conditions.js';
import { StaleWorkflowError, WorkflowNotFoundError } from './errors.js';
import type { TransitionLog } from './transitionLog.js';
import type { ItemPatch, LogEntry, RecordedError, StoredPatch, WorkflowItem } from './types.js';
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

/** Attributes the store derives on every transition so indexes follow the state. */
const derivedPatch = (
  item: WorkflowItem,
  to: WorkflowState,
  event: WorkflowEvent,
  at: string,
  request: ItemPatch,
): StoredPatch => {
  const review = request.review ?? item.review;
  const inReview = to === 'review_required';
  const summary = (request.summary ?? item.summary) as
    | { docType?: string; counterpartyKey?: string; date?: string }
    | undefined;
  const reference = to === 'completed' && summary?.docType && summary.counterpartyKey;
  return {
    gsiStateKey: `${to}#${at}`,
    reviewTenant: inReview ? item.tenant : null,
    reviewRank: inReview ? reviewRank(review?.priority ?? 0, at) : null,
    ...(reference && {
      refKey: counterpartyKey(item.tenant, summary.docType as string, summary.counterpartyKey as string),
      refSort: `${summary.date ?? ''}#${at}`,
    }),
    entryFailures: null,
    ...(event === 'retry' && { retryCount: item.retryCount + 1 }),
    ...(event === 'fail' && { failedAtStep: item.state }),
  };
};

/** The log entry that moves `item` to `to`: sequence number `version + 1`, with the item change. */
export const entryFor = (
  item: WorkflowItem,
  to: WorkflowState,
  request: TransitionRequest,
  at: string,
): LogEntry => {
  const patch: StoredPatch = {
    ...request.patch,
    ...(request.error && { lastError: request.error }),
    ...derivedPatch(item, to, request.event, at, request.patch ?? {}),
  };
  return {
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
  };
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
  ) {}

  /** Moves the item to the entry's state on `version = seq - 1`; a rival may have done it first. */
  async apply(entry: LogEntry): Promise<WorkflowItem> {
    const patch = {
      ...entry.patch,
      state: entry.to,
      version: entry.seq,
      lastEvent: entry.event,
      updatedAt: entry.at,
      stateEnteredAt: entry.at,
    };
    try {
      return await conditionalUpdate(
        this.client,
        this.table,
        entry.workflowId,
        patch,
        when.equals('version', entry.seq - 1),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      const current = await this.find(entry.workflowId);
      if (!current) throw new WorkflowNotFoundError(entry.workflowId);
      if (current.version >= entry.seq) return current;
      throw new StaleWorkflowError(
        entry.workflowId,
        `log entry ${entry.seq} cannot follow version ${current.version}`,
      );
    }
  }

  /** Applies log entries the item has not seen yet (a writer crashed between its two writes). */
  async rollForward(item: WorkflowItem): Promise<WorkflowItem> {
    let current = item;
    for (const entry of await this.log.entries(item.id, item.version)) {
      if (entry.seq !== current.version + 1) break;
      current = await this.apply(entry);
    }
    return current;
  }
}
