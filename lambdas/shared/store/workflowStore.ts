import { createHash } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { INITIAL_STATE, transition } from '../../../statemachine/index.js';
import { type UpdateOptions, updateAttributes } from './attributeUpdate.js';
import { eraseItemContent } from './contentErasure.js';
import {
  LedgerTamperedError,
  TransitionConflictError,
  TransitionContentionError,
  WorkflowNotFoundError,
} from './errors.js';
import { ExtractionCache, type ExtractionCacheRecord } from './extractionCache.js';
import { entryFor, ItemProjection, type TransitionRequest } from './projection.js';
import { type ListQuery, type Page, WorkflowQueries } from './queries.js';
import { TransitionLog } from './transitionLog.js';
import type {
  ImportedStep,
  ItemPatch,
  LogEntry,
  NewWorkflow,
  StoreTables,
  TransitionOutcome,
  WorkflowItem,
  WorkflowStoreOptions,
} from './types.js';
import { putIfAbsent } from './writes.js';

/** Deterministic workflow id for an idempotency key: the key can only ever create one item. */
export const workflowIdFor = (idempotencyKey: string): string =>
  `wf-${createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 22).toLowerCase().replace(/[-_]/g, '0')}`;

/** Whether a string has the shape of an id `workflowIdFor` makes (no other ids exist). */
export const isWorkflowId = (id: string): boolean => /^wf-[a-z0-9]{22}$/.test(id);

/**
 * The workflow store on DynamoDB. A transition is "the log is the lock": read the item, check the
 * table, append log entry `seq = version + 1` if absent (only one writer gets a sequence number),
 * then project it onto the item on `version = seq - 1`. A writer that finds its sequence number
 * taken rolls the item forward from the log and decides again. Reading state is one GetItem
 * whatever the history length. The jobs live apart: `TransitionLog` appends, `ItemProjection`
 * moves and repairs the item, `WorkflowQueries` reads, `updateAttributes` makes the conditional
 * changes that are no transition (review token, claim, decision).
 */
export class WorkflowStore {
  private readonly client: DynamoDBDocumentClient;
  private readonly tables: StoreTables;
  private readonly now: () => Date;
  private readonly maxAttempts: number;
  private readonly log: TransitionLog;
  private readonly queries: WorkflowQueries;
  private readonly projection: ItemProjection;
  private readonly cache: ExtractionCache;

  constructor(options: WorkflowStoreOptions) {
    this.client = options.client;
    this.tables = options.tables;
    this.now = options.now ?? (() => new Date());
    this.maxAttempts = options.maxAttempts ?? 8;
    this.log = new TransitionLog(this.client, this.tables.transitions);
    this.queries = new WorkflowQueries(this.client, this.tables.workflows);
    this.projection = new ItemProjection(
      this.client,
      this.tables.workflows,
      this.log,
      (id) => this.queries.find(id),
      this.now,
    );
    this.cache = new ExtractionCache(this.client, this.tables.workflows);
  }

