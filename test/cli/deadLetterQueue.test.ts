import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDeadLetters, redriveDeadLetters } from '../../cli/deadLetterQueue.js';
import { REDRIVE_ATTRIBUTE, sendDeadLetter } from '../../lambdas/shared/deadLetters.js';
import { objectCreatedEvent } from '../../local/events/objectCreatedEvent.js';
import { createUploadQueues, type UploadQueues } from '../../local/events/uploadPath.js';
import { type SqsFixture, startSqsFixture } from '../local/emulators/support/localSqs.js';

let fixture: SqsFixture;
let queues: UploadQueues;

beforeAll(async () => {
  fixture = await startSqsFixture();
  queues = await createUploadQueues(fixture.client, fixture.sqs);
});
afterAll(async () => {
  await fixture.remove();
});

const event = (key: string) => objectCreatedEvent({ bucket: 'docs', key, size: 3, sequencer: '00A1' });

describe('docket dlq over the local SQS', () => {
  it('lists Docket letters and bare events with their reasons, and leaves them on the queue', async () => {
    // Prepare: one letter the starter wrote, one event SQS moved there by itself.
    await sendDeadLetter(fixture.client, queues.deadLetters, {
      source: 'starter',
      reason: 'StartExecution failed (AccessDenied): not allowed',
      event: event('incoming/acme/a.pdf'),
    });
    await fixture.client.send(
      new SendMessageCommand({
        QueueUrl: queues.deadLetters,
        MessageBody: JSON.stringify(event('incoming/acme/b.pdf')),
      }),
    );

    // Act
    const first = await listDeadLetters(fixture.client, queues.deadLetters);
    const second = await listDeadLetters(fixture.client, queues.deadLetters);

    // Assess
    expect(first.map((l) => [l.source, l.key, l.reason]).sort()).toEqual([
      ['queue', 'incoming/acme/b.pdf', 'delivered too many times without being started'],
      ['starter', 'incoming/acme/a.pdf', 'StartExecution failed (AccessDenied): not allowed'],
    ]);
    expect(second.map((l) => l.messageId).sort()).toEqual(first.map((l) => l.messageId).sort());
  });

  it('redrives the chosen letters to the upload queue as bare events marked as a redrive, and keeps the rest', async () => {
    // Prepare
    const letters = await listDeadLetters(fixture.client, queues.deadLetters);
    const chosen = letters.find((l) => l.key === 'incoming/acme/a.pdf');

    // Act
    const { redriven, kept } = await redriveDeadLetters(
      fixture.client,
      queues,
      (l) => l.messageId === chosen?.messageId,
      () => 1_700_000_000_000,
    );

    // Assess
    const { Messages = [] } = await fixture.client.send(
      new ReceiveMessageCommand({
        QueueUrl: queues.uploads,
        MaxNumberOfMessages: 10,
        MessageAttributeNames: ['All'],
      }),
    );
    expect(redriven.map((l) => l.key)).toEqual(['incoming/acme/a.pdf']);
    expect(kept).toBe(1);
    expect(Messages).toHaveLength(1);
    expect(JSON.parse(Messages[0]?.Body ?? '{}').detail.object.key).toBe('incoming/acme/a.pdf');
    expect(Messages[0]?.MessageAttributes?.[REDRIVE_ATTRIBUTE]?.StringValue).toBe('1700000000000');
    expect((await listDeadLetters(fixture.client, queues.deadLetters)).map((l) => l.key)).toEqual([
      'incoming/acme/b.pdf',
    ]);
  });
});
