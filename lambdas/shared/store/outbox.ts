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

/**
 * The item change that puts the entry's event in the outbox (nothing when it makes none), for the
 * projection to write with the state change. `before` is the item at `seq - 1`: only transitions
 * add to the outbox, so whether its map exists cannot change under that version.
 */
export const outboxPatch = (before: WorkflowItem, entry: LogEntry): Record<string, unknown> => {
  const event = outboxEntryFor(entry);
  if (!event) return {};
  return {
    // DynamoDB sets a map key only inside a map that exists: the first event makes the map.
    ...(before.outbox ? { [`outbox.${event.eventId}`]: event } : { outbox: { [event.eventId]: event } }),
    outboxPending: OUTBOX_PENDING,
    outboxAt: event.createdAt,
  };
};
