import { createHash } from 'node:crypto';
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueuesCommand,
  PurgeQueueCommand,
  QueueDoesNotExist,
  QueueNameExists,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../support/manualClock.js';
import { type SqsFixture, startSqsFixture } from './support/localSqs.js';

const fixtures: SqsFixture[] = [];
const start = async (options: Parameters<typeof startSqsFixture>[0] = {}) => {
  const fx = await startSqsFixture(options);
  fixtures.push(fx);
  return fx;
};
afterEach(async () => {
  for (const fx of fixtures.splice(0)) await fx.remove();
});

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** A queue on a fresh emulator driven by a manual clock. */
const queueOnManualClock = async (attributes: Record<string, string> = {}) => {
  const clock = new ManualClock();
  const fx = await start({ clock });
  const { QueueUrl } = await fx.client.send(
    new CreateQueueCommand({ QueueName: 'work', Attributes: attributes }),
  );
  return { fx, clock, url: QueueUrl as string };
};

const attributesOf = async (fx: SqsFixture, url: string) =>
  (await fx.client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] })))
    .Attributes ?? {};

describe('local SQS: queues', () => {
  it('creates a queue idempotently, refuses other attributes under the same name, and finds and lists it', async () => {
    // Prepare
    const fx = await start();
    const first = await fx.client.send(
      new CreateQueueCommand({ QueueName: 'uploads', Attributes: { VisibilityTimeout: '60' } }),
    );
    await fx.client.send(new CreateQueueCommand({ QueueName: 'uploads-dlq' }));

    // Act
    const again = await fx.client.send(
      new CreateQueueCommand({ QueueName: 'uploads', Attributes: { VisibilityTimeout: '060' } }),
    );
    const clash = await fx.client
      .send(new CreateQueueCommand({ QueueName: 'uploads', Attributes: { VisibilityTimeout: '61' } }))
      .catch((e: unknown) => e);
    const byName = await fx.client.send(new GetQueueUrlCommand({ QueueName: 'uploads' }));
    const missing = await fx.client
      .send(new GetQueueUrlCommand({ QueueName: 'nope' }))
      .catch((e: unknown) => e);
    const page1 = await fx.client.send(new ListQueuesCommand({ QueueNamePrefix: 'up', MaxResults: 1 }));
    const page2 = await fx.client.send(
      new ListQueuesCommand({ QueueNamePrefix: 'up', MaxResults: 1, NextToken: page1.NextToken }),
    );

    // Assess
    expect(first.QueueUrl).toBe(`${fx.sqs.endpoint}/000000000000/uploads`);
    expect(again.QueueUrl).toBe(first.QueueUrl);
    expect(clash).toBeInstanceOf(QueueNameExists);
    expect(byName.QueueUrl).toBe(first.QueueUrl);
    expect(missing).toBeInstanceOf(QueueDoesNotExist);
    expect((missing as QueueDoesNotExist).$metadata.httpStatusCode).toBe(400);
    expect(page1.QueueUrls).toEqual([first.QueueUrl]);
    expect(page2.QueueUrls).toEqual([fx.sqs.queueUrl('uploads-dlq')]);
    expect(page2.NextToken).toBeUndefined();
  });

  it('reports the ARN, settings and the visible, in-flight and delayed counts', async () => {
    // Prepare
    const { fx, url } = await queueOnManualClock({ VisibilityTimeout: '45' });
    for (const body of ['a', 'b'])
      await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));
    await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'later', DelaySeconds: 60 }));

    // Act
    await fx.client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1 }));
    const attributes = await attributesOf(fx, url);

    // Assess
    expect(attributes).toMatchObject({
      QueueArn: 'arn:aws:sqs:us-east-1:000000000000:work',
      VisibilityTimeout: '45',
      MaximumMessageSize: '1048576',
      ApproximateNumberOfMessages: '1',
      ApproximateNumberOfMessagesNotVisible: '1',
      ApproximateNumberOfMessagesDelayed: '1',
    });
  });

  it('purges every message, in flight or not', async () => {
    // Prepare
    const { fx, url } = await queueOnManualClock();
    for (const body of ['a', 'b', 'c'])
      await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));
    await fx.client.send(new ReceiveMessageCommand({ QueueUrl: url }));

    // Act
    await fx.client.send(new PurgeQueueCommand({ QueueUrl: url }));

    // Assess
    const attributes = await attributesOf(fx, url);
    expect([
      attributes.ApproximateNumberOfMessages,
      attributes.ApproximateNumberOfMessagesNotVisible,
    ]).toEqual(['0', '0']);
  });
});

