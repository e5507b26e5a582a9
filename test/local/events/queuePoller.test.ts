import { createHash } from 'node:crypto';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BatchFailedError,
  pollQueue,
  type QueueHandler,
  QueuePollerConfigError,
} from '../../../local/events/queuePoller.js';
import { ManualClock } from '../../support/manualClock.js';
import { type SqsFixture, startSqsFixture } from '../emulators/support/localSqs.js';

const fixtures: SqsFixture[] = [];
afterEach(async () => {
  for (const fx of fixtures.splice(0)) await fx.remove();
});

/** A local SQS on a manual clock with queue `work` (30 s visibility) and, when asked, a DLQ. */
const setUp = async (maxReceiveCount?: number) => {
  const clock = new ManualClock();
  const fx = await startSqsFixture({ clock });
  fixtures.push(fx);
  const dlq = (await fx.client.send(new CreateQueueCommand({ QueueName: 'work-dlq' }))).QueueUrl as string;
  const url = (
    await fx.client.send(
      new CreateQueueCommand({
        QueueName: 'work',
        Attributes: {
          VisibilityTimeout: '30',
          ...(maxReceiveCount && {
            RedrivePolicy: JSON.stringify({
              deadLetterTargetArn: fx.sqs.queueArn('work-dlq'),
              maxReceiveCount,
            }),
          }),
        },
      }),
    )
  ).QueueUrl as string;
  const send = (...bodies: string[]) =>
    fx.client.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: bodies.map((b, i) => ({ Id: `m${i}`, MessageBody: b })),
      }),
    );
  const counts = async () => {
    const { Attributes = {} } = await fx.client.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }),
    );
    return {
      visible: Attributes.ApproximateNumberOfMessages,
      inFlight: Attributes.ApproximateNumberOfMessagesNotVisible,
    };
  };
  return { clock, fx, url, dlq, send, counts };
};

/** A handler that answers each call with the next of `answers` and lets a test await its calls. */
const scripted = (answers: ((event: SQSEvent) => Awaited<ReturnType<QueueHandler>>)[]) => {
  const events: SQSEvent[] = [];
  const waiting: (() => void)[] = [];
  const handler: QueueHandler = async (event) => {
    events.push(event);
    for (const resolve of waiting.splice(0)) resolve();
    const answer = answers[events.length - 1];
    return answer ? answer(event) : undefined;
  };
  const calls = async (n: number) => {
    while (events.length < n) await new Promise<void>((resolve) => waiting.push(resolve));
    return events;
  };
  return { handler, events, calls };
};

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

