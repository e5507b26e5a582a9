import type { OutboxEntry, WorkflowItem } from '../shared/store/index.js';
import { DOCUMENT_EVENT_VERSION } from './eventDetail.js';

/**
 * The detail of a review policy's notification event (`Docket Review Notification`): which policy
 * step notified which channel about which document, and the message with its placeholders
 * filled. On AWS a rule per channel sends it to that channel's SNS topic; locally it lands in the
 * event sink with every other event.
 */
export interface NotificationDetail {
  version: typeof DOCUMENT_EVENT_VERSION;
  /** Stable across redeliveries: consumers dedupe by it. */
  eventId: string;
  type: 'Docket Review Notification';
  workflowId: string;
  tenant: string;
  policy: string;
  step: string;
  channel: string;
  message: string;
  occurredAt: string;
  /** The reviewer whose decision passed the notification step. */
  actor: string;
}

/** `{id}`, `{tenant}`, `{type}` and `{total}` of a message, from the item; other braces stay as written. */
const fill = (message: string, item: WorkflowItem): string => {
  const summary = item.summary as { amount?: string; currency?: string } | undefined;
  const values: Record<string, string> = {
    id: item.id,
    tenant: item.tenant,
    type: item.docType ?? 'document',
    total: summary?.amount
      ? `${summary.amount}${summary.currency ? ` ${summary.currency}` : ''}`
      : 'an unknown total',
  };
  return message.replace(/\{(id|tenant|type|total)\}/g, (_, name: string) => values[name] ?? '');
};

/** The detail of a notification entry (`entry.notification` set). */
export const notificationDetail = (item: WorkflowItem, entry: OutboxEntry): NotificationDetail => {
  const n = entry.notification;
  if (!n) throw new Error(`outbox entry ${entry.eventId} is not a notification`);
  return {
    version: DOCUMENT_EVENT_VERSION,
    eventId: entry.eventId,
    type: 'Docket Review Notification',
    workflowId: item.id,
    tenant: item.tenant,
    policy: n.policy,
    step: n.step,
    channel: n.channel,
    message: fill(n.message, item),
    occurredAt: entry.createdAt,
    actor: entry.actor,
  };
};
