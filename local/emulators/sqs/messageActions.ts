import { type Action, type ActionContext, checkBatch, failedEntry, queueOf } from './context.js';
import {
  batchError,
  invalidAttributeName,
  invalidParameter,
  messageNotInflight,
  receiptHandleIsInvalid,
} from './errors.js';
import { md5OfAttributes, md5OfBody, type StoredAttribute } from './md5.js';
import { type JsonObject, Params } from './params.js';
import type { Queue } from './queue.js';
import { decodeReceipt } from './replay.js';
import type { Delivery } from './store.js';
import { MAX_MESSAGE_BYTES, messageBytes, QUEUE_ATTRIBUTE_NAMES, readMessage } from './validate.js';

const MAX_VISIBILITY = 43_200;

/** SendMessage: answers once the message is durable, with the MD5s the SDK checks. */
export const sendMessage: Action = async (ctx, p) => {
  const queue = queueOf(ctx, p);
  const message = readMessage(p, queue.delaySeconds, queue.maximumMessageSize);
  const record = ctx.store.sendRecord(queue, message);
  await ctx.store.commit([record]);
  return {
    MessageId: record.id,
    MD5OfMessageBody: md5OfBody(message.body),
    ...(message.attributes && { MD5OfMessageAttributes: md5OfAttributes(message.attributes) }),
  };
};

/** SendMessageBatch: entries that fail validation are listed under Failed; the rest go in one write. */
export const sendMessageBatch: Action = async (ctx, p) => {
  const queue = queueOf(ctx, p);
  const entries = checkBatch(p.optionalObjectList('Entries'));
  const failed: JsonObject[] = [];
  const accepted = [];
  let total = 0;
  for (const [i, entry] of entries.entries()) {
    const id = entry.Id as string;
    try {
      const message = readMessage(
        new Params(entry, `SendMessageBatchRequestEntry.${i + 1}.`),
        queue.delaySeconds,
        queue.maximumMessageSize,
      );
      total += messageBytes(message);
      accepted.push({ id, message, record: ctx.store.sendRecord(queue, message) });
    } catch (error) {
      failed.push(failedEntry(id, error));
    }
  }
  if (total > MAX_MESSAGE_BYTES)
    throw batchError(
      'BatchRequestTooLong',
      `Batch requests cannot be longer than ${MAX_MESSAGE_BYTES} bytes. You have sent ${total} bytes.`,
    );
  await ctx.store.commit(accepted.map((a) => a.record));
  const Successful = accepted.map(({ id, message, record }) => ({
    Id: id,
    MessageId: record.id,
    MD5OfMessageBody: md5OfBody(message.body),
    ...(message.attributes && { MD5OfMessageAttributes: md5OfAttributes(message.attributes) }),
  }));
  return { Successful, Failed: failed };
};

const SYSTEM_ATTRIBUTES = [
  'SenderId',
  'SentTimestamp',
  'ApproximateReceiveCount',
  'ApproximateFirstReceiveTimestamp',
  'SequenceNumber',
  'MessageDeduplicationId',
  'MessageGroupId',
  'AWSTraceHeader',
  'DeadLetterQueueSourceArn',
];

const systemAttributes = (ctx: ActionContext, m: Delivery, names: string[]) => {
  const values: Record<string, string | undefined> = {
    SenderId: ctx.accountId,
    SentTimestamp: String(m.sent),
    ApproximateReceiveCount: String(m.count),
    ApproximateFirstReceiveTimestamp: String(m.first ?? m.sent),
    AWSTraceHeader: m.trace,
    DeadLetterQueueSourceArn: m.from,
  };
  const all = names.includes('All');
  const picked = Object.entries(values).filter(([n, v]) => v !== undefined && (all || names.includes(n)));
  return picked.length > 0 ? Object.fromEntries(picked) : undefined;
};

/** MessageAttributeNames: `All` or `.*` for all, `prefix.*` for a prefix, else exact names. */
const messageAttributes = (m: Delivery, names: string[]) => {
  if (!m.attributes || names.length === 0) return undefined;
  const matches = (attribute: string) =>
    names.some((n) =>
      n === 'All' || n === '.*'
        ? true
        : n.endsWith('.*')
          ? attribute.startsWith(n.slice(0, -1))
          : n === attribute,
    );
  const picked = Object.entries(m.attributes).filter(([n]) => matches(n));
  if (picked.length === 0) return undefined;
  const chosen: Record<string, StoredAttribute> = Object.fromEntries(picked);
  return { MessageAttributes: chosen, MD5OfMessageAttributes: md5OfAttributes(chosen) };
};

/**
 * ReceiveMessage: up to MaxNumberOfMessages, long-polling for WaitTimeSeconds (the queue's
 * ReceiveMessageWaitTimeSeconds by default) and answering as soon as one arrives.
 */
