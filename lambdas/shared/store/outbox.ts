import { isTerminal, OFF_MACHINE_EVENTS, type WorkflowState } from '../../../statemachine/index.js';
import type { CompletionEventType, LogEntry, OutboxEntry, WorkflowItem } from './types.js';

/*
 * The outbox: events a workflow owes the world, kept on its item. The event of a terminal
 * transition is put there by the same conditional UpdateItem that moves the item (the projection
 * derives it from the log entry alone, so a roll-forward after a crash between the log write and
 * the item write puts it there too), and stays until a deliverer has published it: published at
 * least once, under an id that never changes, never lost. The deliverer's reads and writes are in
 * workflowOutbox.ts.
 */

/** The value of `outboxPending` on an item whose outbox may hold an event. */
export const OUTBOX_PENDING = 'pending';

/** The event type of each end state a workflow reaches through the state machine. */
export const COMPLETION_EVENT_TYPES = {
  completed: 'Docket Document Completed',
  rejected: 'Docket Document Rejected',
  timed_out: 'Docket Document Timed Out',
  cancelled: 'Docket Document Cancelled',
} as const satisfies Partial<Record<WorkflowState, CompletionEventType>>;

/** The stable id of the event log entry `seq` of a workflow makes. */
export const outboxEventId = (workflowId: string, seq: number): string => `${workflowId}:${seq}`;

/**
 * The event a log entry puts in the outbox: one for each transition into an end state, except
 * the off-machine ones (`erase` keeps the end state it loops on; `import` records an older
 * pipeline's history, whose documents ended long ago). Ids and the type only.
 */
export const outboxEntryFor = (entry: LogEntry): OutboxEntry | undefined => {
  if (!isTerminal(entry.to) || OFF_MACHINE_EVENTS.includes(entry.event)) return undefined;
  const type: CompletionEventType | undefined = (
    COMPLETION_EVENT_TYPES as Partial<Record<string, CompletionEventType>>
  )[entry.to];
  if (!type) return undefined;
  return {
    eventId: outboxEventId(entry.workflowId, entry.seq),
    type,
    seq: entry.seq,
    state: entry.to,
    actor: entry.actor,
    createdAt: entry.at,
  };
};

/** The event type of a review policy's notification. */
export const NOTIFICATION_EVENT_TYPE = 'Docket Review Notification';

const isNotification = (value: unknown): value is { step: string; channel: string; message: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>).channel === 'string' &&
  typeof (value as Record<string, unknown>).message === 'string' &&
  typeof (value as Record<string, unknown>).step === 'string';

/**
 * The notifications a log entry puts in the outbox: a review decision that passes a policy's
 * notification steps (`metadata.notify`, written by apply-review) owes one event each, made by
 * the same write as the decision, delivered like completion events, and never holding the
 * document up when its delivery fails.
 */
export const notificationEntriesFor = (entry: LogEntry): OutboxEntry[] => {
  const notify = entry.metadata?.notify;
  if (!Array.isArray(notify)) return [];
  const policy = typeof entry.metadata?.policy === 'string' ? entry.metadata.policy : '';
  return notify.filter(isNotification).map((n, i) => ({
    eventId: `${outboxEventId(entry.workflowId, entry.seq)}:n${i + 1}`,
    type: NOTIFICATION_EVENT_TYPE,
    notification: { policy, step: n.step, channel: n.channel, message: n.message },
    seq: entry.seq,
    state: entry.to,
    actor: entry.actor,
    createdAt: entry.at,
  }));
};

/**
 * The item change that puts the events of `entries` (consecutive log entries, usually one) in the
 * outbox (nothing when they make none), for the projection to write with the state change.
 * `before` is the item before the first: only transitions add to the outbox, so whether its map
 * exists cannot change under that version.
 */
export const outboxPatch = (before: WorkflowItem, entries: readonly LogEntry[]): Record<string, unknown> => {
  const events = entries.flatMap((entry) => [
    ...notificationEntriesFor(entry),
    ...[outboxEntryFor(entry)].filter((e): e is OutboxEntry => e !== undefined),
  ]);
  const last = events.at(-1);
  if (!last) return {};
  const byId = Object.fromEntries(events.map((event) => [event.eventId, event]));
  return {
    // DynamoDB sets a map key only inside a map that exists: the first event makes the map.
    ...(before.outbox
      ? Object.fromEntries(events.map((event) => [`outbox.${event.eventId}`, event]))
      : { outbox: byId }),
    outboxPending: OUTBOX_PENDING,
    outboxAt: last.createdAt,
  };
};
