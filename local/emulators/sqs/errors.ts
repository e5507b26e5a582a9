/**
 * Errors the local SQS answers with, in AWS's own names. The SDK (awsQueryCompatible JSON 1.0)
 * reads the `x-amzn-query-error` header first, so each error carries the query-protocol code AWS
 * sends there (`AWS.SimpleQueueService.NonExistentQueue` for `QueueDoesNotExist`): the SDK then
 * raises the same modeled class (`QueueDoesNotExist`, ...) as against AWS. Statuses follow the
 * SDK's model (`ReceiptHandleIsInvalid` and `InvalidAddress` are 404 there); all are 4xx.
 */
export class SqsError extends Error {
  override readonly name = 'SqsError';
  constructor(
    /** The shape name, e.g. `QueueDoesNotExist`: what the SDK error's `name` will be. */
    readonly code: string,
    message: string,
    readonly status = 400,
    /** What AWS puts in `x-amzn-query-error` (before `;Sender`); defaults to `code`. */
    readonly queryCode = code,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The JSON 1.0 error body: `__type` names the shape in the SQS namespace. */
  body(): { __type: string; message: string } {
    const namespace =
      this.code === 'SerializationException' ? 'com.amazon.coral.service' : 'com.amazonaws.sqs';
    return { __type: `${namespace}#${this.code}`, message: this.message };
  }
}

/** The journal could not be written or read: the store cannot promise durability any more. */
export class SqsJournalError extends Error {
  override readonly name = 'SqsJournalError';
}

/** 400 InvalidParameterValue, in AWS's wording: value, parameter, reason. */
export const invalidParameter = (parameter: string, reason: string, value?: unknown) =>
  new SqsError(
    'InvalidParameterValue',
    value === undefined
      ? `Invalid value for the parameter ${parameter}. Reason: ${reason}`
      : `Value ${shown(value)} for parameter ${parameter} is invalid. Reason: ${reason}`,
  );

/** 400 MissingParameter. */
export const missingParameter = (parameter: string) =>
  new SqsError('MissingParameter', `The request must contain the parameter ${parameter}.`);

/** 400 QueueDoesNotExist (query code AWS.SimpleQueueService.NonExistentQueue). */
export const queueDoesNotExist = () =>
  new SqsError(
    'QueueDoesNotExist',
    'The specified queue does not exist.',
    400,
    'AWS.SimpleQueueService.NonExistentQueue',
  );

/** 400 QueueNameExists (query code QueueAlreadyExists): same name, other attribute values. */
export const queueNameExists = (name: string) =>
  new SqsError(
    'QueueNameExists',
    `A queue named ${name} already exists with different attributes.`,
    400,
    'QueueAlreadyExists',
  );

/** 404 ReceiptHandleIsInvalid, as in the SDK's model. */
export const receiptHandleIsInvalid = (handle: string) =>
  new SqsError(
    'ReceiptHandleIsInvalid',
    `The input receipt handle "${shown(handle)}" is not a valid receipt handle.`,
    404,
  );

/** 400 MessageNotInflight: a visibility change for a message nobody holds. */
export const messageNotInflight = () =>
  new SqsError(
    'MessageNotInflight',
    'The message referred to is not in flight.',
    400,
    'AWS.SimpleQueueService.MessageNotInflight',
  );

/** 400 InvalidMessageContents: characters SQS refuses. */
export const invalidMessageContents = () =>
  new SqsError(
    'InvalidMessageContents',
    'Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF',
  );

/** 400 InvalidAttributeName. */
export const invalidAttributeName = (name: string) =>
  new SqsError('InvalidAttributeName', `Unknown Attribute ${shown(name)}.`);

/** The batch errors, each with its query code. */
export const batchError = (
  code:
    | 'EmptyBatchRequest'
    | 'TooManyEntriesInBatchRequest'
    | 'BatchEntryIdsNotDistinct'
    | 'InvalidBatchEntryId'
    | 'BatchRequestTooLong',
  message: string,
) => new SqsError(code, message, 400, `AWS.SimpleQueueService.${code}`);

/** 400 UnsupportedOperation: an action (or a feature such as FIFO) the local SQS does not serve. */
export const unsupportedOperation = (message: string) =>
  new SqsError('UnsupportedOperation', message, 400, 'AWS.SimpleQueueService.UnsupportedOperation');

/** 400 SerializationException: the body is not a JSON object (the JSON protocol's own error). */
export const serializationError = (message: string, cause?: unknown) =>
  new SqsError('SerializationException', message, 400, 'SerializationException', { cause });

/** 500 InternalError: for the server's own faults only (e.g. the disk failed). */
export const internalError = (cause: unknown) =>
  new SqsError('InternalError', 'We encountered an internal error. Please try again.', 500, 'InternalError', {
    cause,
  });

/** A value quoted in a message, cut short so an error never echoes a megabyte back. */
const shown = (value: unknown): string => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
};