export const receiveMessage: Action = async (ctx, p) => {
  const queue = queueOf(ctx, p);
  const max = p.optionalInteger('MaxNumberOfMessages', 1, 10) ?? 1;
  const visibilityTimeout =
    p.optionalInteger('VisibilityTimeout', 0, MAX_VISIBILITY) ?? queue.visibilityTimeout;
  const waitSeconds = p.optionalInteger('WaitTimeSeconds', 0, 20) ?? queue.waitSeconds;
  const names = [...p.stringList('AttributeNames'), ...p.stringList('MessageSystemAttributeNames')];
  for (const n of names)
    if (!SYSTEM_ATTRIBUTES.includes(n) && !QUEUE_ATTRIBUTE_NAMES.has(n)) throw invalidAttributeName(n);
  const attributeNames = p.stringList('MessageAttributeNames');
  p.optionalString('ReceiveRequestAttemptId');
  const delivered = await ctx.store.receive(queue, { max, visibilityTimeout, waitSeconds }, ctx.signal);
  if (ctx.signal.aborted) {
    // Nobody will read this answer: give the messages back rather than hide them for a timeout.
    ctx.store.release(queue, delivered);
    return {};
  }
  if (delivered.length === 0) return {};
  return {
    Messages: delivered.map((m) => {
      const attributes = systemAttributes(ctx, m, names);
      return {
        MessageId: m.id,
        ReceiptHandle: m.receiptHandle,
        MD5OfBody: m.md5,
        Body: m.body,
        ...(attributes && { Attributes: attributes }),
        ...messageAttributes(m, attributeNames),
      };
    }),
  };
};

const receiptOf = (queue: Queue, handle: string) => {
  const receipt = decodeReceipt(handle);
  if (!receipt || receipt.queue !== queue.name) throw receiptHandleIsInvalid(handle);
  return receipt;
};

/**
 * Deletes the message a handle names. Any handle this queue issued for the message deletes it (a
 * consumer that finished late still finished); a message already gone is a success, as on AWS.
 */
const deleteOne = (queue: Queue, handle: string) => {
  const { id } = receiptOf(queue, handle);
  if (!queue.messages.delete(id)) return [];
  return [{ t: 'delete' as const, q: queue.name, id }];
};

/** DeleteMessage. */
export const deleteMessage: Action = async (ctx, p) => {
  const queue = queueOf(ctx, p);
  await ctx.store.record(deleteOne(queue, p.string('ReceiptHandle')));
  return {};
};

/** DeleteMessageBatch: a bad handle fails its entry only. */
export const deleteMessageBatch: Action = async (ctx, p) => {
  const queue = queueOf(ctx, p);
  const entries = checkBatch(p.optionalObjectList('Entries'));
  const Successful: JsonObject[] = [];
  const Failed: JsonObject[] = [];
  const records = [];
  for (const [i, entry] of entries.entries()) {
    try {
      records.push(
        ...deleteOne(
          queue,
          new Params(entry, `DeleteMessageBatchRequestEntry.${i + 1}.`).string('ReceiptHandle'),
        ),
      );
      Successful.push({ Id: entry.Id });
    } catch (error) {
      Failed.push(failedEntry(entry.Id as string, error));
    }
  }
  await ctx.store.record(records);
  return { Successful, Failed };
};

/**
 * Moves the delivery a handle names to visible at now + timeout. Only the latest delivery of a
 * message still in flight can: otherwise MessageNotInflight. Not journaled (visibility resets on
 * restart anyway).
 */
const changeOne = (ctx: ActionContext, queue: Queue, p: Params) => {
  const receipt = receiptOf(queue, p.string('ReceiptHandle'));
  const timeout = p.integer('VisibilityTimeout', 0, MAX_VISIBILITY);
  const message = queue.messages.get(receipt.id);
  if (!message)
    throw invalidParameter(
      'ReceiptHandle',
      'Message does not exist or is not available for visibility timeout change.',
    );
  const now = ctx.store.clock.now();
  if (message.receipt !== receipt.nonce || message.visibleAt <= now) throw messageNotInflight();
  message.visibleAt = now + timeout * 1000;
  // Long polls re-arm their timers on the new deadline (or take the message at once for 0).
  queue.wake();
};

/** ChangeMessageVisibility. */
export const changeMessageVisibility: Action = async (ctx, p) => {
  changeOne(ctx, queueOf(ctx, p), p);
  return {};
};

/** ChangeMessageVisibilityBatch. */
export const changeMessageVisibilityBatch: Action = async (ctx, p) => {
  const queue = queueOf(ctx, p);
  const entries = checkBatch(p.optionalObjectList('Entries'));
  const Successful: JsonObject[] = [];
  const Failed: JsonObject[] = [];
  for (const [i, entry] of entries.entries()) {
    try {
      changeOne(ctx, queue, new Params(entry, `ChangeMessageVisibilityBatchRequestEntry.${i + 1}.`));
      Successful.push({ Id: entry.Id });
    } catch (error) {
      Failed.push(failedEntry(entry.Id as string, error));
    }
  }
  return { Successful, Failed };
};
