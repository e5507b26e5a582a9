import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { syncDirectory, writeDurably } from './durableFiles.js';
import { CorruptHistoryError } from './errors.js';
import {
  applyEvent,
  type ExecutionRecord,
  type ExecutionSummary,
  identityOf,
  newRecord,
  type StoredEvent,
} from './history.js';

/** The index of compacted (closed) executions inside the history directory. */
export const CLOSED_INDEX_FILE = 'closed-index.jsonl';

/** The segment file a compaction writes its executions' histories to. */
export const segmentFile = (segment: number): string => `closed-${String(segment).padStart(6, '0')}.jsonl`;

/** One index line: what ListExecutions shows, and where the execution's history line is. */
interface IndexEntry extends ExecutionSummary {
  segment: number;
  offset: number;
  length: number;
}

const STATUSES = new Set(['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED', 'PENDING_REDRIVE']);
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const isTime = (value: unknown) => value === undefined || Number.isFinite(value);
const isText = (value: unknown) => typeof value === 'string' && value !== '';

// Checked by hand, not with a schema: the first lookup after a start reads every line (100,000
// lines: a schema parse per line took seconds).
const isIndexEntry = (value: unknown): value is IndexEntry => {
  const e = value as Partial<IndexEntry> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    isText(e.executionArn) &&
    isText(e.stateMachineArn) &&
    isText(e.name) &&
    STATUSES.has(e.status as string) &&
    Number.isFinite(e.startDate) &&
    isTime(e.stopDate) &&
    isCount(e.redriveCount) &&
    isTime(e.redriveDate) &&
    isCount(e.segment) &&
    (e.segment as number) > 0 &&
    isCount(e.offset) &&
    isCount(e.length)
  );
};

/** What the compacted store has done since it was opened: the seam tests assert laziness on. */
export interface ClosedExecutionStats {
  /** Whether the index (summaries of every compacted execution) has been read. */
  indexLoaded: boolean;
  /** Histories read back from segments (DescribeExecution, GetExecutionHistory, redrive...). */
  historiesRead: number;
}

/**
 * Closed executions compacted out of the journal: each compaction writes their full histories to
 * a new segment file (one line each), made durable and renamed into place before one append to
 * the index records a summary and where each line is. Opening reads only the index's last bytes;
 * the index is read on the first lookup, and a history only when one is asked for, so a start
 * costs the same whatever the number of closed executions.
 *
 * Crash safety (kill -9 at any instant): a segment is invisible until its rename; an index line
 * is appended only after its segment is durable, and a torn last index line is cut off on open;
 * the journal is reset only after the index append is durable (see `ExecutionStore.compact`), so
 * an interrupted compaction leaves the executions in the journal, which wins over the index.
 */
export class ClosedExecutions {
  private entries: Map<string, IndexEntry> | undefined;
  private readonly stats: ClosedExecutionStats = { indexLoaded: false, historiesRead: 0 };

  private constructor(
    private readonly dir: string,
    private nextSegment: number,
  ) {}

  /** Opens the compacted store in `dir`, cutting off a torn last index line; O(1) in its size. */
  static open(dir: string): ClosedExecutions {
    const path = join(dir, CLOSED_INDEX_FILE);
    if (!existsSync(path)) return new ClosedExecutions(dir, 1);
    const last = ClosedExecutions.lastLine(path);
    return new ClosedExecutions(dir, last === undefined ? 1 : last.segment + 1);
  }

