import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { syncDirectory, writeDurably } from './durableFiles.js';
import { CorruptHistoryError } from './errors.js';
import {
  applyEvent,
  type ExecutionIdentity,
  type ExecutionRecord,
  identityOf,
  newRecord,
  type StoredEvent,
} from './history.js';

/** Name of the append-only history file (the journal) inside `dataDir`. */
export const HISTORY_FILE = 'executions.jsonl';

const ExecutionLine = z.object({
  k: z.literal('execution'),
  executionArn: z.string().min(1),
  stateMachineArn: z.string().min(1),
  name: z.string().min(1),
  input: z.string(),
  startDate: z.number(),
  roleArn: z.string(),
  // Absent in histories written before redrive existed: such executions cannot be redriven.
  definitionDigest: z.string().optional(),
});

const EventLine = z.object({
  k: z.literal('event'),
  executionArn: z.string().min(1),
  event: z.looseObject({
    id: z.number().int().positive(),
    previousEventId: z.number().int().nonnegative().optional(),
    timestamp: z.number(),
    type: z.string().min(1),
  }),
});

const Line = z.discriminatedUnion('k', [ExecutionLine, EventLine]);

/**
 * The journal of execution history on disk: one JSON line per execution start and per event,
 * appended in the order they happen, so a restart replays it into the same records. It holds
 * only what happened since the last compaction (`ExecutionStore.compact`), which moves closed
 * executions out to `ClosedExecutions` and replaces it with the lines of the open ones. Lines are batched and
 * written once per event-loop turn with a synchronous write, so a `kill -9` loses at most the
 * events of the turn it lands in; a torn last line is dropped on open.
 */
export class HistoryFile {
  private readonly pending: string[] = [];
  private flushScheduled = false;
  private fd: number | undefined;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Opens (creating) the history in `dataDir` and returns the executions it holds. */
  static open(dataDir: string): { file: HistoryFile; records: ExecutionRecord[] } {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, HISTORY_FILE);
    const records = existsSync(path) ? HistoryFile.load(path) : [];
    return { file: new HistoryFile(path, openSync(path, 'a')), records };
  }

  private static load(path: string): ExecutionRecord[] {
    const bytes = readFileSync(path);
    const end = bytes.lastIndexOf(0x0a) + 1;
    // A process killed in the middle of a write leaves a last line without its newline.
    if (end < bytes.length) truncateSync(path, end);
    const records = new Map<string, ExecutionRecord>();
    const lines = bytes.subarray(0, end).toString('utf8').split('\n');
    lines.forEach((text, index) => {
      if (text === '') return;
      let line: z.infer<typeof Line>;
      try {
        line = Line.parse(JSON.parse(text));
      } catch (cause) {
        throw new CorruptHistoryError(path, index + 1, { cause });
      }
      if (line.k === 'execution') {
        const { k: _, ...identity } = line;
        records.set(line.executionArn, newRecord(identity));
        return;
      }
      const record = records.get(line.executionArn);
      if (!record) throw new CorruptHistoryError(path, index + 1);
      applyEvent(record, line.event as StoredEvent);
    });
    return [...records.values()];
  }

  /** Records that an execution started. */
  appendExecution(identity: ExecutionIdentity): void {
    this.write({ k: 'execution', ...identity });
  }

  /** Records one history event of an execution. */
  appendEvent(executionArn: string, event: StoredEvent): void {
    this.write({ k: 'event', executionArn, event });
  }

  private write(line: object): void {
    if (this.fd === undefined) return;
    this.pending.push(`${JSON.stringify(line)}\n`);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** Writes every pending line now. */
  flush(): void {
    this.flushScheduled = false;
    if (this.fd === undefined || this.pending.length === 0) return;
    const chunk = this.pending.join('');
    this.pending.length = 0;
    writeSync(this.fd, chunk);
  }

  /**
   * Replaces the journal with the lines of `records` (open executions), atomically: a crash
   * leaves either the old journal or the new one, never a mix.
   */
  replace(records: readonly ExecutionRecord[]): void {
    if (this.fd === undefined) return;
    this.flush();
    const lines = records.flatMap((record) => [
      JSON.stringify({ k: 'execution', ...identityOf(record) }),
      ...record.events.map((event) =>
        JSON.stringify({ k: 'event', executionArn: record.executionArn, event }),
      ),
    ]);
    const tmp = `${this.path}.tmp`;
    writeDurably(tmp, lines.map((line) => `${line}\n`).join(''));
    closeSync(this.fd);
    this.fd = undefined;
    renameSync(tmp, this.path);
    syncDirectory(dirname(this.path));
    this.fd = openSync(this.path, 'a');
  }

  /** Flushes and closes the file; later appends are ignored. */
  close(): void {
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
