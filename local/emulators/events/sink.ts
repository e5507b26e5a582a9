import { copyFile, type FileHandle, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { EventSinkError } from './errors.js';

/** An event as EventBridge hands it to a rule's target: the envelope and the detail. */
export interface EventEnvelope {
  version: '0';
  /** EventBridge's own id: new on every PutEvents, so not the one consumers dedupe by. */
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: Record<string, unknown>;
}

/** One line of the sink: an event as received, when, on which bus. */
export interface SinkRecord {
  receivedAt: string;
  bus: string;
  event: EventEnvelope;
}

/** The sink's file under its directory. */
export const SINK_FILE = 'events.jsonl';

const writeAll = async (handle: FileHandle, buffer: Buffer) => {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
    offset += bytesWritten;
  }
};

/** Where the last whole line of the file ends (0 when there is none): scanned from the end. */
const endOfLastLine = async (handle: FileHandle, size: number): Promise<number> => {
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const newline = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (newline >= 0) return start + newline + 1;
    end = start;
  }
  return 0;
};

interface Pending {
  text: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The JSONL sink of the local EventBridge: every event received, one JSON line each, never
 * deduplicated (a second delivery of an event is a second line, so duplicates show). Appends use
 * group commit: what arrived while the last write and fdatasync ran is written and synced
 * together, and each caller's promise settles once its lines are on disk, so an acknowledged
 * PutEvents survives `kill -9`. A crash mid-write can only tear the last line: `open` copies such
 * a file to `damaged/` and cuts the torn tail off, so the next line does not run into it.
 */
export class EventSink {
  private pending: Pending[] = [];
  private running: Promise<void> | undefined;
  private readonly listeners: (() => void)[] = [];

  private constructor(
    /** The JSONL file. */
    readonly path: string,
    private readonly handle: FileHandle,
    /** Bytes of whole, synced lines: what readers may read up to. */
    private committed: number,
  ) {}

  /** Opens (creating) the sink in `directory`; `torn` counts a cut-off last line that was set aside. */
  static async open(directory: string): Promise<{ sink: EventSink; torn: number }> {
    await mkdir(directory, { recursive: true });
    const path = join(directory, SINK_FILE);
    const handle = await open(path, 'a+');
    try {
      const { size } = await handle.stat();
      const end = await endOfLastLine(handle, size);
      if (end < size) {
        const damaged = join(directory, 'damaged');
        await mkdir(damaged, { recursive: true });
        await copyFile(path, join(damaged, `events-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`));
        await handle.truncate(end);
        await handle.sync();
      }
      return { sink: new EventSink(path, handle, end), torn: end < size ? 1 : 0 };
    } catch (error) {
      await handle.close();
      throw new EventSinkError(`cannot open the event sink ${path}`, { cause: error });
    }
  }

  /** Bytes of whole, synced lines in the file. */
  get size(): number {
    return this.committed;
  }

  /** Calls `listener` after each batch of lines is on disk (the webhook forwarders wait on it). */
  onAppend(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Resolves once `records` are on disk, one line each. */
  append(records: readonly SinkRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    const text = records.map((r) => `${JSON.stringify(r)}\n`).join('');
    return new Promise((resolve, reject) => {
      this.pending.push({ text, resolve, reject });
      this.running ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      const buffer = Buffer.from(batch.map((p) => p.text).join(''), 'utf8');
      try {
        await writeAll(this.handle, buffer);
        await this.handle.datasync();
        this.committed += buffer.length;
        for (const p of batch) p.resolve();
        for (const listener of this.listeners) listener();
      } catch (error) {
        // Cut back what part of the batch reached the file, so no later line runs into it.
        await this.handle.truncate(this.committed).catch(() => undefined);
        const failure = new EventSinkError('the event sink could not be written', { cause: error });
        for (const p of batch) p.reject(failure);
      }
    }
    this.running = undefined;
  }

  /** Waits for pending appends, then closes the file. */
  async close(): Promise<void> {
    while (this.running) await this.running;
    await this.handle.close();
  }
}
