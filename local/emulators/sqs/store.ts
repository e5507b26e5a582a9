import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type JournalRecord, JournalWriter, readJournal, rewriteJournal } from './journal.js';
import type { StoredAttribute } from './md5.js';
import { type Message, type Queue, queueNameOfArn } from './queue.js';
import { apply, encodeReceipt, snapshot } from './replay.js';

/** The time source: `now()` is the only truth; `setTimer`, when given, replaces real timers. */
export interface SqsClock {
  now(): number;
  setTimer?(fn: () => void, ms: number): () => void;
}

/** A message as a sender hands it over, validated. */
export interface NewMessage {
  body: string;
  delaySeconds: number;
  attributes?: Record<string, StoredAttribute>;
  trace?: string;
}

/** What a receive asks for. */
export interface ReceiveRequest {
  max: number;
  visibilityTimeout: number;
  waitSeconds: number;
}

/** A received message: a copy of its state at delivery and the receipt handle that deletes it. */
export type Delivery = Message & { receiptHandle: string };

/** Rewrite the journal at run time once this many records were appended since the last rewrite. */
const COMPACT_AFTER = 20_000;

/**
 * Queues and messages, kept in memory and made durable by an append-only journal. Two rules keep
 * memory and journal in the same order: a send or a purge takes effect only once its record is
 * on disk (so no one receives a message that a crash could lose), and everything that acts on an
 * existing message (receive, delete, move) takes effect at once and is journaled after, since
 * losing it to a crash only means a redelivery, which at-least-once allows.
 */
export class QueueStore {
  readonly queues = new Map<string, Queue>();
  private closed = false;

  private constructor(
    private readonly journal: JournalWriter,
    readonly clock: SqsClock,
    readonly arnOf: (name: string) => string,
    private readonly compactAfter: number,
  ) {}

  /**
   * Opens the store in `directory` after whatever ended the last run: replays the journal
   * (a torn last record is skipped), drops expired messages, and rewrites the journal compacted.
   * `skipped` counts the unusable lines; when there were any, the old journal is kept in damaged/.
   */
  static async open(
    directory: string,
    clock: SqsClock,
    arnOf: (name: string) => string,
    compactAfter = COMPACT_AFTER,
  ): Promise<{ store: QueueStore; skipped: number }> {
    await mkdir(directory, { recursive: true });
    // A rewrite a crash cut short left its temp file; the journal beside it is whole.
    for (const name of await readdir(directory))
      if (/^journal\..+\.tmp$/.test(name)) await rm(join(directory, name), { force: true });
    const path = join(directory, 'journal.log');
    const { records, skipped } = await readJournal(path);
    const queues = new Map<string, Queue>();
    for (const record of records) apply(queues, record, arnOf);
    for (const q of queues.values()) q.dropExpired(clock.now());
    await rewriteJournal(path, snapshot(queues), skipped > 0);
    const store = new QueueStore(await JournalWriter.open(path), clock, arnOf, compactAfter);
    for (const [name, q] of queues) store.queues.set(name, q);
    return { store, skipped };
  }

  /** Journals `records`, then applies them: the path of sends, purges and queue changes. */
  async commit(records: JournalRecord[]): Promise<void> {
    await this.journal.append(records);
    for (const record of records) apply(this.queues, record, this.arnOf);
    for (const record of records) if (record.t === 'send') this.queues.get(record.q)?.wake();
    this.maybeCompact();
  }

  /** Journals records of changes already made in memory (receive, delete, move). */
  async record(records: JournalRecord[]): Promise<void> {
    await this.journal.append(records);
    this.maybeCompact();
  }

  /** Builds the send record of a new message (commit it to send). */
  sendRecord(queue: Queue, message: NewMessage): JournalRecord & { t: 'send' } {
    const now = this.clock.now();
    return {
      t: 'send',
      q: queue.name,
      id: randomUUID(),
      body: message.body,
      sent: now,
      delayUntil: message.delaySeconds > 0 ? now + message.delaySeconds * 1000 : 0,
      ...(message.attributes && { attributes: message.attributes }),
      ...(message.trace !== undefined && { trace: message.trace }),
    };
  }

