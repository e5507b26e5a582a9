import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { REDRIVE_ATTRIBUTE, readDeadLetter } from '../lambdas/shared/deadLetters.js';

/** One message of the dead-letter queue, read for a person. */
export interface ListedDeadLetter {
  messageId: string;
  /** Who gave up: the starter, ingest, or the queue/EventBridge on their own. */
  source: string;
  reason: string;
  /** When Docket gave up, or when the message was sent. */
  at: string;
  /** The S3 key of the upload, when the event names one. */
  key?: string;
  event: unknown;
}

/** How long a listing hides the messages it read; they are made visible again right after. */
const PEEK_SECONDS = 30;

const keyOf = (event: unknown): string | undefined => {
  const key = (event as { detail?: { object?: { key?: unknown } } } | null)?.detail?.object?.key;
  return typeof key === 'string' ? key : undefined;
};

const listed = (message: Message): ListedDeadLetter => {
  const letter = readDeadLetter(message.Body, message.MessageAttributes?.ERROR_MESSAGE?.StringValue);
  const sent = Number(message.Attributes?.SentTimestamp);
  const key = keyOf(letter.event);
  return {
    messageId: message.MessageId ?? '',
    source: letter.source,
    reason: letter.reason,
    at: letter.failedAt ?? (Number.isFinite(sent) ? new Date(sent).toISOString() : ''),
    ...(key && { key }),
    event: letter.event,
  };
};

/** Reads up to `limit` messages, each hidden for `PEEK_SECONDS`, until the queue answers none. */
const receiveAll = async (sqs: SQSClient, queueUrl: string, limit: number): Promise<Message[]> => {
  const messages: Message[] = [];
  while (messages.length < limit) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: Math.min(10, limit - messages.length),
        VisibilityTimeout: PEEK_SECONDS,
        WaitTimeSeconds: 1,
        MessageAttributeNames: ['All'],
        MessageSystemAttributeNames: ['SentTimestamp'],
      }),
    );
    if (Messages.length === 0) break;
    messages.push(...Messages);
  }
  return messages;
};

/** Makes messages visible again at once (what a listing read but did not take). */
const unhide = async (sqs: SQSClient, queueUrl: string, messages: Message[]) => {
  for (let i = 0; i < messages.length; i += 10) {
    const batch = messages.slice(i, i + 10);
    await sqs.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((m, n) => ({
          Id: String(n),
          ReceiptHandle: m.ReceiptHandle,
          VisibilityTimeout: 0,
        })),
      }),
    );
  }
};

/** Lists the dead-letter queue without taking anything from it. */
export const listDeadLetters = async (
  sqs: SQSClient,
  queueUrl: string,
  options: { limit?: number } = {},
): Promise<ListedDeadLetter[]> => {
  const messages = await receiveAll(sqs, queueUrl, options.limit ?? 1000);
  await unhide(sqs, queueUrl, messages);
  return messages.map(listed);
};

/**
 * Sends dead letters back to the upload queue as the bare event the rule delivers, marked as a
 * redrive (the starter then runs it as a new execution of the same workflow id, even when its
 * first one ran and failed), and deletes each from the dead-letter queue once it is re-queued:
 * a crash in between leaves it in both, which the starter's naming makes harmless. `select`
 * picks which (by message id); the rest stay.
 */
export const redriveDeadLetters = async (
  sqs: SQSClient,
  queues: { uploads: string; deadLetters: string },
  select: (letter: ListedDeadLetter) => boolean,
  now: () => number = Date.now,
): Promise<{ redriven: ListedDeadLetter[]; kept: number }> => {
  const messages = await receiveAll(sqs, queues.deadLetters, 100_000);
  const redriven: ListedDeadLetter[] = [];
  const kept: Message[] = [];
  for (const message of messages) {
    const letter = listed(message);
    if (!select(letter)) {
      kept.push(message);
      continue;
    }
    const body = typeof letter.event === 'string' ? letter.event : JSON.stringify(letter.event);
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queues.uploads,
        MessageBody: body,
        MessageAttributes: { [REDRIVE_ATTRIBUTE]: { DataType: 'String', StringValue: String(now()) } },
      }),
    );
    await sqs.send(
      new DeleteMessageCommand({ QueueUrl: queues.deadLetters, ReceiptHandle: message.ReceiptHandle }),
    );
    redriven.push(letter);
  }
  await unhide(sqs, queues.deadLetters, kept);
  return { redriven, kept: kept.length };
};
