import { createHash } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleepFor } from 'node:timers/promises';
import { exponentialBackoff } from '../../../lambdas/shared/retry.js';
import { writeFileAtomic } from '../s3/atomicFile.js';
import type { EventSink } from './sink.js';

/** Where a webhook has got to in the sink, and what it took: kept on disk, one file per URL. */
export interface WebhookCursor {
  url: string;
  /** Bytes of the sink delivered (the start of the next line to POST). */
  offset: number;
  /** Events the webhook answered 2xx. */
  delivered: number;
  /** POSTs made, failed ones included. */
  attempts: number;
  /** POSTs that failed (no answer, or not 2xx). */
  failures: number;
  lastError?: string;
}

/** The file of a webhook's cursor in the webhooks directory. */
export const cursorFile = (directory: string, url: string): string =>
  join(directory, `${createHash('sha256').update(url).digest('hex').slice(0, 16)}.json`);

/** Every webhook cursor in `directory` (none when it does not exist). */
export const readCursors = async (directory: string): Promise<WebhookCursor[]> => {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const cursors: WebhookCursor[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    cursors.push(JSON.parse(await readFile(join(directory, name), 'utf8')) as WebhookCursor);
  }
  return cursors;
};

/** The line of the sink that starts at `offset` (without its newline), read in chunks. */
const lineAt = async (handle: FileHandle, offset: number, end: number): Promise<string> => {
  const parts: Buffer[] = [];
  const chunk = Buffer.alloc(64 * 1024);
  for (let at = offset; at < end; ) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, end - at), at);
    const newline = chunk.subarray(0, bytesRead).indexOf(0x0a);
    if (newline >= 0) return Buffer.concat([...parts, chunk.subarray(0, newline)]).toString('utf8');
    parts.push(Buffer.from(chunk.subarray(0, bytesRead)));
    at += bytesRead;
  }
  return Buffer.concat(parts).toString('utf8');
};

/** The event of a sink line, or undefined for a line that is not one. */
const eventOf = (line: string): unknown => {
  try {
    return (JSON.parse(line) as { event?: unknown }).event;
  } catch {
    return undefined;
  }
};

/** How a forwarder is set up. */
export interface WebhookOptions {
  url: string;
  sink: EventSink;
  /** Where the cursors live (`<data-dir>/events/webhooks`). */
  directory: string;
  /** Pause after failed attempt n (default: 0.5 s doubling to 60 s). */
  backoffMs?: (attempt: number) => number;
  /** How to wait; a test passes one that records instead of sleeping. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<unknown>;
  /** Bound on one POST (default 10 s). */
  timeoutMs?: number;
  /** Told of each failed POST (the runtime logs it). */
  onFailure?: (url: string, error: unknown) => void;
}

/**
 * POSTs every event of the sink to one webhook, in order, at least once: the cursor on disk moves
 * past an event only after a 2xx, so an event a crash caught mid-POST is sent again after the
 * restart, and a webhook that fails is retried with backoff (the same event, until it is taken),
 * never holding up PutEvents or another webhook. Each POST's body is the event as EventBridge
 * hands it to a target; consumers dedupe by `detail.eventId`.
 */
export class WebhookForwarder {
  private readonly stopping = new AbortController();
  private wake: (() => void) | undefined;
  private readonly done: Promise<void>;

  private constructor(
    private readonly options: WebhookOptions,
    private readonly handle: FileHandle,
    private cursor: WebhookCursor,
  ) {
    options.sink.onAppend(() => this.wake?.());
    this.done = this.run();
  }

  /** Starts forwarding from the webhook's cursor (the start of the sink for a new webhook). */
  static async start(options: WebhookOptions): Promise<WebhookForwarder> {
    await mkdir(options.directory, { recursive: true });
    // Temp files a crash left mid-rename of a cursor: the cursor itself is whole, old or new.
    for (const name of await readdir(options.directory))
      if (name.endsWith('.write')) await rm(join(options.directory, name), { force: true });
    let cursor: WebhookCursor = { url: options.url, offset: 0, delivered: 0, attempts: 0, failures: 0 };
    try {
      cursor = JSON.parse(
        await readFile(cursorFile(options.directory, options.url), 'utf8'),
      ) as WebhookCursor;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return new WebhookForwarder(options, await open(options.sink.path, 'r'), cursor);
  }

  /** What the webhook has taken so far. */
  get status(): WebhookCursor {
    return { ...this.cursor };
  }

  /** Stops after the POST under way (its event is sent again next time unless it was taken). */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake?.();
    await this.done;
    await this.handle.close();
  }

  private async run(): Promise<void> {
    const { sink } = this.options;
    let failedInARow = 0;
    while (!this.stopping.signal.aborted) {
      if (this.cursor.offset >= sink.size) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        continue;
      }
      const line = await lineAt(this.handle, this.cursor.offset, sink.size);
      const next = this.cursor.offset + Buffer.byteLength(line) + 1;
      const event = eventOf(line);
      if (event === undefined) {
        // Not a line this sink wrote whole (damage): nothing to send, and nothing to retry.
        this.cursor = { ...this.cursor, offset: next };
        continue;
      }
      const error = await this.post(event);
      if (this.stopping.signal.aborted) break;
      this.cursor.attempts += 1;
      if (error === undefined) {
        failedInARow = 0;
        this.cursor = { ...this.cursor, offset: next, delivered: this.cursor.delivered + 1 };
        delete this.cursor.lastError;
      } else {
        failedInARow += 1;
        this.cursor.failures += 1;
        this.cursor.lastError = String((error as Error).message ?? error).slice(0, 300);
        this.options.onFailure?.(this.options.url, error);
      }
      await writeFileAtomic(
        this.options.directory,
        cursorFile(this.options.directory, this.options.url),
        JSON.stringify(this.cursor),
      );
      if (failedInARow > 0) {
        const pause = (this.options.backoffMs ?? exponentialBackoff(500, 60_000))(failedInARow);
        const sleep = this.options.sleep ?? ((ms, signal) => sleepFor(ms, undefined, { signal }));
        // A stop ends the pause early (the abort rejects it).
        await sleep(pause, this.stopping.signal).catch(() => undefined);
      }
    }
  }

  /** POSTs one event; undefined when the webhook took it (2xx), else why not. */
  private async post(event: unknown): Promise<unknown> {
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(event),
        signal: AbortSignal.any([
          this.stopping.signal,
          AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        ]),
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.ok ? undefined : new Error(`the webhook answered ${response.status}`);
    } catch (error) {
      return error;
    }
  }
}
