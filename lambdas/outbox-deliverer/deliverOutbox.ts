import {
  type EventBridgeClient,
  PutEventsCommand,
  type PutEventsRequestEntry,
} from '@aws-sdk/client-eventbridge';
import { deleteVersions } from '../shared/objectVersions.js';
import { ResultStoreUnavailableError } from '../shared/results/errors.js';
import type { OutboxEntry, WorkflowItem, WorkflowOutbox } from '../shared/store/index.js';
import { EventDeliveryError } from './errors.js';
import {
  type DetailDeps,
  DOCUMENT_EVENT_SOURCE,
  type DocumentEventDetail,
  fitForEvent,
  fullEventDetail,
} from './eventDetail.js';
import { notificationDetail } from './notificationDetail.js';
import { removeReplacedResult, writeResult } from './writeResult.js';

/** What the deliverer works with: the outbox, S3 for the details, the bus. */
export interface DelivererDeps extends DetailDeps {
  outbox: WorkflowOutbox;
  events: EventBridgeClient;
  busName: string;
  /** True once the run should take no more events (its Lambda's time is running out). */
  timeIsUp?: () => boolean;
  /** Told of each event that stays in its outbox, and why (the handler logs it). */
  onFailure?: (error: EventDeliveryError) => void;
}

/** What one run did. */
export interface DeliveryReport {
  /** Events this run tried to deliver (built and sent, or failed on the way). */
  attempts: number;
  /** Events EventBridge accepted (each a delivery; a redelivery of one counts again). */
  delivered: number;
  /** Events that stay for the next run (not built, not accepted, or not cleared after). */
  failed: number;
  /** Delivered events another deliverer had cleared first (it published them too). */
  clearedByOther: number;
}

/** PutEvents takes ten entries, 256 KiB in all; a detail is at most 200 KiB (eventDetail.ts). */
const MAX_BATCH_ENTRIES = 10;
const MAX_BATCH_BYTES = 240 * 1024;

/** Events a run takes at most: a backlog is worked off over several runs, none of them long. */
export const MAX_EVENTS_PER_RUN = 500;

interface Prepared {
  item: WorkflowItem;
  entry: OutboxEntry;
  request: PutEventsRequestEntry;
  bytes: number;
}

/**
 * The outbox deliverer: publishes every event waiting in a workflow's outbox to EventBridge, then
 * takes it off with a conditional clear on its event id. A completed workflow's JSON result is
 * written before its event is sent (writeResult.ts). At least once: an event leaves its outbox
 * only after EventBridge accepted it, so a crash between the two publishes it again next run,
 * under the same `detail.eventId` (never zero times). Two runs at once may both publish an event;
 * one clears it. An event that fails stays for the next run and does not hold up the others.
 */
export const deliverOutbox = async (deps: DelivererDeps): Promise<DeliveryReport> => {
  const report: DeliveryReport = { attempts: 0, delivered: 0, failed: 0, clearedByOther: 0 };
  const fail = (eventId: string, reason: string, cause?: unknown) => {
    report.failed += 1;
    deps.onFailure?.(new EventDeliveryError(eventId, reason, { cause }));
  };
  let batch: Prepared[] = [];
  const flush = async () => {
    const sending = batch;
    batch = [];
    if (sending.length > 0) await publish(deps, sending, report, fail);
  };
  for await (const listed of deps.outbox.pending()) {
    if (report.attempts >= MAX_EVENTS_PER_RUN || deps.timeIsUp?.()) break;
    // The index is eventually consistent: act on the item as it is now.
    const item = await deps.outbox.find(listed.id);
    if (!item) continue;
    const entries = Object.values(item.outbox ?? {}).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    if (entries.length === 0) {
      await deps.outbox.settle(item);
      continue;
    }
    for (const entry of entries) {
      report.attempts += 1;
      let prepared: Prepared;
      try {
        prepared = await prepare(deps, item, entry);
      } catch (error) {
        const reason =
          error instanceof ResultStoreUnavailableError
            ? 'its result could not be written'
            : 'its detail could not be built';
        fail(entry.eventId, reason, error);
        continue;
      }
      const bytes = batch.reduce((n, p) => n + p.bytes, 0);
      if (batch.length >= MAX_BATCH_ENTRIES || bytes + prepared.bytes > MAX_BATCH_BYTES) await flush();
      batch.push(prepared);
    }
  }
  await flush();
  return report;
};