  /** Creates a workflow at `pending`, or returns the one its idempotency key already created. */
  async create(input: NewWorkflow): Promise<{ workflow: WorkflowItem; created: boolean }> {
    const at = input.createdAt ?? this.now().toISOString();
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
      // Every entry of this workflow's log is chained, from the first.
      ledgerChain: 1,
      ...(input.source && { source: input.source }),
    };
    const stored = { ...item, gsiTenant: item.tenant, gsiStateKey: `${item.state}#${at}` };
    if (await putIfAbsent(this.client, this.tables.workflows, stored, 'id')) {
      return { workflow: item, created: true };
    }
    return { workflow: await this.get(item.id), created: false };
  }

  /** The workflow, or `undefined`. Consistent read: one GetItem. */
  find(id: string, options: { tenant?: string } = {}): Promise<WorkflowItem | undefined> {
    return this.queries.find(id, options);
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
      const head = await this.projection.headOf(item);
      const entry = entryFor(item, decided.to, request, this.now().toISOString(), head);
      if (!(await this.log.append(entry))) {
        // Someone holds this sequence number: a live rival or a writer that crashed before
        // updating the item. Either way the log is the truth; catch the item up and decide again,
        // unless the entry there does not chain: no store wrote it, and nothing builds on it.
        const seq = entry.seq;
        item = await this.rollForward(item);
        if (item.version < seq && item.ledgerFlag?.seq === seq) {
          throw new LedgerTamperedError(id, seq, item.ledgerFlag.reason);
        }
        raced = true;
        if (expectVersion !== undefined) throw new TransitionConflictError(id, request.event, item.state);
        continue;
      }
      return { workflow: await this.projection.apply(entry, item), entry };
    }
    throw new TransitionContentionError(id, this.maxAttempts);
  }

  /**
   * Appends steps of a history imported from an older pipeline (`docket ledger import`), each an
   * `import` entry to `step.to` at the history's own time, chained and logged one by one (each
   * append is the lock, as in `transition`), then projected onto the item in one update. Not
   * checked against the table: history is recorded as it happened, and the import reports the
   * steps no row allows. Only for `item` as it is now: a workflow moved meanwhile is a
   * `TransitionConflictError`.
   */
  async importSteps(item: WorkflowItem, steps: readonly ImportedStep[]): Promise<WorkflowItem> {
    if (steps.length === 0) return item;
    let head = await this.projection.headOf(item);
    let at: WorkflowItem = item;
    const entries: LogEntry[] = [];
    for (const step of steps) {
      const request = {
        event: 'import' as const,
        actor: step.actor,
        metadata: step.metadata,
        ...(step.patch && { patch: step.patch }),
      };
      const entry = entryFor(at, step.to, request, step.at, head);
      if (!(await this.log.append(entry))) throw new TransitionConflictError(item.id, 'import', at.state);
      entries.push(entry);
      head = entry.hash as string;
      // The item as this entry leaves it, for the next entry's sequence number and duration.
      at = { ...at, state: entry.to, version: entry.seq, stateEnteredAt: entry.at, headHash: head };
    }
    return this.projection.applyRun(entries, item);
  }

  /**
   * Sets attributes without a state change (review token, claim, decision), on a condition:
   * `expectState` must hold, plus any `when`. Fails with `StaleWorkflowError` when not.
   */
  update(id: string, patch: ItemPatch, options: UpdateOptions = {}): Promise<WorkflowItem> {
    return updateAttributes(
      {
        client: this.client,
        table: this.tables.workflows,
        at: this.now().toISOString(),
        find: (itemId, findOptions) => this.find(itemId, findOptions),
      },
      id,
      patch,
      options,
    );
  }

  /** The transition log of a workflow, oldest first (optionally only entries after `afterSeq`). */
  async history(id: string, options: { tenant?: string; afterSeq?: number } = {}): Promise<LogEntry[]> {
    if (options.tenant !== undefined) await this.get(id, { tenant: options.tenant });
    return this.log.entries(id, options.afterSeq);
  }

  /** Lists workflows: by tenant (and state) through the GSI, across tenants by Scan. */
  list(query: ListQuery = {}): Promise<Page<WorkflowItem>> {
    return this.queries.list(query);
  }

  /** Every workflow matching the query, following cursors. */
  listAll(query: Omit<ListQuery, 'cursor'> = {}): AsyncGenerator<WorkflowItem> {
    return this.queries.listAll(query);
  }

  /** The review queue of a tenant, most urgent first (sparse GSI). */
  reviewQueue(
    tenant: string,
    options: { limit?: number; cursor?: string } = {},
  ): Promise<Page<WorkflowItem>> {
    return this.queries.reviewQueue(tenant, options);
  }

  /** Completed documents of a tenant with this type and counterparty, newest first by date. */
  completedByCounterparty(
    tenant: string,
    docType: string,
    counterparty: string,
  ): AsyncGenerator<WorkflowItem> {
    return this.queries.completedByCounterparty(tenant, docType, counterparty);
  }

  /** Records a finished extraction for reuse; the first writer for a content hash wins. */
  putExtractionCache(record: ExtractionCacheRecord): Promise<boolean> {
    return this.cache.put(record);
  }

  /** The cached extraction a workflow was marked (at ingest) to reuse, if there is one. */
  cachedExtractionFor(item: WorkflowItem): Promise<ExtractionCacheRecord | undefined> {
    return this.cache.forWorkflow(item);
  }

  /** The cached extraction for this tenant's content hash, if any. */
  findExtractionCache(tenant: string, sha256: string): Promise<ExtractionCacheRecord | undefined> {
    return this.cache.find(tenant, sha256);
  }

  /** The tenants that have workflows (a Scan reading only the tenant). */
  tenants(): Promise<string[]> {
    return this.queries.tenants();
  }

  /**
   * The head of the workflow's hash chain at the item's version: its `headHash`, or computed from
   * the log for an item last moved before the log was chained.
   */
  headOf(item: WorkflowItem): Promise<string> {
    return this.projection.headOf(item);
  }

  /**
   * Erasure's part in the tables: removes what the item holds of the document and of what people
   * wrote (`eraseItemContent`), and the content-hash cache record this workflow made. The log is
   * not touched: it never held any of it. The caller then logs the `erase` transition.
   */
  async eraseContent(item: WorkflowItem): Promise<WorkflowItem> {
    if (item.source?.sha256) await this.cache.remove(item.tenant, item.source.sha256, item.id);
    return eraseItemContent(this.client, this.tables.workflows, item);
  }

  /** Applies log entries the item has not seen yet (a writer crashed between its two writes). */
  rollForward(item: WorkflowItem): Promise<WorkflowItem> {
    return this.projection.rollForward(item);
  }
}
