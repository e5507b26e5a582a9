import type { Action } from './context.js';
import { queueOf } from './context.js';
import { invalidAttributeName, invalidParameter, queueDoesNotExist, queueNameExists } from './errors.js';
import { DEFAULT_ATTRIBUTES, type Queue } from './queue.js';
import { checkQueueAttributes, checkQueueName, QUEUE_ATTRIBUTE_NAMES } from './validate.js';

/** The effective value of a settable attribute (given, or AWS's default). */
const effective = (queue: Queue, name: string) => queue.attributes[name] ?? DEFAULT_ATTRIBUTES[name];

/**
 * CreateQueue: idempotent when the attributes given match the queue's; a different value is
 * QueueNameExists, as on AWS. Tags are accepted and not kept.
 */
export const createQueue: Action = async (ctx, p) => {
  const name = p.string('QueueName');
  checkQueueName(name);
  const attributes = checkQueueAttributes(p.optionalObject('Attributes') ?? {}, (n) =>
    ctx.store.queues.has(n),
  );
  p.optionalObject('tags');
  const existing = ctx.store.queues.get(name);
  if (existing) {
    for (const [key, value] of Object.entries(attributes))
      if (effective(existing, key) !== value) throw queueNameExists(name);
    return { QueueUrl: ctx.queueUrl(name) };
  }
  await ctx.store.commit([{ t: 'queue', name, attributes, created: ctx.store.clock.now() }]);
  return { QueueUrl: ctx.queueUrl(name) };
};

/** GetQueueUrl. */
export const getQueueUrl: Action = async (ctx, p) => {
  const name = p.string('QueueName');
  p.optionalString('QueueOwnerAWSAccountId');
  if (!ctx.store.queues.has(name)) throw queueDoesNotExist();
  return { QueueUrl: ctx.queueUrl(name) };
};

/** GetQueueAttributes: `All`, or the names asked for; an unknown name is InvalidAttributeName. */
export const getQueueAttributes: Action = async (ctx, p) => {
  const queue = queueOf(ctx, p);
  const names = p.stringList('AttributeNames');
  for (const name of names) if (!QUEUE_ATTRIBUTE_NAMES.has(name)) throw invalidAttributeName(name);
  const wanted = (name: string) => names.includes('All') || names.includes(name);
  const { visible, inFlight, delayed } = queue.counts(ctx.store.clock.now());
  const seconds = String(Math.floor(queue.created / 1000));
  const all: Record<string, string | undefined> = {
    QueueArn: queue.arn,
    ApproximateNumberOfMessages: String(visible),
    ApproximateNumberOfMessagesNotVisible: String(inFlight),
    ApproximateNumberOfMessagesDelayed: String(delayed),
    CreatedTimestamp: seconds,
    LastModifiedTimestamp: seconds,
    SqsManagedSseEnabled: 'false',
    ...DEFAULT_ATTRIBUTES,
    ...queue.attributes,
  };
  const Attributes = Object.fromEntries(
    Object.entries(all).filter(([name, value]) => value !== undefined && wanted(name)),
  );
  return Object.keys(Attributes).length > 0 ? { Attributes } : {};
};

/** PurgeQueue: every message goes, in flight or not. (AWS's once-a-minute limit is not kept.) */
export const purgeQueue: Action = async (ctx, p) => {
  const queue = queueOf(ctx, p);
  await ctx.store.commit([{ t: 'purge', q: queue.name }]);
  return {};
};

/** ListQueues, by name, with MaxResults/NextToken paging (the token is the last name listed). */
export const listQueues: Action = async (ctx, p) => {
  const prefix = p.optionalString('QueueNamePrefix') ?? '';
  const max = p.optionalInteger('MaxResults', 1, 1000);
  const token = p.optionalString('NextToken');
  const after = token === undefined ? '' : Buffer.from(token, 'base64url').toString('utf8');
  if (token !== undefined && after === '')
    throw invalidParameter('NextToken', 'Invalid NextToken value.', token);
  const names = [...ctx.store.queues.keys()].filter((n) => n.startsWith(prefix) && n > after).sort();
  const page = names.slice(0, max ?? 1000);
  const more = max !== undefined && names.length > page.length;
  return {
    ...(page.length > 0 && { QueueUrls: page.map((n) => ctx.queueUrl(n)) }),
    ...(more && { NextToken: Buffer.from(page.at(-1) as string, 'utf8').toString('base64url') }),
  };
};
