import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { SinkRecord } from './sink.js';

/** One event id in the sink: how often it came, and when. */
export interface EventSummary {
  /** `detail.eventId` (the id consumers dedupe by), else EventBridge's own `id`. */
  eventId: string;
  type: string;
  workflowId?: string;
  tenant?: string;
  /** How many times the event was received: each delivery, none hidden. */
  deliveries: number;
  /** `deliveries - 1`: what a consumer that dedupes by `detail.eventId` drops. */
  duplicates: number;
  firstReceivedAt: string;
  lastReceivedAt: string;
}

/** What the sink holds. */
export interface SinkReport {
  /** Event ids, in the order they were first received. */
  events: EventSummary[];
  /** Lines received (every delivery). */
  received: number;
  /** Deliveries of an event id received before. */
  duplicates: number;
  /** Lines that are not a sink record (damage): skipped. */
  unreadable: number;
}

const idOf = (record: SinkRecord): string => {
  const id = record.event.detail?.eventId;
  return typeof id === 'string' ? id : record.event.id;
};

/**
 * Reads the sink line by line (memory holds one summary per event id, not the events) and counts
 * every delivery of each event id. `since` keeps deliveries received at or after that time.
 */
export const summarizeSink = async (file: string, options: { since?: Date } = {}): Promise<SinkReport> => {
  const byId = new Map<string, EventSummary>();
  const report: SinkReport = { events: [], received: 0, duplicates: 0, unreadable: 0 };
  const since = options.since?.toISOString();
  let lines: AsyncIterable<string>;
  try {
    const stream = createReadStream(file, 'utf8');
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return report;
    throw error;
  }
  for await (const line of lines) {
    if (line === '') continue;
    let record: SinkRecord;
    try {
      record = JSON.parse(line) as SinkRecord;
      if (typeof record.event?.id !== 'string' || typeof record.receivedAt !== 'string') throw new Error();
    } catch {
      report.unreadable += 1;
      continue;
    }
    if (since !== undefined && record.receivedAt < since) continue;
    report.received += 1;
    const id = idOf(record);
    const seen = byId.get(id);
    if (seen) {
      seen.deliveries += 1;
      seen.duplicates += 1;
      seen.lastReceivedAt = record.receivedAt;
      report.duplicates += 1;
      continue;
    }
    const detail = record.event.detail ?? {};
    const summary: EventSummary = {
      eventId: id,
      type: record.event['detail-type'],
      ...(typeof detail.workflowId === 'string' && { workflowId: detail.workflowId }),
      ...(typeof detail.tenant === 'string' && { tenant: detail.tenant }),
      deliveries: 1,
      duplicates: 0,
      firstReceivedAt: record.receivedAt,
      lastReceivedAt: record.receivedAt,
    };
    byId.set(id, summary);
    report.events.push(summary);
  }
  return report;
};
