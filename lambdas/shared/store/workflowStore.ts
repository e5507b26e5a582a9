import { createHash } from 'node:crypto';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  type GuardContext,
  INITIAL_STATE,
  transition,
  type WorkflowEvent,
  type WorkflowState,
} from '../../../statemachine/index.js';
import {
  StaleWorkflowError,
  TransitionConflictError,
  TransitionContentionError,
  WorkflowNotFoundError,
} from './errors.js';
import { Index } from './tables.js';
import type {
  DocumentSource,
  ItemPatch,
  LogEntry,
  RecordedError,
  WorkflowAttributes,
  WorkflowItem,
} from './types.js';
import { buildUpdate, isConditionFailed } from './updateExpression.js';

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
}

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

/** The committed transition and the item after it. */
export interface TransitionOutcome {
  workflow: WorkflowItem;
  entry: LogEntry;
}

/** A page of a listing and the cursor of the next one. */
export interface Page<T> {
  items: T[];
  cursor?: string;
}

/** Filters of `list`. */
export interface ListQuery {
  tenant?: string;
  state?: WorkflowState;
  limit?: number;
  cursor?: string;
}

/** A cached extraction, reused by uploads of the same content: the work is not paid for twice. */
export interface ExtractionCacheRecord {
  tenant: string;
  sha256: string;
  workflowId: string;
  artifacts: { text: string; extraction: string };
  pageCount: number;
  docType?: 'contract' | 'invoice';
}

export interface WorkflowStoreOptions {
  client: DynamoDBDocumentClient;
  tables: StoreTables;
  /** Clock, injectable so tests and the ledger can reason about durations. */
  now?: () => Date;
  /** How many times one `transition` call re-reads after losing a race. */
  maxAttempts?: number;
}

const MAX_EPOCH_MS = 9_999_999_999_999;

/** Sort key of the review queue: priority first, then oldest first (both descending-friendly). */
export const reviewRank = (priority: number, enteredAt: string): string =>
  `${String(Math.max(0, Math.min(999, Math.round(priority)))).padStart(3, '0')}#${String(
    MAX_EPOCH_MS - Date.parse(enteredAt),
  ).padStart(13, '0')}`;

/** Deterministic workflow id for an idempotency key: the key can only ever create one item. */
export const workflowIdFor = (idempotencyKey: string): string =>
  `wf-${createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 22).toLowerCase().replace(/[-_]/g, '0')}`;

const cacheId = (tenant: string, sha256: string) => `cache#${tenant}#${sha256}`;

/** Partition key of the counterparty index: completed documents of one type and counterparty. */
const counterpartyKey = (tenant: string, docType: string, counterparty: string) =>
  `${tenant}#${docType}#${counterparty}`;

const encodeCursor = (key: Record<string, unknown> | undefined): string | undefined =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : undefined;

const decodeCursor = (cursor: string | undefined): Record<string, unknown> | undefined =>
  cursor
    ? (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>)
    : undefined;

