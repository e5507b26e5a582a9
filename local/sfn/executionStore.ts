import { mkdirSync } from 'node:fs';
import { type ClosedExecutionStats, ClosedExecutions } from './closedExecutions.js';
import {
  type ExecutionIdentity,
  type ExecutionRecord,
  type ExecutionSummary,
  identityOf,
  type StoredEvent,
} from './history.js';
import { HistoryFile } from './historyFile.js';

/** What the execution store read at open and since: the seam tests assert laziness on. */
export interface ExecutionStoreStats extends ClosedExecutionStats {
  /** Executions replayed from the journal when the store opened. */
  replayedAtOpen: number;
}

/**
 * Every execution the service knows: live ones (started or replayed from the journal in this
 * run) in memory with their histories, and closed ones compacted out of the journal
 * (`ClosedExecutions`), read back only when asked for. A start replays only the journal, which
 * compaction keeps down to what happened since the last start or clean stop.
 */
export class ExecutionStore {
  private readonly live = new Map<string, ExecutionRecord>();

  private constructor(
    private readonly file: HistoryFile | undefined,
    private readonly closed: ClosedExecutions | undefined,
    private readonly replayedAtOpen: number,
  ) {}

  /** An in-memory store, or one on disk in `dataDir` with its journal replayed. */
  static open(dataDir: string | undefined): { store: ExecutionStore; replayed: ExecutionRecord[] } {
    if (dataDir === undefined) return { store: new ExecutionStore(undefined, undefined, 0), replayed: [] };
    mkdirSync(dataDir, { recursive: true });
    const { file, records } = HistoryFile.open(dataDir);
    const store = new ExecutionStore(file, ClosedExecutions.open(dataDir), records.length);
    for (const record of records) store.live.set(record.executionArn, record);
    return { store, replayed: records };
  }

  /** Counts of what was read, for tests of laziness. */
  stats(): ExecutionStoreStats {
    const closed = this.closed?.readStats() ?? { indexLoaded: false, historiesRead: 0 };
    return { ...closed, replayedAtOpen: this.replayedAtOpen };
  }

  /** Whether an execution has this ARN. */
  has(executionArn: string): boolean {
    return this.live.has(executionArn) || (this.closed?.has(executionArn) ?? false);
  }

  /** The live execution with this ARN (compacted ones are never running), or undefined. */
  liveRecord(executionArn: string): ExecutionRecord | undefined {
    return this.live.get(executionArn);
  }

  /** The execution with this ARN (a compacted one read back from disk), or undefined. */
  get(executionArn: string): ExecutionRecord | undefined {
    return this.live.get(executionArn) ?? this.closed?.load(executionArn);
  }

  /**
   * The execution with this ARN, made live: a compacted one is read back and its history written
   * to the journal again, so what happens to it next (a redrive) replays after a restart.
   */
  getLive(executionArn: string): ExecutionRecord | undefined {
    const live = this.live.get(executionArn);
    if (live) return live;
    const record = this.closed?.load(executionArn);
    if (!record) return undefined;
    this.live.set(executionArn, record);
    this.file?.appendExecution(identityOf(record));
    for (const event of record.events) this.file?.appendEvent(executionArn, event);
    return record;
  }

  /** Summaries of every execution; a live one hides its compacted copy. */
  *summaries(): Iterable<ExecutionSummary> {
    yield* this.live.values();
    for (const summary of this.closed?.summaries() ?? []) {
      if (!this.live.has(summary.executionArn)) yield summary;
    }
  }

  /** Records a new execution. */
  add(record: ExecutionRecord, identity: ExecutionIdentity): void {
    this.live.set(record.executionArn, record);
    this.file?.appendExecution(identity);
  }

  /** Records an event already applied to a live record. */
  appendEvent(executionArn: string, event: StoredEvent): void {
    this.file?.appendEvent(executionArn, event);
  }

  /**
   * Moves the closed live executions out of the journal: their histories go to a new segment
   * (`ClosedExecutions.append`, durable before it returns), then the journal is replaced by the
   * lines of the open ones. A crash between the two leaves them in both; the journal's copy wins
   * on the next open and the next compaction indexes it again.
   */
  compact(): void {
    if (!this.file || !this.closed) return;
    const closed = [...this.live.values()].filter((r) => r.status !== 'RUNNING');
    if (closed.length === 0) return;
    this.closed.append(closed);
    const open = [...this.live.values()].filter((r) => r.status === 'RUNNING');
    this.file.replace(open);
    for (const record of closed) this.live.delete(record.executionArn);
  }

  /** Compacts, then flushes and closes the journal (also when compacting fails: it is still whole). */
  close(): void {
    try {
      this.compact();
    } finally {
      this.file?.close();
    }
  }
}
