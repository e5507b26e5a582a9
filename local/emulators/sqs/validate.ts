import {
  invalidAttributeName,
  invalidMessageContents,
  invalidParameter,
  missingParameter,
  unsupportedOperation,
} from './errors.js';
import type { StoredAttribute } from './md5.js';
import { hasInvalidCharacters, isObject, type JsonObject, Params } from './params.js';
import { queueNameOfArn } from './queue.js';
import type { NewMessage } from './store.js';

/** The largest message (body plus attributes) and the largest batch, in bytes: 1 MiB since 2025. */
export const MAX_MESSAGE_BYTES = 1_048_576;

/** Integer queue attributes and their ranges, from the CreateQueue reference. */
const INTEGER_ATTRIBUTES: Readonly<Record<string, [number, number]>> = {
  VisibilityTimeout: [0, 43_200],
  MessageRetentionPeriod: [60, 1_209_600],
  DelaySeconds: [0, 900],
  ReceiveMessageWaitTimeSeconds: [0, 20],
  MaximumMessageSize: [1024, MAX_MESSAGE_BYTES],
};

/** Attributes kept as given: the local SQS does not enforce them (no IAM, no KMS). */
const STORED_AS_GIVEN = new Set([
  'Policy',
  'KmsMasterKeyId',
  'KmsDataKeyReusePeriodSeconds',
  'SqsManagedSseEnabled',
  'RedriveAllowPolicy',
]);

const FIFO_ATTRIBUTES = new Set([
  'FifoQueue',
  'ContentBasedDeduplication',
  'DeduplicationScope',
  'FifoThroughputLimit',
]);

/** Every name GetQueueAttributes knows (FIFO ones are known, and absent on a standard queue). */
export const QUEUE_ATTRIBUTE_NAMES = new Set([
  'All',
  'QueueArn',
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
  'CreatedTimestamp',
  'LastModifiedTimestamp',
  'RedrivePolicy',
  ...Object.keys(INTEGER_ATTRIBUTES),
  ...STORED_AS_GIVEN,
  ...FIFO_ATTRIBUTES,
]);

/** Queue names: 1 to 80 letters, digits, hyphens and underscores. */
export const checkQueueName = (name: string): void => {
  if (name.endsWith('.fifo'))
    throw unsupportedOperation('The local SQS serves standard queues only, not FIFO.');
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(name))
    throw invalidParameter(
      'QueueName',
      'Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.',
      name,
    );
};

const redrivePolicy = (text: string, queueExists: (name: string) => boolean): string => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidParameter('Attributes.RedrivePolicy', 'Invalid value for RedrivePolicy: not JSON.', text);
  }
  if (!isObject(parsed)) throw invalidParameter('Attributes.RedrivePolicy', 'must be a JSON object.', text);
  const { deadLetterTargetArn, maxReceiveCount } = parsed;
  // CloudFormation writes the count as a number, the console as a string: AWS takes both.
  const count = typeof maxReceiveCount === 'string' ? Number(maxReceiveCount) : maxReceiveCount;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 1000)
    throw invalidParameter(
      'Attributes.RedrivePolicy',
      'maxReceiveCount must be an integer from 1 to 1000.',
      text,
    );
  const dlq = typeof deadLetterTargetArn === 'string' ? queueNameOfArn(deadLetterTargetArn) : undefined;
  if (dlq === undefined)
    throw invalidParameter('Attributes.RedrivePolicy', 'deadLetterTargetArn must be an SQS queue ARN.', text);
  if (!queueExists(dlq))
    throw invalidParameter('Attributes.RedrivePolicy', 'Dead letter target does not exist.', text);
  return JSON.stringify({ deadLetterTargetArn, maxReceiveCount: count });
};

/**
 * Checks CreateQueue's Attributes and returns them normalized (decimal integers, a canonical
 * RedrivePolicy), so equal settings compare equal whatever their spelling.
 */
export const checkQueueAttributes = (
  attributes: JsonObject,
  queueExists: (name: string) => boolean,
): Record<string, string> => {
  const normalized: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (FIFO_ATTRIBUTES.has(name))
      throw unsupportedOperation('The local SQS serves standard queues only, not FIFO.');
    if (typeof value !== 'string') throw invalidParameter(`Attributes.${name}`, 'must be a string.', value);
    // Own keys only: a name such as `constructor` must not find Object.prototype's.
    const range = Object.hasOwn(INTEGER_ATTRIBUTES, name) ? INTEGER_ATTRIBUTES[name] : undefined;
    if (range) {
      const n = Number(value);
      if (!/^\d+$/.test(value.trim()) || n < range[0] || n > range[1])
        throw invalidParameter(
          `Attributes.${name}`,
          `must be an integer from ${range[0]} to ${range[1]}.`,
          value,
        );
      normalized[name] = String(n);
    } else if (name === 'RedrivePolicy') normalized[name] = redrivePolicy(value, queueExists);
    else if (STORED_AS_GIVEN.has(name)) normalized[name] = value;
    else throw invalidAttributeName(name);
  }
  return normalized;
};