describe('local SQS: messages', () => {
  it('sends, receives with system and message attributes, and deletes, with MD5s the SDK accepts', async () => {
    // Prepare: a body outside ASCII (the MD5 is over UTF-8 bytes) and attributes of each kind.
    const { fx, clock, url } = await queueOnManualClock();
    const body = '{"doc":"Überweisung €12 🧾"}';

    // Act
    const sent = await fx.client.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: body,
        MessageAttributes: {
          tenant: { DataType: 'String', StringValue: 'acme' },
          size: { DataType: 'Number', StringValue: '1024' },
          raw: { DataType: 'Binary', BinaryValue: new Uint8Array([0, 1, 2, 255]) },
        },
      }),
    );
    const { Messages } = await fx.client.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    const message = Messages?.[0];
    await fx.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message?.ReceiptHandle }));

    // Assess
    expect(sent.MD5OfMessageBody).toBe(md5(body));
    expect(message).toMatchObject({ MessageId: sent.MessageId, Body: body, MD5OfBody: md5(body) });
    expect(message?.MD5OfMessageAttributes).toBe(sent.MD5OfMessageAttributes);
    expect(message?.Attributes).toEqual({
      SenderId: '000000000000',
      SentTimestamp: String(clock.now()),
      ApproximateReceiveCount: '1',
      ApproximateFirstReceiveTimestamp: String(clock.now()),
    });
    expect(message?.MessageAttributes?.tenant).toEqual({ DataType: 'String', StringValue: 'acme' });
    expect([...(message?.MessageAttributes?.raw?.BinaryValue ?? [])]).toEqual([0, 1, 2, 255]);
    expect((await attributesOf(fx, url)).ApproximateNumberOfMessagesNotVisible).toBe('0');
  });

  it('sends a batch, listing an invalid entry under Failed and storing the rest', async () => {
    // Prepare
    const { fx, url } = await queueOnManualClock();

    // Act
    const result = await fx.client.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: [
          { Id: 'one', MessageBody: 'first' },
          { Id: 'bad', MessageBody: 'nul \u0000 inside' },
          { Id: 'two', MessageBody: 'second', DelaySeconds: 0 },
        ],
      }),
    );
    const received = await fx.client.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }),
    );

    // Assess
    expect(result.Successful?.map((s) => [s.Id, s.MD5OfMessageBody])).toEqual([
      ['one', md5('first')],
      ['two', md5('second')],
    ]);
    expect(result.Failed).toEqual([
      expect.objectContaining({ Id: 'bad', SenderFault: true, Code: 'InvalidMessageContents' }),
    ]);
    expect(received.Messages?.map((m) => m.Body)).toEqual(['first', 'second']);
  });

  it('deletes a batch, failing only the entry whose receipt handle is not one', async () => {
    // Prepare
    const { fx, url } = await queueOnManualClock();
    for (const body of ['a', 'b'])
      await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));
    const { Messages = [] } = await fx.client.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }),
    );

    // Act
    const result = await fx.client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: [
          ...Messages.map((m, i) => ({ Id: `m${i}`, ReceiptHandle: m.ReceiptHandle })),
          { Id: 'forged', ReceiptHandle: 'not-a-handle' },
        ],
      }),
    );

    // Assess
    expect(result.Successful?.map((s) => s.Id)).toEqual(['m0', 'm1']);
    expect(result.Failed).toEqual([
      expect.objectContaining({ Id: 'forged', Code: 'ReceiptHandleIsInvalid' }),
    ]);
    expect((await attributesOf(fx, url)).ApproximateNumberOfMessagesNotVisible).toBe('0');
  });

  it('hides a received message for its visibility timeout and delivers it again after, counted twice', async () => {
    // Prepare
    const { fx, clock, url } = await queueOnManualClock({ VisibilityTimeout: '30' });
    await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'job' }));
    const firstAt = clock.now();
    const first = await fx.client.send(
      new ReceiveMessageCommand({ QueueUrl: url, MessageSystemAttributeNames: ['All'] }),
    );

    // Act
    await clock.advance(29_999);
    const during = await fx.client.send(new ReceiveMessageCommand({ QueueUrl: url }));
    await clock.advance(1);
    const after = await fx.client.send(
      new ReceiveMessageCommand({ QueueUrl: url, MessageSystemAttributeNames: ['All'] }),
    );
    const stale = await fx.client
      .send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: url,
          ReceiptHandle: first.Messages?.[0]?.ReceiptHandle,
          VisibilityTimeout: 0,
        }),
      )
      .catch((e: unknown) => e);

    // Assess
    expect(during.Messages).toBeUndefined();
    expect(after.Messages?.[0]?.Attributes).toMatchObject({
      ApproximateReceiveCount: '2',
      ApproximateFirstReceiveTimestamp: String(firstAt),
    });
    expect(after.Messages?.[0]?.ReceiptHandle).not.toBe(first.Messages?.[0]?.ReceiptHandle);
    expect((stale as Error).name).toBe('MessageNotInflight');
  });

  it('makes a message visible at once with ChangeMessageVisibility 0, and holds a delayed one until its delay ends', async () => {
    // Prepare
    const { fx, clock, url } = await queueOnManualClock();
    await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'now' }));
    await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'later', DelaySeconds: 10 }));
    const held = await fx.client.send(new ReceiveMessageCommand({ QueueUrl: url }));

    // Act
    await fx.client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: url,
        ReceiptHandle: held.Messages?.[0]?.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    );
    const again = await fx.client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }));
    await clock.advance(10_000);
    const delayed = await fx.client.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }),
    );

    // Assess
    expect(again.Messages?.map((m) => m.Body)).toEqual(['now']);
    expect(delayed.Messages?.map((m) => m.Body)).toEqual(['later']);
  });

  it('moves a message received more than maxReceiveCount times to the dead-letter queue on the next receive', async () => {
    // Prepare: maxReceiveCount 2, so the third receive attempt dead-letters it.
    const clock = new ManualClock();
    const fx = await start({ clock });
    const { QueueUrl: dlq } = await fx.client.send(new CreateQueueCommand({ QueueName: 'work-dlq' }));
    const { QueueUrl: url } = await fx.client.send(
      new CreateQueueCommand({
        QueueName: 'work',
        Attributes: {
          VisibilityTimeout: '10',
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: fx.sqs.queueArn('work-dlq'),
            maxReceiveCount: 2,
          }),
        },
      }),
    );
    const sent = await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'poison' }));

    // Act
    const receipts: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const got = await fx.client.send(new ReceiveMessageCommand({ QueueUrl: url }));
      receipts.push(got.Messages?.length ?? 0);
      await clock.advance(10_000);
    }
    const dead = await fx.client.send(
      new ReceiveMessageCommand({ QueueUrl: dlq, MessageSystemAttributeNames: ['All'] }),
    );

    // Assess
    expect(receipts).toEqual([1, 1, 0]);
    expect(dead.Messages?.[0]).toMatchObject({ MessageId: sent.MessageId, Body: 'poison' });
    expect(dead.Messages?.[0]?.Attributes?.DeadLetterQueueSourceArn).toBe(fx.sqs.queueArn('work'));
    expect((await attributesOf(fx, url as string)).ApproximateNumberOfMessages).toBe('0');
  });

  it('drops a message once it outlives MessageRetentionPeriod', async () => {
    // Prepare
    const { fx, clock, url } = await queueOnManualClock({ MessageRetentionPeriod: '60' });
    await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'stale' }));

    // Act
    await clock.advance(60_000);
    const got = await fx.client.send(new ReceiveMessageCommand({ QueueUrl: url }));

    // Assess
    expect(got.Messages).toBeUndefined();
    expect((await attributesOf(fx, url)).ApproximateNumberOfMessages).toBe('0');
  });
});

