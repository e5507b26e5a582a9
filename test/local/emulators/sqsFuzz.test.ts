import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES } from '../../../local/emulators/sqs/index.js';
import { type SqsFixture, startSqsFixture } from './support/localSqs.js';
import { jsonHeaders, rawRequest } from './support/rawHttp.js';

let fx: SqsFixture;
let url: string;
beforeAll(async () => {
  fx = await startSqsFixture();
  url = (await fx.client.send(new CreateQueueCommand({ QueueName: 'fuzz' }))).QueueUrl as string;
});
afterAll(async () => {
  await fx.remove();
});

/** A seeded generator, so a failing run can be replayed. */
const generator = (seed: number) => {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
};

const ACTIONS = [
  'CreateQueue',
  'GetQueueUrl',
  'GetQueueAttributes',
  'ListQueues',
  'PurgeQueue',
  'SendMessage',
  'SendMessageBatch',
  'ReceiveMessage',
  'DeleteMessage',
  'DeleteMessageBatch',
  'ChangeMessageVisibility',
  'ChangeMessageVisibilityBatch',
  'DeleteQueue',
  '',
];
const FIELDS = [
  'QueueUrl',
  'QueueName',
  'MessageBody',
  'DelaySeconds',
  'MaxNumberOfMessages',
  'VisibilityTimeout',
  'WaitTimeSeconds',
  'ReceiptHandle',
  'Entries',
  'Attributes',
  'AttributeNames',
  'MessageAttributes',
  'MessageSystemAttributes',
  'MessageAttributeNames',
  'MaxResults',
  'NextToken',
  'QueueNamePrefix',
];

/**
 * Values chosen to break a careless parser: wrong types, out-of-range numbers, odd strings. The
 * only numbers that pass are 0 and null, so no fuzzed receive long-polls on the system clock.
 */
const hostileValue = (g: ReturnType<typeof generator>, depth = 0): unknown => {
  const values: (() => unknown)[] = [
    () => -1,
    () => 1e300,
    () => 1.5,
    () => 0,
    () => null,
    () => true,
    () => '',
    () => 'x'.repeat(Math.floor(g.next() * 5000)),
    () => '\ud800\u0000\uffff',
    () => '../../etc/passwd',
    () => '{"maxReceiveCount":"1e9"}',
    () => 'AQEB+/=',
    () => Buffer.from(JSON.stringify(['fuzz', 'id', 'n'])).toString('base64url'),
    () => `${fx.sqs.endpoint}/000000000000/fuzz`,
    () => `${fx.sqs.endpoint}/000000000000/${'q'.repeat(200)}`,
    () => 'http://[::1',
    () => `${fx.sqs.endpoint}/000000000000/%E0%A4%A`,
    () => 'constructor',
    () =>
      depth < 3 ? Array.from({ length: Math.floor(g.next() * 12) }, () => hostileValue(g, depth + 1)) : [],
    () =>
      depth < 3
        ? Object.fromEntries(
            Array.from({ length: Math.floor(g.next() * 4) }, () => [
              g.pick([
                ...FIELDS,
                'Id',
                'DataType',
                'StringValue',
                'BinaryValue',
                '__proto__',
                'constructor',
                'VisibilityTimeout',
              ]),
              hostileValue(g, depth + 1),
            ]),
          )
        : {},
  ];
  return g.pick(values)();
};

const hostileRequest = (g: ReturnType<typeof generator>): Parameters<typeof rawRequest>[1] => {
  const action = g.pick(ACTIONS);
  const kind = g.next();
  if (kind < 0.1) {
    const bytes = Buffer.alloc(Math.floor(g.next() * 2000));
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(g.next() * 256);
    return { headers: jsonHeaders(action), body: bytes };
  }
  if (kind < 0.15)
    return { headers: { 'content-type': g.pick(['text/xml', '', 'application/json']) }, body: '{}' };
  if (kind < 0.2) return { headers: jsonHeaders(action), body: `${'['.repeat(50_000)}${']'.repeat(49_999)}` };
  if (kind < 0.25)
    return { headers: jsonHeaders(action), body: JSON.stringify({ QueueUrl: url }).slice(0, -3) };
  const body: Record<string, unknown> = { QueueUrl: url };
  for (let i = 0; i < 1 + g.next() * 4; i++) body[g.pick(FIELDS)] = hostileValue(g);
  return { headers: jsonHeaders(action), body: JSON.stringify(body) };
};

describe('local SQS: hostile requests', () => {
  it('answers every one of 400 hostile requests, never with a 5xx, and still works after', async () => {
    // Prepare
    const g = generator(20_250_305);
    const figures = { requests: 0, status2xx: 0, status4xx: 0, status5xx: 0, noAnswer: 0 };
    const problems: string[] = [];

    // Act: 400 generated requests, then two bodies over the request bound.
    const requests = Array.from({ length: 400 }, () => hostileRequest(g));
    requests.push(
      { headers: jsonHeaders('SendMessage'), body: Buffer.alloc(MAX_REQUEST_BYTES + 10, '"') },
      { headers: jsonHeaders('SendMessageBatch'), body: Buffer.alloc(MAX_REQUEST_BYTES * 2, ' ') },
    );
    for (const request of requests) {
      const answer = await rawRequest(fx.sqs.port, request);
      figures.requests++;
      if ('noAnswer' in answer) {
        figures.noAnswer++;
        problems.push(`no answer: ${answer.noAnswer}`);
      } else if (answer.status >= 500) {
        figures.status5xx++;
        problems.push(`${answer.status}: ${answer.body.slice(0, 200)}`);
      } else if (answer.status >= 400) figures.status4xx++;
      else figures.status2xx++;
    }
    const sent = await fx.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'still here' }));
    const { Messages = [] } = await fx.client.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }),
    );
    console.log(`local SQS fuzz: ${JSON.stringify(figures)}`);

    // Assess
    expect(problems).toEqual([]);
    expect(figures).toMatchObject({ requests: 402, status5xx: 0, noAnswer: 0 });
    expect(figures.status4xx).toBeGreaterThan(300);
    expect(Messages.map((m) => m.MessageId)).toContain(sent.MessageId);
  }, 120_000);
});