  /**
   * Takes up to `max` receivable messages at once (synchronously, so two receives never get the
   * same delivery), dead-lettering on the way each one already received maxReceiveCount times.
   */
  private take(queue: Queue, max: number, visibilityTimeout: number) {
    const now = this.clock.now();
    const records: JournalRecord[] = [];
    const delivered: Delivery[] = [];
    const redrive = queue.redrivePolicy;
    const dlqName = redrive && queueNameOfArn(redrive.deadLetterTargetArn);
    const dlq = dlqName === undefined ? undefined : this.queues.get(dlqName);
    for (const m of queue.messages.values()) {
      if (delivered.length >= max) break;
      if (queue.expired(m, now)) {
        queue.messages.delete(m.id);
        continue;
      }
      if (m.visibleAt > now) continue;
      if (redrive && dlq && m.count >= redrive.maxReceiveCount) {
        const move = { t: 'move', q: queue.name, id: m.id, to: dlq.name, from: queue.arn } as const;
        apply(this.queues, move, this.arnOf);
        records.push(move);
        dlq.wake();
        continue;
      }
      const nonce = randomUUID();
      Object.assign(m, {
        count: m.count + 1,
        first: m.first ?? now,
        visibleAt: now + visibilityTimeout * 1000,
      });
      m.receipt = nonce;
      records.push({ t: 'receive', q: queue.name, id: m.id, count: m.count, first: m.first as number });
      delivered.push({ ...m, receiptHandle: encodeReceipt({ queue: queue.name, id: m.id, nonce }) });
    }
    return { records, delivered };
  }

  /**
   * ReceiveMessage: returns at once when something is receivable, else long-polls until the wait
   * ends, the store closes, or `signal` aborts (the client went away).
   */
  async receive(queue: Queue, request: ReceiveRequest, signal?: AbortSignal): Promise<Delivery[]> {
    const deadline = this.clock.now() + request.waitSeconds * 1000;
    for (;;) {
      if (signal?.aborted) return [];
      const { records, delivered } = this.take(queue, request.max, request.visibilityTimeout);
      await this.record(records);
      if (delivered.length > 0 || this.closed || this.clock.now() >= deadline) return delivered;
      await this.changeOrDeadline(queue, deadline, signal);
    }
  }

  /** Makes deliveries nobody will see visible again (their receive count stays: it is approximate). */
  release(queue: Queue, deliveries: Delivery[]): void {
    for (const d of deliveries) {
      const message = queue.messages.get(d.id);
      if (message && message.receipt === d.receipt) message.visibleAt = this.clock.now();
    }
    if (deliveries.length > 0) queue.wake();
  }

  /** Resolves when the queue may have something to receive, at the deadline, or on abort. */
  private changeOrDeadline(queue: Queue, deadline: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const now = this.clock.now();
      const at = Math.min(deadline, queue.nextVisible(now) ?? deadline);
      const done = () => {
        cancel();
        queue.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const cancel = this.setTimer(done, Math.max(1, at - now));
      queue.waiters.add(done);
      signal?.addEventListener('abort', done);
    });
  }

  private setTimer(fn: () => void, ms: number): () => void {
    if (this.clock.setTimer) return this.clock.setTimer(fn, ms);
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  }

  /**
   * Rewrites the journal from the live state once it has grown far past it, so a long local run
   * does not replay every receive and delete at the next start.
   */
  private maybeCompact(): void {
    if (this.closed || this.journal.appended < this.compactAfter) return;
    this.journal.compact(() => snapshot(this.queues));
  }

  /** Ends every long poll (each answers with what it has), then closes the journal. */
  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queues.values()) q.wake();
    await this.journal.close();
  }
}