describe('local SQS: long polling', () => {
  it('answers a long poll as soon as a message is sent, without the clock moving', async () => {
    // Prepare
    const { fx, clock, url } = await queueOnManualClock();
    const t0 = clock.now();
    const polling = fx.client.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20 }));
    await clock.armedAt(t0 + 20_000);

    // Act
    await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'wake up' }));

    // Assess
    expect((await polling).Messages?.map((m) => m.Body)).toEqual(['wake up']);
    expect(clock.now()).toBe(t0);
  });

  it('answers empty when WaitTimeSeconds pass, and wakes when an in-flight message becomes visible', async () => {
    // Prepare
    const { fx, clock, url } = await queueOnManualClock({ VisibilityTimeout: '5' });
    const t0 = clock.now();
    const empty = fx.client.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 3 }));
    await clock.armedAt(t0 + 3_000);

    // Act
    await clock.advance(3_000);
    const emptyAnswer = await empty;
    await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'retry me' }));
    await fx.client.send(new ReceiveMessageCommand({ QueueUrl: url }));
    const t1 = clock.now();
    const waiting = fx.client.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20 }));
    await clock.armedAt(t1 + 5_000);
    await clock.advance(5_000);

    // Assess
    expect(emptyAnswer.Messages).toBeUndefined();
    expect((await waiting).Messages?.map((m) => m.Body)).toEqual(['retry me']);
  });

  it('uses the queue ReceiveMessageWaitTimeSeconds when the receive names no wait', async () => {
    // Prepare
    const { fx, clock, url } = await queueOnManualClock({ ReceiveMessageWaitTimeSeconds: '7' });
    const t0 = clock.now();

    // Act
    const polling = fx.client.send(new ReceiveMessageCommand({ QueueUrl: url }));
    await clock.armedAt(t0 + 7_000);
    await clock.advance(7_000);

    // Assess
    expect((await polling).Messages).toBeUndefined();
  });
});
