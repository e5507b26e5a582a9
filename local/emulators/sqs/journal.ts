import { randomUUID } from 'node:crypto';
import { copyFile, type FileHandle, mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { SqsJournalError } from './errors.js';
import type { StoredAttribute } from './md5.js';

/**
 * One journal record. The journal is the only durable state: replaying it in order rebuilds
 * every queue and message. Visibility deadlines are not recorded (see the README of the store in
 * index.ts): after a restart every undeleted message is visible again.
 */
export type JournalRecord =
  /** A queue and its attributes (normalized strings, as GetQueueAttributes returns them). */
  | { t: 'queue'; name: string; attributes: Record<string, string>; created: number }
  /** A message entered a queue: sent, or written back by compaction with its receive count. */
  | {
      t: 'send';
      q: string;
      id: string;
      body: string;
      sent: number;
      /** Epoch ms before which it is delayed (DelaySeconds); 0 when not. */
      delayUntil: number;
      attributes?: Record<string, StoredAttribute>;
      trace?: string;
      count?: number;
      first?: number;
      /** ARN of the queue it was dead-lettered from. */
      from?: string;
    }
  /** A message was received: its receive count and first receive time now. */
  | { t: 'receive'; q: string; id: string; count: number; first: number }
  | { t: 'delete'; q: string; id: string }
  /** Moved to the dead-letter queue `to` (same message id, receive count reset). */
  | { t: 'move'; q: string; id: string; to: string; from: string }
  | { t: 'purge'; q: string };

/**
 * A record on disk is one line: the CRC-32 of the JSON (8 hex digits), a space, the JSON, a
 * newline. A line without its newline, or whose checksum does not match, is a write a crash cut
 * short (or damage) and is skipped.
 */
export const encodeRecord = (record: JournalRecord): string => {
  const json = JSON.stringify(record);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
};

const decodeLine = (line: string): JournalRecord | undefined => {
  if (line.length < 10 || line[8] !== ' ') return undefined;
  const json = line.slice(9);
  if (crc32(json).toString(16).padStart(8, '0') !== line.slice(0, 8)) return undefined;
  try {
    const record = JSON.parse(json) as JournalRecord;
    return typeof record === 'object' && record !== null && typeof record.t === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
};

/** What reading a journal found: the good records in order, and how many lines were unusable. */
export interface JournalContents {
  records: JournalRecord[];
  /** Lines with a bad checksum or no newline (a torn last write is the expected one). */
  skipped: number;
}

/** Reads the journal at `path`; a missing file is an empty journal. */
export const readJournal = async (path: string): Promise<JournalContents> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], skipped: 0 };
    throw new SqsJournalError(`cannot read the SQS journal ${path}`, { cause: error });
  }
  const lines = text.split('\n');
  // The piece after the last newline is a record whose write never finished (or nothing).
  const torn = lines.pop() ? 1 : 0;
  const records: JournalRecord[] = [];
  let skipped = torn;
  for (const line of lines) {
    const record = decodeLine(line);
    if (record) records.push(record);
    else skipped++;
  }
  return { records, skipped };
};

const syncDirectory = async (directory: string) => {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

/**
 * Replaces the journal with `records` atomically: a temp file, fsync, rename, directory fsync.
 * A crash leaves the old journal or the new one, never a mix. When the old one had unusable
 * lines, it is first copied to damaged/ so that nothing is dropped unseen.
 */
export const rewriteJournal = async (path: string, records: JournalRecord[], keepOld: boolean) => {
  const directory = dirname(path);
  if (keepOld) {
    const damaged = join(directory, 'damaged');
    await mkdir(damaged, { recursive: true });
    await copyFile(path, join(damaged, `journal-${new Date().toISOString().replace(/[:.]/g, '-')}.log`));
  }
  const temp = join(directory, `journal.${randomUUID()}.tmp`);
  const handle = await open(temp, 'wx');
  try {
    await writeAll(handle, Buffer.from(records.map(encodeRecord).join(''), 'utf8'));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
  await syncDirectory(directory);
};

const writeAll = async (handle: FileHandle, buffer: Buffer) => {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
    offset += bytesWritten;
  }
};

interface Pending {
  text: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Lets every promise continuation queued so far run (a tick runs after the microtask queue drains). */
const afterMicrotasks = () => new Promise<void>((resolve) => process.nextTick(resolve));

/**
 * Appends records with group commit: whatever arrived while the last write and fdatasync ran is
 * written and synced together, and each caller's promise settles only once its records are on
 * disk. So an acknowledged request survives `kill -9` (and a power cut), and the cost of fsync
 * is shared by everyone waiting on it. It also rewrites the journal from a snapshot on request,
 * between two writes.
 */
export class JournalWriter {
  private pending: Pending[] = [];
  private running: Promise<void> | undefined;
  private snapshotRequest: (() => JournalRecord[]) | undefined;
  /** Records appended since the journal was last rewritten: the compaction trigger. */
  appended = 0;

  private constructor(
    private readonly path: string,
    private handle: FileHandle,
  ) {}

  /** Opens `path` for appending (creating it). */
  static async open(path: string): Promise<JournalWriter> {
    return new JournalWriter(path, await open(path, 'a'));
  }

  /** Resolves once `records` are durable (each record stands alone, so a torn batch replays its head). */
  append(records: JournalRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    this.appended += records.length;
    return new Promise((resolve, reject) => {
      this.pending.push({ text: records.map(encodeRecord).join(''), resolve, reject });
      this.running ??= this.drain();
    });
  }

  /**
   * Rewrites the journal as `snapshot()` once the writes under way are done and their callers
   * have run. Replaying a record twice is harmless (each sets absolute state or is ignored when
   * its message is gone), so records appended after the snapshot need no special care.
   */
  compact(snapshot: () => JournalRecord[]): void {
    this.snapshotRequest = snapshot;
    this.running ??= this.drain();
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0 || this.snapshotRequest) {
      const batch = this.pending.splice(0);
      try {
        if (batch.length > 0) {
          await writeAll(this.handle, Buffer.from(batch.map((p) => p.text).join(''), 'utf8'));
          await this.handle.datasync();
        }
        for (const p of batch) p.resolve();
        const snapshot = this.snapshotRequest;
        if (snapshot) {
          this.snapshotRequest = undefined;
          // The callers just resolved apply their sends to memory first; then the snapshot has them.
          await afterMicrotasks();
          await this.handle.close();
          try {
            await rewriteJournal(this.path, snapshot(), false);
            this.appended = 0;
          } finally {
            // Old journal or new, appends go on: a failed rewrite only leaves a longer replay.
            this.handle = await open(this.path, 'a');
          }
        }
      } catch (error) {
        const failure = new SqsJournalError('the SQS journal could not be written', { cause: error });
        for (const p of batch) p.reject(failure);
      }
    }
    this.running = undefined;
  }

  /** Waits for every pending append, then closes the file. */
  async close(): Promise<void> {
    while (this.running) await this.running;
    await this.handle.close();
  }
}