const ATTRIBUTE_NAME = /^[A-Za-z0-9_.-]{1,256}$/;
const DATA_TYPE = /^(String|Number|Binary)(\.[A-Za-z0-9_.-]+)?$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

const checkAttribute = (where: string, name: string, value: unknown): StoredAttribute => {
  if (
    !ATTRIBUTE_NAME.test(name) ||
    /^(aws|amazon)\./i.test(name) ||
    name.startsWith('.') ||
    name.endsWith('.') ||
    name.includes('..')
  )
    throw invalidParameter(where, `Message attribute name '${name.slice(0, 80)}' is invalid.`);
  if (!isObject(value)) throw invalidParameter(`${where}.${name}`, 'must be a structure.');
  const p = new Params(value, `${where}.${name}.`);
  const dataType = p.string('DataType');
  if (dataType.length > 256 || !DATA_TYPE.test(dataType))
    throw invalidParameter(
      `${where}.${name}.DataType`,
      'must be String, Number or Binary, with an optional .label.',
      dataType,
    );
  if (p.has('StringListValues') || p.has('BinaryListValues'))
    throw invalidParameter(
      `${where}.${name}`,
      'StringListValues and BinaryListValues are not implemented by SQS.',
    );
  if (dataType.startsWith('Binary')) {
    const binary = p.string('BinaryValue');
    if (!BASE64.test(binary)) throw invalidParameter(`${where}.${name}.BinaryValue`, 'must be base64.');
    return { DataType: dataType, BinaryValue: binary };
  }
  const text = p.string('StringValue');
  if (hasInvalidCharacters(text)) throw invalidMessageContents();
  if (dataType.startsWith('Number') && (!NUMBER.test(text) || text.length > 40))
    throw invalidParameter(`${where}.${name}.StringValue`, 'must be a number.', text);
  return { DataType: dataType, StringValue: text };
};

/** Bytes a message counts against MaximumMessageSize: body, attribute names, types and values. */
export const messageBytes = (message: NewMessage): number => {
  let bytes = Buffer.byteLength(message.body, 'utf8');
  for (const [name, a] of Object.entries(message.attributes ?? {}))
    bytes +=
      Buffer.byteLength(name) +
      Buffer.byteLength(a.DataType) +
      (a.BinaryValue !== undefined
        ? Buffer.from(a.BinaryValue, 'base64').length
        : Buffer.byteLength(a.StringValue ?? ''));
  return bytes;
};

/**
 * Reads one message of SendMessage or a SendMessageBatch entry: body characters and size,
 * DelaySeconds, MessageAttributes and the AWSTraceHeader system attribute.
 */
export const readMessage = (p: Params, defaultDelay: number, maxBytes: number): NewMessage => {
  const body = p.string('MessageBody');
  if (hasInvalidCharacters(body)) throw invalidMessageContents();
  const delaySeconds = p.optionalInteger('DelaySeconds', 0, 900) ?? defaultDelay;
  // Standard queues accept a group id (fair queues) and ignore it here; read both to type-check.
  p.optionalString('MessageGroupId');
  p.optionalString('MessageDeduplicationId');
  const given = p.optionalObject('MessageAttributes');
  const entries = Object.entries(given ?? {});
  if (entries.length > 10)
    throw invalidParameter(
      'MessageAttributes',
      `Number of message attributes [${entries.length}] exceeds the allowed maximum [10].`,
    );
  const attributes = entries.length
    ? Object.fromEntries(
        entries.map(([name, value]) => [name, checkAttribute('MessageAttributes', name, value)]),
      )
    : undefined;
  let trace: string | undefined;
  for (const [name, value] of Object.entries(p.optionalObject('MessageSystemAttributes') ?? {})) {
    if (name !== 'AWSTraceHeader')
      throw invalidParameter(
        'MessageSystemAttributes',
        `Message system attribute name '${name.slice(0, 80)}' is invalid.`,
      );
    const checked = checkAttribute('MessageSystemAttributes', 'Trace', value);
    if (checked.StringValue === undefined)
      throw missingParameter('MessageSystemAttributes.AWSTraceHeader.StringValue');
    trace = checked.StringValue;
  }
  const message: NewMessage = {
    body,
    delaySeconds,
    ...(attributes && { attributes }),
    ...(trace !== undefined && { trace }),
  };
  if (messageBytes(message) > maxBytes)
    throw invalidParameter(
      'MessageBody',
      `One or more parameters are invalid. Reason: Message must be shorter than ${maxBytes} bytes.`,
    );
  return message;
};