/**
 * The detail as it may go out: when an erasure began while it was built (`erasingSince`, set
 * before the erasure deletes anything), the result just written is deleted again and the event
 * goes without fields, as for a document erased before its event was built. Read after the
 * write: either this read sees the mark, or the erasure's own delete comes after the write. A row
 * the scheduled compaction took in meanwhile leaves the day's Parquet file at its next run.
 */
const unlessErased = async (
  deps: DelivererDeps,
  item: WorkflowItem,
  full: DocumentEventDetail,
  written: string | undefined,
): Promise<DocumentEventDetail> => {
  if (!written && Object.keys(full.fields).length === 0) return full;
  const now = await deps.outbox.find(item.id);
  if (now && !now.erasingSince && now.lastEvent !== 'erase') return full;
  if (written) await deleteVersions(deps, written, (v) => v.Key === written);
  return { ...full, fields: {}, fieldsOmitted: 'erased' };
};

/** The PutEvents entry of an outbox entry and its detail. */
const prepared = (deps: DelivererDeps, item: WorkflowItem, entry: OutboxEntry, detail: string): Prepared => ({
  item,
  entry,
  request: {
    Source: DOCUMENT_EVENT_SOURCE,
    DetailType: entry.type,
    Detail: detail,
    EventBusName: deps.busName,
    Time: new Date(entry.createdAt),
  },
  bytes: Buffer.byteLength(detail) + Buffer.byteLength(entry.type) + DOCUMENT_EVENT_SOURCE.length + 14,
});

const prepare = async (deps: DelivererDeps, item: WorkflowItem, entry: OutboxEntry): Promise<Prepared> => {
  // A policy notification carries no record and writes no result.
  if (entry.notification) return prepared(deps, item, entry, JSON.stringify(notificationDetail(item, entry)));
  const built = await fullEventDetail(deps, item, entry);
  // Before the event goes out, so the entry is cleared only once both are done (writeResult.ts).
  const written = await writeResult(deps, built);
  await removeReplacedResult(deps, item.reprocess?.previous.resultKey, written);
  const full = await unlessErased(deps, item, built, written);
  return prepared(deps, item, entry, JSON.stringify(fitForEvent(full)));
};

/** One PutEvents of a batch, then a clear for each entry EventBridge accepted. */
const publish = async (
  deps: DelivererDeps,
  batch: Prepared[],
  report: DeliveryReport,
  fail: (eventId: string, reason: string, cause?: unknown) => void,
) => {
  let results: { EventId?: string; ErrorCode?: string; ErrorMessage?: string }[];
  try {
    const answer = await deps.events.send(new PutEventsCommand({ Entries: batch.map((p) => p.request) }));
    results = answer.Entries ?? [];
  } catch (error) {
    for (const p of batch)
      fail(p.entry.eventId, 'EventBridge could not be reached or refused the request', error);
    return;
  }
  for (const [i, p] of batch.entries()) {
    const result = results[i];
    if (!result?.EventId || result.ErrorCode) {
      fail(
        p.entry.eventId,
        `EventBridge refused it: ${result?.ErrorCode ?? 'no answer'} ${result?.ErrorMessage ?? ''}`.trim(),
      );
      continue;
    }
    report.delivered += 1;
    try {
      if (!(await deps.outbox.clear(p.item, p.entry.eventId))) report.clearedByOther += 1;
    } catch (error) {
      // Published but still in the outbox: the next run publishes it again (at least once).
      fail(p.entry.eventId, 'published, but its outbox entry could not be cleared', error);
    }
  }
};