describe('queue poller (Lambda SQS event source mapping, in-process)', () => {
  it('hands the handler the SQSEvent Lambda builds and deletes the batch it processed', async () => {
    // Prepare
    const { clock, fx, url, counts } = await setUp();
    await fx.client.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: '{"key":"incoming/acme/a.pdf"}',
        MessageAttributes: { tenant: { DataType: 'String', StringValue: 'acme' } },
      }),
    );
    const h = scripted([]);
    const errors: unknown[] = [];

    // Act
    const poller = pollQueue({
      sqs: fx.client,
      queueUrl: url,
      handler: h.handler,
      onError: (e) => errors.push(e),
    });
    const [event] = await h.calls(1);
    await poller.stop();

    // Assess
    expect(event?.Records).toEqual([
      {
        messageId: expect.any(String),
        receiptHandle: expect.any(String),
        body: '{"key":"incoming/acme/a.pdf"}',
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: String(clock.now()),
          SenderId: '000000000000',
          ApproximateFirstReceiveTimestamp: String(clock.now()),
        },
        messageAttributes: {
          tenant: { stringValue: 'acme', stringListValues: [], binaryListValues: [], dataType: 'String' },
        },
        md5OfMessageAttributes: expect.stringMatching(/^[0-9a-f]{32}$/),
        md5OfBody: md5('{"key":"incoming/acme/a.pdf"}'),
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:work',
        awsRegion: 'us-east-1',
      },
    ]);
    expect(await counts()).toEqual({ visible: '0', inFlight: '0' });
    expect(errors).toEqual([]);
  });

  it('deletes the records that succeeded and redelivers a reported failure after its visibility timeout', async () => {
    // Prepare
    const { clock, fx, url, send, counts } = await setUp();
    await send('a', 'b', 'c');
    const failB = (event: SQSEvent) => ({
      batchItemFailures: event.Records.filter((r) => r.body === 'b').map((r) => ({
        itemIdentifier: r.messageId,
      })),
    });
    const h = scripted([failB]);
    const t0 = clock.now();

    // Act
    const poller = pollQueue({
      sqs: fx.client,
      queueUrl: url,
      batchSize: 10,
      handler: h.handler,
      onError: () => {},
    });
    await h.calls(1);
    await clock.armedAt(t0 + 20_000); // the poller is long-polling again: the deletes are done
    const afterFirst = await counts();
    await clock.advance(30_000);
    const events = await h.calls(2);
    await poller.stop();

    // Assess
    expect(events[0]?.Records.map((r) => r.body)).toEqual(['a', 'b', 'c']);
    expect(afterFirst).toEqual({ visible: '0', inFlight: '1' });
    expect(events[1]?.Records.map((r) => [r.body, r.attributes.ApproximateReceiveCount])).toEqual([
      ['b', '2'],
    ]);
    expect(await counts()).toEqual({ visible: '0', inFlight: '0' });
  });

  it('fails the whole batch when the handler throws or names a record not in the batch', async () => {
    // Prepare
    const { clock, fx, url, send, counts } = await setUp();
    await send('x', 'y');
    const h = scripted([
      () => {
        throw new Error('stage down');
      },
    ]);
    const invalid = scripted([() => ({ batchItemFailures: [{ itemIdentifier: 'not-in-batch' }] })]);
    const errors: unknown[] = [];
    const t0 = clock.now();

    // Act
    const first = pollQueue({
      sqs: fx.client,
      queueUrl: url,
      handler: h.handler,
      onError: (e) => errors.push(e),
    });
    await h.calls(1);
    await clock.armedAt(t0 + 20_000);
    await first.stop();
    const afterThrow = await counts();
    await clock.advance(30_000);
    const second = pollQueue({
      sqs: fx.client,
      queueUrl: url,
      handler: invalid.handler,
      onError: (e) => errors.push(e),
    });
    await invalid.calls(1);
    await clock.armedAt(clock.now() + 20_000);
    await second.stop();

    // Assess
    expect(afterThrow).toEqual({ visible: '0', inFlight: '2' });
    expect(await counts()).toEqual({ visible: '0', inFlight: '2' });
    expect(errors.map((e) => (e as Error).message)).toEqual([
      'stage down',
      expect.stringContaining('not-in-batch'),
    ]);
    expect(errors[1]).toBeInstanceOf(BatchFailedError);
  });

  it('leaves a message that keeps failing to the dead-letter queue after maxReceiveCount', async () => {
    // Prepare
    const { clock, fx, url, dlq, send } = await setUp(1);
    await send('poison');
    const h = scripted([
      (e) => ({ batchItemFailures: e.Records.map((r) => ({ itemIdentifier: r.messageId })) }),
    ]);
    const t0 = clock.now();

    // Act
    const poller = pollQueue({ sqs: fx.client, queueUrl: url, handler: h.handler, onError: () => {} });
    await h.calls(1);
    await clock.armedAt(t0 + 20_000);
    const dead = fx.client.send(new ReceiveMessageCommand({ QueueUrl: dlq, WaitTimeSeconds: 20 }));
    await clock.advance(30_000);
    const { Messages } = await dead;
    await poller.stop();

    // Assess
    expect(Messages?.map((m) => m.Body)).toEqual(['poison']);
    expect(h.events).toHaveLength(1);
  });

  it('stops its long polls at once, taking nothing with them', async () => {
    // Prepare
    const { clock, fx, url, counts } = await setUp();
    const h = scripted([]);
    const poller = pollQueue({
      sqs: fx.client,
      queueUrl: url,
      concurrency: 3,
      handler: h.handler,
      onError: () => {},
    });
    await clock.armedAt(clock.now() + 20_000);

    // Act
    await poller.stop();
    await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'after stop' }));

    // Assess
    expect(await counts()).toEqual({ visible: '1', inFlight: '0' });
    expect(h.events).toEqual([]);
  });

  it('refuses settings Lambda does not allow', () => {
    // Prepare
    const base = { sqs: {} as never, queueUrl: 'http://x/0/q', handler: async () => {}, onError: () => {} };
    // Act / Assess
    expect(() => pollQueue({ ...base, batchSize: 11 })).toThrow(QueuePollerConfigError);
    expect(() => pollQueue({ ...base, concurrency: 0 })).toThrow(QueuePollerConfigError);
    expect(() => pollQueue({ ...base, visibilityTimeoutSeconds: -1 })).toThrow(QueuePollerConfigError);
  });
});
