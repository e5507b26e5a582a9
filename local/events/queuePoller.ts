import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';

/** A handler as Lambda calls it for an SQS event source with ReportBatchItemFailures on. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing is Promise<void>, as aws-lambda's SQSHandler allows.
export type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

/** How to poll. */
export interface PollQueueOptions {
  sqs: SQSClient;
  queueUrl: string;
  /** Messages per event, 1 to 10 (default 10), as the event source mapping's BatchSize. */
  batchSize?: number;
  /** Pollers receiving and invoking at once (default 1): Lambda's concurrency for the mapping. */
  concurrency?: number;
  /** The VisibilityTimeout each receive asks for; the queue's own when absent. */
  visibilityTimeoutSeconds?: number;
  /** Long-poll wait, 0 to 20 (default 20, as Lambda polls). */
  waitTimeSeconds?: number;
  /** Pause after a failed receive before the next, so a dead endpoint is not hammered (default 1 s). */
  retryDelayMs?: number;
  handler: QueueHandler;
  /** Receives what went wrong: a failed receive or delete, a handler's throw, an invalid response. */
  onError: (error: unknown) => void;
}

/** A running poller. */
export interface QueuePoller {
  /** Stops receiving (an in-flight long poll is abandoned), lets running handlers finish, resolves. */
  stop(): Promise<void>;
}

/** The options cannot be what Lambda allows (a batch of 11, no pollers, ...). */
export class QueuePollerConfigError extends Error {
  override readonly name = 'QueuePollerConfigError';
}

/** The handler's response failed the batch as a whole (Lambda's rules for ReportBatchItemFailures). */
export class BatchFailedError extends Error {
  override readonly name = 'BatchFailedError';
}

const integerIn = (name: string, value: number, min: number, max: number) => {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new QueuePollerConfigError(`${name} must be an integer from ${min} to ${max}, not ${value}.`);
  return value;
};

/** The SDK's message attributes in the shape Lambda delivers them (binary as base64, empty lists). */
const lambdaAttributes = (message: Message): SQSMessageAttributes =>
  Object.fromEntries(
    Object.entries(message.MessageAttributes ?? {}).map(([name, a]) => [
      name,
      {
        ...(a.StringValue !== undefined && { stringValue: a.StringValue }),
        ...(a.BinaryValue !== undefined && { binaryValue: Buffer.from(a.BinaryValue).toString('base64') }),
        stringListValues: a.StringListValues ?? [],
        binaryListValues: (a.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
        dataType: a.DataType ?? 'String',
      },
    ]),
  );

/** One received message as the record Lambda puts in an SQSEvent. */
export const toSqsRecord = (message: Message, eventSourceARN: string): SQSRecord => {
  const a = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
      SentTimestamp: a.SentTimestamp ?? '',
      SenderId: a.SenderId ?? '',
      ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? '',
      ...(a.AWSTraceHeader !== undefined && { AWSTraceHeader: a.AWSTraceHeader }),
      ...(a.DeadLetterQueueSourceArn !== undefined && {
        DeadLetterQueueSourceArn: a.DeadLetterQueueSourceArn,
      }),
    },
    messageAttributes: lambdaAttributes(message),
    ...(message.MD5OfMessageAttributes !== undefined && {
      md5OfMessageAttributes: message.MD5OfMessageAttributes,
    }),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN,
    awsRegion: eventSourceARN.split(':')[3] ?? '',
  };
};

/**
 * The records that succeeded, by Lambda's rules: a throw fails all; no response, or an empty or
 * absent batchItemFailures, succeeds all; an itemIdentifier that is empty or not in the batch
 * fails all; otherwise all but the ones listed succeed.
 */
export const succeededRecords = (records: SQSRecord[], response: unknown): SQSRecord[] => {
  const failures =
    typeof response === 'object' && response !== null
      ? (response as Partial<SQSBatchResponse>).batchItemFailures
      : undefined;
  if (failures === undefined || failures === null || failures.length === 0) return records;
  if (!Array.isArray(failures)) throw new BatchFailedError('batchItemFailures is not a list');
  const ids = new Set(records.map((r) => r.messageId));
  const failed = new Set<string>();
  for (const failure of failures) {
    const id = failure?.itemIdentifier;
    if (typeof id !== 'string' || !ids.has(id))
      throw new BatchFailedError(`batchItemFailures names ${JSON.stringify(id)}, which is not in the batch`);
    failed.add(id);
  }
  return records.filter((r) => !failed.has(r.messageId));
};

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

/**
 * Plays Lambda's SQS event source mapping in-process: `concurrency` pollers long-poll the queue,
 * call `handler` with each batch as the SQSEvent Lambda builds, delete the records that
 * succeeded and leave the failed ones to come back after their visibility timeout (and reach the
 * queue's dead-letter queue after maxReceiveCount), as ReportBatchItemFailures does.
 */
export const pollQueue = (options: PollQueueOptions): QueuePoller => {
  const batchSize = integerIn('batchSize', options.batchSize ?? 10, 1, 10);
  const concurrency = integerIn('concurrency', options.concurrency ?? 1, 1, 1000);
  const waitTimeSeconds = integerIn('waitTimeSeconds', options.waitTimeSeconds ?? 20, 0, 20);
  const visibility = options.visibilityTimeoutSeconds;
  if (visibility !== undefined) integerIn('visibilityTimeoutSeconds', visibility, 0, 43_200);
  const { sqs, queueUrl, handler, onError } = options;
  const stopping = new AbortController();
  let arn: Promise<string> | undefined;
  const queueArn = () => {
    arn ??= sqs
      .send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }))
      .then((r) => r.Attributes?.QueueArn ?? '')
      .catch((error) => {
        arn = undefined;
        throw error;
      });
    return arn;
  };

  const deleteSucceeded = async (records: SQSRecord[]) => {
    if (records.length === 0) return;
    const result = await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: records.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
      }),
    );
    for (const failed of result.Failed ?? [])
      onError(new Error(`deleting a processed message failed: ${failed.Code} ${failed.Message}`));
  };

  const invoke = async (messages: Message[]) => {
    const records = messages.map((m) => toSqsRecord(m, '')); // the ARN is filled in below
    const eventSourceARN = await queueArn();
    for (const r of records)
      Object.assign(r, { eventSourceARN, awsRegion: eventSourceARN.split(':')[3] ?? '' });
    let succeeded: SQSRecord[];
    try {
      succeeded = succeededRecords(records, await handler({ Records: records }));
    } catch (error) {
      // The whole batch failed: every message comes back after its visibility timeout.
      onError(error);
      return;
    }
    await deleteSucceeded(succeeded);
  };

  const poll = async () => {
    while (!stopping.signal.aborted) {
      try {
        const { Messages } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: waitTimeSeconds,
            ...(visibility !== undefined && { VisibilityTimeout: visibility }),
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: stopping.signal },
        );
        if (Messages && Messages.length > 0) await invoke(Messages);
      } catch (error) {
        if (stopping.signal.aborted) return;
        onError(error);
        await pause(options.retryDelayMs ?? 1000, stopping.signal);
      }
    }
  };

  const pollers = Array.from({ length: concurrency }, () => poll());
  return {
    stop: async () => {
      stopping.abort();
      await Promise.all(pollers);
    },
  };
};