/** Attributes the store derives on every transition so indexes follow the state. */
const derivedPatch = (
  item: WorkflowItem,
  to: WorkflowState,
  event: WorkflowEvent,
  at: string,
  request: ItemPatch,
): ItemPatch => {
  const review = (request.review ?? item.review) as WorkflowItem['review'];
  const inReview = to === 'review_required';
  const summary = (request.summary ?? item.summary) as {
    docType?: string;
    counterpartyKey?: string;
    date?: string;
  };
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

/**
 * The workflow store on DynamoDB: a workflow item and its append-only transition log. A
 * transition is "the log is the lock":
 * read the item, check the table, put log entry `seq = version + 1` if absent (only one writer
 * gets a sequence number), then move the item to `version = seq` on `version = seq - 1`. A writer
 * that finds its sequence number taken rolls the item forward from the log and decides again.
 * Reading state is one GetItem whatever the history length.
 */
export class WorkflowStore {
  private readonly client: DynamoDBDocumentClient;
  private readonly tables: StoreTables;
  private readonly now: () => Date;
  private readonly maxAttempts: number;

  constructor(options: WorkflowStoreOptions) {
    this.client = options.client;
    this.tables = options.tables;
    this.now = options.now ?? (() => new Date());
    this.maxAttempts = options.maxAttempts ?? 8;
  }

  /** Creates a workflow at `pending`, or returns the one its idempotency key already created. */
  async create(input: NewWorkflow): Promise<{ workflow: WorkflowItem; created: boolean }> {
    const at = this.now().toISOString();
    const item: WorkflowItem = {
      // Stages add their artifacts by key (`artifacts.text`), which needs the map to exist.
      artifacts: {},
      ...input.attributes,
      id: workflowIdFor(input.idempotencyKey),
      tenant: input.tenant,
      state: INITIAL_STATE,
      version: 0,
      idempotencyKey: input.idempotencyKey,
      retryCount: 0,
      createdAt: at,
      updatedAt: at,
      stateEnteredAt: at,
      createdBy: input.actor ?? 'system',
      ...(input.source && { source: input.source }),
    };
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tables.workflows,
          Item: { ...item, gsiTenant: item.tenant, gsiStateKey: `${item.state}#${at}` },
          ConditionExpression: 'attribute_not_exists(id)',
        }),
      );
      return { workflow: item, created: true };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      return { workflow: await this.get(item.id), created: false };
    }
  }

  /** The workflow, or `undefined`. Consistent read: one GetItem. */
  async find(id: string, options: { tenant?: string } = {}): Promise<WorkflowItem | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tables.workflows, Key: { id }, ConsistentRead: true }),
    );
    const item = Item as (WorkflowItem & { state?: unknown }) | undefined;
    if (!item || item.state === undefined) return undefined;
    if (options.tenant !== undefined && item.tenant !== options.tenant) return undefined;
    return item;
  }

  /**
   * The workflow, or `WorkflowNotFoundError` (also for another tenant's). With `repair`, also
   * checks the log for entries a crashed writer left unapplied and rolls the item forward.
   */
  async get(id: string, options: { tenant?: string; repair?: boolean } = {}): Promise<WorkflowItem> {
    const item = await this.find(id, options);
    if (!item) throw new WorkflowNotFoundError(id);
    return options.repair ? this.rollForward(item) : item;
  }

  /**
   * Applies an event through the transition table with the log-is-the-lock protocol.
   *
   * `target` is an id (the item is read first) or an item the caller already read, which then
   * also serves as the expected version: the uncontended path is one read and two writes.
   * With an expected version (`request.expectVersion` or a passed item), any change by another
   * writer is a `TransitionConflictError`. Without one, a writer that loses the race decides again
   * on the new state, and fails with the conflict only if its event no longer applies.
   */
  async transition(target: string | WorkflowItem, request: TransitionRequest): Promise<TransitionOutcome> {
    const id = typeof target === 'string' ? target : target.id;
    const expectVersion = typeof target === 'string' ? request.expectVersion : target.version;
    if (typeof target !== 'string' && request.tenant !== undefined && target.tenant !== request.tenant) {
      throw new WorkflowNotFoundError(id);
    }
    let item = typeof target === 'string' ? await this.get(id, { tenant: request.tenant }) : target;
    let raced = false;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      if (expectVersion !== undefined && item.version !== expectVersion) {
        if (item.version > expectVersion || raced)
          throw new TransitionConflictError(id, request.event, item.state);
        item = await this.rollForward(item);
        raced = true;
        continue;
      }
      const decided = transition(item.state, request.event, request.context);
      if (!decided.ok) {
        // Before refusing, make sure the item is not behind its log (a crashed writer).
        const caughtUp = await this.rollForward(item);
        if (caughtUp.version !== item.version) {
          // The log moved past the caller's snapshot: a conflict (transient), not an illegal event.
          if (expectVersion !== undefined) {
            throw new TransitionConflictError(id, request.event, caughtUp.state, { cause: decided.error });
          }
          item = caughtUp;
          raced = true;
          continue;
        }
        if (raced) throw new TransitionConflictError(id, request.event, item.state, { cause: decided.error });
        throw decided.error;
      }
      const entry = this.entryFor(item, decided.to, request);
      try {
        await this.client.send(
          new PutCommand({
            TableName: this.tables.transitions,
            Item: entry,
            ConditionExpression: 'attribute_not_exists(workflowId)',
          }),
        );
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
        // Someone holds this sequence number: a live rival or a writer that crashed before
        // updating the item. Either way the log is the truth; catch the item up and decide again.
        item = await this.rollForward(item);
        raced = true;
        if (expectVersion !== undefined) throw new TransitionConflictError(id, request.event, item.state);
        continue;
      }
      return { workflow: await this.applyEntry(entry), entry };
    }
    throw new TransitionContentionError(id, this.maxAttempts);
  }

  /**
   * Sets attributes without a state change (review token, claim, decision), on a condition:
   * `expectState` must hold, plus any extra condition. Fails with `StaleWorkflowError` when not.
   */
  async update(
    id: string,
    patch: ItemPatch,
    options: {
      tenant?: string;
      expectState?: WorkflowState;
      condition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
    } = {},
  ): Promise<WorkflowItem> {
    const update = buildUpdate({ ...patch, updatedAt: this.now().toISOString() });
    const conditions = ['attribute_exists(id)'];
    const names: Record<string, string> = { ...update.ExpressionAttributeNames, ...options.condition?.names };
    const values: Record<string, unknown> = {
      ...update.ExpressionAttributeValues,
      ...options.condition?.values,
    };
    if (options.expectState) {
      conditions.push('#cState = :cState');
      names['#cState'] = 'state';
      values[':cState'] = options.expectState;
    }
    if (options.tenant !== undefined) {
      conditions.push('#cTenant = :cTenant');
      names['#cTenant'] = 'tenant';
      values[':cTenant'] = options.tenant;
    }
    if (options.condition) conditions.push(`(${options.condition.expression})`);
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tables.workflows,
          Key: { id },
          UpdateExpression: update.UpdateExpression,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes as WorkflowItem;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      const current = await this.find(id, { tenant: options.tenant });
      if (!current) throw new WorkflowNotFoundError(id);
      throw new StaleWorkflowError(
        id,
        options.expectState && current.state !== options.expectState
          ? `expected state "${options.expectState}", found "${current.state}"`
          : 'the update condition no longer holds',
      );
    }
  }

  /** The transition log of a workflow, oldest first (optionally only entries after `afterSeq`). */
  async history(id: string, options: { tenant?: string; afterSeq?: number } = {}): Promise<LogEntry[]> {
    if (options.tenant !== undefined) await this.get(id, { tenant: options.tenant });
    const entries: LogEntry[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tables.transitions,
          KeyConditionExpression: 'workflowId = :id AND seq > :after',
          ExpressionAttributeValues: { ':id': id, ':after': options.afterSeq ?? 0 },
          ConsistentRead: true,
          ExclusiveStartKey: cursor,
        }),
      );
      entries.push(...((page.Items ?? []) as LogEntry[]));
      cursor = page.LastEvaluatedKey;
    } while (cursor);
    return entries;
  }

  /** Lists workflows: by tenant (and state) through the GSI, across tenants by Scan. */
  async list(query: ListQuery = {}): Promise<Page<WorkflowItem>> {
    const limit = query.limit ?? 100;
    if (query.tenant !== undefined) {
      const input: QueryCommandInput = {
        TableName: this.tables.workflows,
        IndexName: Index.byTenantState,
        KeyConditionExpression: query.state
          ? 'gsiTenant = :t AND begins_with(gsiStateKey, :s)'
          : 'gsiTenant = :t',
        ExpressionAttributeValues: { ':t': query.tenant, ...(query.state && { ':s': `${query.state}#` }) },
        Limit: limit,
        ExclusiveStartKey: decodeCursor(query.cursor),
      };
      const page = await this.client.send(new QueryCommand(input));
      return { items: (page.Items ?? []) as WorkflowItem[], cursor: encodeCursor(page.LastEvaluatedKey) };
    }
    const page = await this.client.send(
      new ScanCommand({
        TableName: this.tables.workflows,
        FilterExpression: query.state ? '#s = :s' : 'attribute_exists(#s)',
        ExpressionAttributeNames: { '#s': 'state' },
        ...(query.state && { ExpressionAttributeValues: { ':s': query.state } }),
        Limit: limit,
        ExclusiveStartKey: decodeCursor(query.cursor),
      }),
    );
    return { items: (page.Items ?? []) as WorkflowItem[], cursor: encodeCursor(page.LastEvaluatedKey) };
  }

  /** Every workflow matching the query, following cursors. */
  async *listAll(query: Omit<ListQuery, 'cursor'> = {}): AsyncGenerator<WorkflowItem> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ ...query, cursor });
      yield* page.items;
      cursor = page.cursor;
    } while (cursor);
  }

  /** The review queue of a tenant, most urgent first (sparse GSI). */
  async reviewQueue(
    tenant: string,
    options: { limit?: number; cursor?: string } = {},
  ): Promise<Page<WorkflowItem>> {
    const page = await this.client.send(
      new QueryCommand({
        TableName: this.tables.workflows,
        IndexName: Index.reviewQueue,
        KeyConditionExpression: 'reviewTenant = :t',
        ExpressionAttributeValues: { ':t': tenant },
        ScanIndexForward: false,
        Limit: options.limit ?? 50,
        ExclusiveStartKey: decodeCursor(options.cursor),
      }),
    );
    return { items: (page.Items ?? []) as WorkflowItem[], cursor: encodeCursor(page.LastEvaluatedKey) };
  }

  /**
   * Completed documents of a tenant with this type and counterparty (normalised name), newest
   * first by document date: what compare needs, read from the sparse counterparty index.
   */
  async *completedByCounterparty(
    tenant: string,
    docType: string,
    counterparty: string,
  ): AsyncGenerator<WorkflowItem> {
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tables.workflows,
          IndexName: Index.byCounterparty,
          KeyConditionExpression: 'refKey = :k',
          ExpressionAttributeValues: { ':k': counterpartyKey(tenant, docType, counterparty) },
          ScanIndexForward: false,
          ExclusiveStartKey: cursor,
        }),
      );
      yield* (page.Items ?? []) as WorkflowItem[];
      cursor = page.LastEvaluatedKey;
    } while (cursor);
  }

  /** Records a finished extraction for reuse; the first writer for a content hash wins. */
  async putExtractionCache(record: ExtractionCacheRecord): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tables.workflows,
          Item: { id: cacheId(record.tenant, record.sha256), kind: 'cache', ...record },
          ConditionExpression: 'attribute_not_exists(id)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }

  /** The cached extraction a workflow was marked (at ingest) to reuse, if there is one. */
  async cachedExtractionFor(item: WorkflowItem): Promise<ExtractionCacheRecord | undefined> {
    if (!item.cachedFrom || !item.source?.sha256) return undefined;
    return this.findExtractionCache(item.tenant, item.source.sha256);
  }

  /** The cached extraction for this tenant's content hash, if any. */
  async findExtractionCache(tenant: string, sha256: string): Promise<ExtractionCacheRecord | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tables.workflows,
        Key: { id: cacheId(tenant, sha256) },
        ConsistentRead: true,
      }),
    );
    return Item as ExtractionCacheRecord | undefined;
  }

  /** Applies log entries the item has not seen yet (a writer crashed between its two writes). */
  async rollForward(item: WorkflowItem): Promise<WorkflowItem> {
    let current = item;
    for (const entry of await this.history(item.id, { afterSeq: item.version })) {
      if (entry.seq !== current.version + 1) break;
      current = await this.applyEntry(entry);
    }
    return current;
  }

  private entryFor(item: WorkflowItem, to: WorkflowState, request: TransitionRequest): LogEntry {
    const at = this.now().toISOString();
    const patch: ItemPatch = {
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
      retryCount: (patch.retryCount as number | undefined) ?? item.retryCount,
      ...(request.error && { error: request.error }),
      ...(request.metadata && { metadata: request.metadata }),
      patch,
    };
  }

  /** Moves the item to the entry's state on `version = seq - 1`; a rival may have done it first. */
  private async applyEntry(entry: LogEntry): Promise<WorkflowItem> {
    const update = buildUpdate({
      ...entry.patch,
      state: entry.to,
      version: entry.seq,
      lastEvent: entry.event,
      updatedAt: entry.at,
      stateEnteredAt: entry.at,
    });
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tables.workflows,
          Key: { id: entry.workflowId },
          UpdateExpression: update.UpdateExpression,
          ConditionExpression: '#cVersion = :cVersion',
          ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#cVersion': 'version' },
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':cVersion': entry.seq - 1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes as WorkflowItem;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      const current = await this.get(entry.workflowId);
      if (current.version >= entry.seq) return current;
      throw new StaleWorkflowError(
        entry.workflowId,
        `log entry ${entry.seq} cannot follow version ${current.version}`,
      );
    }
  }
}
