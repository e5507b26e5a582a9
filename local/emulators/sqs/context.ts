import { batchError, queueDoesNotExist, SqsError } from './errors.js';
import type { JsonObject, Params } from './params.js';
import type { Queue } from './queue.js';
import type { QueueStore } from './store.js';

/** What every action sees: the store, how queue URLs are spelled, and the request's abort signal. */
export interface ActionContext {
  store: QueueStore;
  accountId: string;
  queueUrl(name: string): string;
  /** Aborted when the client goes away (a long poll then ends without taking anything). */
  signal: AbortSignal;
}

/** One action: validated parameters in, the JSON answer out. */
export type Action = (ctx: ActionContext, params: Params) => Promise<JsonObject>;

const invalidAddress = (url: string, cause?: unknown) =>
  new SqsError(
    'InvalidAddress',
    `The address ${url.slice(0, 80)} is not valid for this endpoint.`,
    404,
    'InvalidAddress',
    {
      cause,
    },
  );

/**
 * The queue a QueueUrl names. Any host is taken (the SDK may send an AWS-style URL): the path
 * must be `/{account}/{name}`. A URL that is not one is InvalidAddress, an unknown name
 * QueueDoesNotExist.
 */
export const queueOf = (ctx: ActionContext, params: Params): Queue => {
  const url = params.string('QueueUrl');
  let path: string[];
  try {
    path = new URL(url).pathname.split('/').filter(Boolean);
  } catch (error) {
    throw new SqsError(
      'InvalidAddress',
      `The address ${url.slice(0, 80)} is not valid for this endpoint.`,
      404,
      'InvalidAddress',
      {
        cause: error,
      },
    );
  }
  if (path.length !== 2)
    throw new SqsError(
      'InvalidAddress',
      `The address ${url.slice(0, 80)} is not valid for this endpoint.`,
      404,
    );
  let name: string;
  try {
    name = decodeURIComponent(path[1] as string);
  } catch (error) {
    throw invalidAddress(url, error);
  }
  const queue = ctx.store.queues.get(name);
  if (!queue) throw queueDoesNotExist();
  return queue;
};

const BATCH_ID = /^[A-Za-z0-9_-]{1,80}$/;

/**
 * The batch checks every batch action makes before any entry: not empty, at most ten, each Id
 * well formed and distinct.
 */
export const checkBatch = (entries: JsonObject[] | undefined): JsonObject[] => {
  if (!entries || entries.length === 0)
    throw batchError('EmptyBatchRequest', 'There should be at least one entry in the request.');
  if (entries.length > 10)
    throw batchError(
      'TooManyEntriesInBatchRequest',
      `Maximum number of entries per request are 10. You have sent ${entries.length}.`,
    );
  const ids = new Set<string>();
  for (const entry of entries) {
    const id = entry.Id;
    if (typeof id !== 'string' || !BATCH_ID.test(id))
      throw batchError(
        'InvalidBatchEntryId',
        'A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.',
      );
    if (ids.has(id)) throw batchError('BatchEntryIdsNotDistinct', `Id ${id} repeated.`);
    ids.add(id);
  }
  return entries;
};

/** A batch entry's failure, as AWS lists it under Failed. */
export const failedEntry = (id: string, error: unknown) => {
  if (!(error instanceof SqsError)) throw error;
  return { Id: id, SenderFault: error.status < 500, Code: error.code, Message: error.message };
};
