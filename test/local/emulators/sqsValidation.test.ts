import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  type SQSClient,
  type SQSServiceException,
  TagQueueCommand,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, MAX_REQUEST_BYTES } from '../../../local/emulators/sqs/index.js';
import { type SqsFixture, startSqsFixture } from './support/localSqs.js';
import { jsonHeaders, type RawAnswer, rawRequest } from './support/rawHttp.js';

let fx: SqsFixture;
let url: string;
beforeAll(async () => {
  fx = await startSqsFixture();
  url = (await fx.client.send(new CreateQueueCommand({ QueueName: 'door' }))).QueueUrl as string;
});
afterAll(async () => {
  await fx.remove();
});

const failureOf = async (call: (client: SQSClient) => Promise<unknown>) => {
  try {
    await call(fx.client);
  } catch (error) {
    const e = error as SQSServiceException;
    return { name: e.name, status: e.$metadata?.httpStatusCode };
  }
  throw new Error('the call was expected to fail and succeeded');
};

const tenEntries = (n: number) => Array.from({ length: n }, (_, i) => ({ Id: `e${i}`, MessageBody: 'x' }));

describe('local SQS: validation at the door, in AWS error names', () => {
  const cases: [string, string, number, (c: SQSClient) => Promise<unknown>][] = [
    [
      'a send without a body',
      'MissingParameter',
      400,
      (c) => c.send(new SendMessageCommand({ QueueUrl: url, MessageBody: '' })),
    ],
    [
      'a body with a NUL',
      'InvalidMessageContents',
      400,
      (c) => c.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'a\u0000' })),
    ],
    [
      'a lone surrogate',
      'InvalidMessageContents',
      400,
      (c) => c.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'a\ud800b' })),
    ],
    [
      'a body one byte over 1 MiB',
      'InvalidParameterValue',
      400,
      (c) =>
        c.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'x'.repeat(MAX_MESSAGE_BYTES + 1) })),
    ],
    [
      'DelaySeconds 901',
      'InvalidParameterValue',
      400,
      (c) => c.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'x', DelaySeconds: 901 })),
    ],
    [
      'eleven message attributes',
      'InvalidParameterValue',
      400,
      (c) =>
        c.send(
          new SendMessageCommand({
            QueueUrl: url,
            MessageBody: 'x',
            MessageAttributes: Object.fromEntries(
              Array.from({ length: 11 }, (_, i) => [`a${i}`, { DataType: 'String', StringValue: 'v' }]),
            ),
          }),
        ),
    ],
    [
      'an attribute named AWS.x',
      'InvalidParameterValue',
      400,
      (c) =>
        c.send(
          new SendMessageCommand({
            QueueUrl: url,
            MessageBody: 'x',
            MessageAttributes: { 'AWS.x': { DataType: 'String', StringValue: 'v' } },
          }),
        ),
    ],
    [
      'MaxNumberOfMessages 11',
      'InvalidParameterValue',
      400,
      (c) => c.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 11 })),
    ],
    [
      'WaitTimeSeconds 21',
      'InvalidParameterValue',
      400,
      (c) => c.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 21 })),
    ],
    [
      'VisibilityTimeout -1',
      'InvalidParameterValue',
      400,
      (c) => c.send(new ReceiveMessageCommand({ QueueUrl: url, VisibilityTimeout: -1 })),
    ],
    [
      'an unknown attribute name',
      'InvalidAttributeName',
      400,
      (c) => c.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['Colour' as 'All'] })),
    ],
    [
      'an unknown queue',
      'QueueDoesNotExist',
      400,
      (c) =>
        c.send(
          new SendMessageCommand({ QueueUrl: `${fx.sqs.endpoint}/000000000000/ghost`, MessageBody: 'x' }),
        ),
    ],
    [
      'a queue URL with a broken escape',
      'InvalidAddress',
      404,
      (c) =>
        c.send(
          new SendMessageCommand({ QueueUrl: `${fx.sqs.endpoint}/000000000000/%E0%A4%A`, MessageBody: 'x' }),
        ),
    ],
    [
      'an attribute named constructor',
      'InvalidAttributeName',
      400,
      (c) =>
        c.send(
          new CreateQueueCommand({
            QueueName: 'c',
            Attributes: { constructor: '5' } as Record<string, string>,
          }),
        ),
    ],
    [
      'a forged receipt handle',
      'ReceiptHandleIsInvalid',
      404,
      (c) => c.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: 'AQEB-forged' })),
    ],
    [
      'an empty batch',
      'EmptyBatchRequest',
      400,
      (c) => c.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [] })),
    ],
    [
      'eleven entries',
      'TooManyEntriesInBatchRequest',
      400,
      (c) => c.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: tenEntries(11) })),
    ],
    [
      'a repeated entry id',
      'BatchEntryIdsNotDistinct',
      400,
      (c) =>
        c.send(
          new DeleteMessageBatchCommand({
            QueueUrl: url,
            Entries: [
              { Id: 'a', ReceiptHandle: 'x' },
              { Id: 'a', ReceiptHandle: 'y' },
            ],
          }),
        ),
    ],
    [
      'an entry id with a space',
      'InvalidBatchEntryId',
      400,
      (c) =>
        c.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: 'a b', MessageBody: 'x' }] })),
    ],
    [
      'a batch over 1 MiB in all',
      'BatchRequestTooLong',
      400,
      (c) =>
        c.send(
          new SendMessageBatchCommand({
            QueueUrl: url,
            Entries: tenEntries(2).map((e) => ({ ...e, MessageBody: 'y'.repeat(600_000) })),
          }),
        ),
    ],
    [
      'a queue name with a slash',
      'InvalidParameterValue',
      400,
      (c) => c.send(new CreateQueueCommand({ QueueName: 'a/b' })),
    ],
    [
      'a redrive policy to a missing queue',
      'InvalidParameterValue',
      400,
      (c) =>
        c.send(
          new CreateQueueCommand({
            QueueName: 'r',
            Attributes: {
              RedrivePolicy: JSON.stringify({
                deadLetterTargetArn: 'arn:aws:sqs:us-east-1:000000000000:none',
                maxReceiveCount: 3,
              }),
            },
          }),
        ),
    ],
    [
      'a FIFO queue',
      'UnsupportedOperation',
      400,
      (c) => c.send(new CreateQueueCommand({ QueueName: 'q.fifo', Attributes: { FifoQueue: 'true' } })),
    ],
    [
      'an action not served',
      'UnsupportedOperation',
      400,
      (c) => c.send(new TagQueueCommand({ QueueUrl: url, Tags: { a: 'b' } })),
    ],
  ];

  it.each(cases)('refuses %s with %s (%i)', async (_what, name, status, call) => {
    // Act
    const failure = await failureOf(call);
    // Assess
    expect(failure).toEqual({ name, status });
  });

  it('takes a body of exactly 1 MiB, and answers with its MD5', async () => {
    // Act
    const sent = await fx.client.send(
      new SendMessageCommand({ QueueUrl: url, MessageBody: 'z'.repeat(MAX_MESSAGE_BYTES) }),
    );
    // Assess: the SDK itself checked MD5OfMessageBody against the body it sent.
    expect(sent.MessageId).toBeTruthy();
  });

  it('answers requests the SDK would never send with a 400 that names the problem', async () => {
    // Prepare
    const port = fx.sqs.port;
    const requests: [string, Parameters<typeof rawRequest>[1], string][] = [
      ['unknown action', { headers: jsonHeaders('LaunchRockets'), body: '{}' }, 'UnsupportedOperation'],
      [
        'no target',
        { headers: { 'content-type': 'application/x-amz-json-1.0' }, body: '{}' },
        'UnsupportedOperation',
      ],
      [
        'query protocol',
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'Action=ListQueues' },
        'UnsupportedOperation',
      ],
      ['GET', { method: 'GET', headers: jsonHeaders('ListQueues') }, 'UnsupportedOperation'],
      [
        'broken JSON',
        { headers: jsonHeaders('SendMessage'), body: '{"QueueUrl":' },
        'SerializationException',
      ],
      ['a JSON array', { headers: jsonHeaders('ListQueues'), body: '[]' }, 'SerializationException'],
      [
        'a number where a string goes',
        { headers: jsonHeaders('SendMessage'), body: JSON.stringify({ QueueUrl: url, MessageBody: 5 }) },
        'InvalidParameterValue',
      ],
      [
        'a huge body',
        { headers: jsonHeaders('SendMessage'), body: Buffer.alloc(MAX_REQUEST_BYTES + 1, 'a') },
        'InvalidParameterValue',
      ],
    ];

    // Act
    const answers: [string, RawAnswer][] = [];
    for (const [what, options] of requests) answers.push([what, await rawRequest(port, options)]);

    // Assess
    for (const [i, [what, answer]] of answers.entries()) {
      expect({ what, answer: 'status' in answer ? answer.status : answer.noAnswer }).toEqual({
        what,
        answer: 400,
      });
      const body = JSON.parse((answer as { body: string }).body) as { __type: string };
      expect(body.__type.split('#')[1]).toBe(requests[i]?.[2]);
    }
  });
});