  /** The last complete index line (after cutting off a torn one), read from the file's tail. */
  private static lastLine(path: string): IndexEntry | undefined {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const tail = Buffer.alloc(Math.min(size, 64 * 1024));
      readSync(fd, tail, 0, tail.length, size - tail.length);
      const end = tail.lastIndexOf(0x0a) + 1;
      if (end < tail.length) {
        // A process killed during the append left a line without its newline.
        if (end === 0 && tail.length === size) {
          truncateSync(path, 0);
          return undefined;
        }
        truncateSync(path, size - tail.length + end);
      }
      const start = tail.lastIndexOf(0x0a, end - 2) + 1;
      const text = tail.subarray(start, end - 1).toString('utf8');
      return text === '' ? undefined : ClosedExecutions.parse(text, path, 0);
    } finally {
      closeSync(fd);
    }
  }

  private static parse(text: string, path: string, line: number): IndexEntry {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw new CorruptHistoryError(path, line, { cause });
    }
    if (!isIndexEntry(value)) throw new CorruptHistoryError(path, line);
    return value;
  }

  /** Counts of what was read, for tests of laziness. */
  readStats(): ClosedExecutionStats {
    return { ...this.stats };
  }

  /** Whether a compacted execution has this ARN. */
  has(executionArn: string): boolean {
    return this.index().has(executionArn);
  }

  /** Summaries of every compacted execution (ListExecutions reads no history). */
  *summaries(): Iterable<ExecutionSummary> {
    yield* this.index().values();
  }

  /** The full record of a compacted execution, read back from its segment, or undefined. */
  load(executionArn: string): ExecutionRecord | undefined {
    const entry = this.index().get(executionArn);
    if (!entry) return undefined;
    const path = join(this.dir, segmentFile(entry.segment));
    const fd = openSync(path, 'r');
    const bytes = Buffer.alloc(entry.length);
    try {
      readSync(fd, bytes, 0, entry.length, entry.offset);
    } finally {
      closeSync(fd);
    }
    this.stats.historiesRead += 1;
    let line: { identity: Parameters<typeof newRecord>[0]; events: StoredEvent[] };
    try {
      line = JSON.parse(bytes.toString('utf8'));
    } catch (cause) {
      throw new CorruptHistoryError(path, 0, { cause });
    }
    const record = newRecord(line.identity);
    for (const event of line.events) applyEvent(record, event);
    return record;
  }

  /**
   * Compacts `records` (all closed): writes their histories to a new segment, durably, then
   * appends their summaries to the index and syncs it. Once this returns they are safe to drop
   * from the journal.
   */
  append(records: readonly ExecutionRecord[]): void {
    if (records.length === 0) return;
    const segment = this.nextSegment++;
    const name = segmentFile(segment);
    const entries: IndexEntry[] = [];
    const chunks: Buffer[] = [];
    let offset = 0;
    for (const record of records) {
      const { status, redriveCount, redriveDate, stopDate } = record;
      // Identity and events only: replaying the events rebuilds the rest, as from the journal.
      const bytes = Buffer.from(
        `${JSON.stringify({ identity: identityOf(record), events: record.events })}\n`,
      );
      chunks.push(bytes);
      entries.push({
        executionArn: record.executionArn,
        stateMachineArn: record.stateMachineArn,
        name: record.name,
        status,
        startDate: record.startDate,
        ...(stopDate !== undefined && { stopDate }),
        redriveCount,
        ...(redriveDate !== undefined && { redriveDate }),
        segment,
        offset,
        length: bytes.length - 1,
      });
      offset += bytes.length;
    }
    const tmp = join(this.dir, `${name}.tmp`);
    writeDurably(tmp, Buffer.concat(chunks));
    renameSync(tmp, join(this.dir, name));
    syncDirectory(this.dir);
    const index = openSync(join(this.dir, CLOSED_INDEX_FILE), 'a');
    try {
      writeSync(index, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      fsyncSync(index);
    } finally {
      closeSync(index);
    }
    syncDirectory(this.dir);
    for (const entry of entries) this.entries?.set(entry.executionArn, entry);
  }

  private index(): Map<string, IndexEntry> {
    if (this.entries) return this.entries;
    const path = join(this.dir, CLOSED_INDEX_FILE);
    const entries = new Map<string, IndexEntry>();
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      // Opening cut off a torn last line; a later compaction's entry for the same ARN wins.
      text.split('\n').forEach((line, i) => {
        if (line === '') return;
        const entry = ClosedExecutions.parse(line, path, i + 1);
        entries.set(entry.executionArn, entry);
      });
    }
    this.entries = entries;
    this.stats.indexLoaded = true;
    return entries;
  }
}
