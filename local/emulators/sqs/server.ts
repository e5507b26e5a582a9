import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenLocally, readBoundedBody, sendJson } from '../httpFront.js';
import type { Action, ActionContext } from './context.js';
import {
  internalError,
  invalidParameter,
  SqsError,
  serializationError,
  unsupportedOperation,
} from './errors.js';
import {
  changeMessageVisibility,
  changeMessageVisibilityBatch,
  deleteMessage,
  deleteMessageBatch,
  receiveMessage,
  sendMessage,
  sendMessageBatch,
} from './messageActions.js';
import { isObject, Params } from './params.js';
import { createQueue, getQueueAttributes, getQueueUrl, listQueues, purgeQueue } from './queueActions.js';

/** The actions served, by their X-Amz-Target name. */
const ACTIONS: Readonly<Record<string, Action>> = {
  CreateQueue: createQueue,
  GetQueueUrl: getQueueUrl,
  GetQueueAttributes: getQueueAttributes,
  ListQueues: listQueues,
  PurgeQueue: purgeQueue,
  SendMessage: sendMessage,
  SendMessageBatch: sendMessageBatch,
  ReceiveMessage: receiveMessage,
  DeleteMessage: deleteMessage,
  DeleteMessageBatch: deleteMessageBatch,
  ChangeMessageVisibility: changeMessageVisibility,
  ChangeMessageVisibilityBatch: changeMessageVisibilityBatch,
};

/**
 * The largest request body read. A 1 MiB message can take twice its size once JSON escapes its
 * quotes, plus the envelope; anything bigger is refused with a 400 before it is parsed.
 */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

const JSON_CONTENT_TYPE = 'application/x-amz-json-1.0';

const send = (res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) =>
  sendJson(res, status, body, JSON_CONTENT_TYPE, headers);

const sendError = (res: ServerResponse, error: SqsError, requestId: string) =>
  send(res, error.status, error.body(), {
    'x-amzn-requestid': requestId,
    // The SDK (awsQueryCompatible) reads the modeled error from this header first.
    'x-amzn-query-error': `${error.queryCode};${error.status < 500 ? 'Sender' : 'Receiver'}`,
  });

/** Reads the body up to MAX_REQUEST_BYTES; past it the client, still writing, gets the 400. */
const readBody = (req: IncomingMessage): Promise<Buffer> =>
  readBoundedBody(req, MAX_REQUEST_BYTES, () =>
    invalidParameter('Request', `The request body is over ${MAX_REQUEST_BYTES} bytes.`),
  );

/** Parses a JSON 1.0 request: POST, the JSON content type, a known target, an object body. */
const parse = async (req: IncomingMessage): Promise<{ action: Action; params: Params }> => {
  const body = await readBody(req);
  if (req.method !== 'POST')
    throw unsupportedOperation(`The local SQS answers POST only, not ${req.method}.`);
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== JSON_CONTENT_TYPE)
    throw unsupportedOperation(
      `The local SQS speaks the AWS JSON 1.0 protocol only (content-type ${JSON_CONTENT_TYPE}), as @aws-sdk/client-sqs v3 and AWS CLI v2 do; not ${type || 'no content type'}.`,
    );
  const target = String(req.headers['x-amz-target'] ?? '');
  const name = target.startsWith('AmazonSQS.') ? target.slice('AmazonSQS.'.length) : '';
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (!action)
    throw unsupportedOperation(
      `The action ${JSON.stringify(target.slice(0, 80))} is not served by the local SQS; it serves ${Object.keys(ACTIONS).join(', ')}.`,
    );
  let input: unknown = {};
  if (body.length > 0) {
    try {
      input = JSON.parse(body.toString('utf8'));
    } catch (error) {
      throw serializationError('The request body is not valid JSON.', error);
    }
  }
  if (!isObject(input)) throw serializationError('The request body must be a JSON object.');
  return { action, params: new Params(input) };
};

/** How the HTTP front is set up. */
export interface SqsFrontOptions {
  port: number;
  context: Omit<ActionContext, 'signal'>;
  /** Called with an error the front did not expect (it answers 500 and carries on). */
  onInternalError: (error: unknown) => void;
}

const handle = async (options: SqsFrontOptions, req: IncomingMessage, res: ServerResponse) => {
  const requestId = randomUUID();
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  try {
    const { action, params } = await parse(req);
    const answer = await action({ ...options.context, signal: gone.signal }, params);
    send(res, 200, answer, { 'x-amzn-requestid': requestId });
  } catch (error) {
    if (error instanceof SqsError) return sendError(res, error, requestId);
    const code = (error as NodeJS.ErrnoException).code;
    // A client that went away mid-body is no server fault.
    if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') return void res.destroy();
    options.onInternalError(error);
    sendError(res, internalError(error), requestId);
  }
};

/** Starts the HTTP front on 127.0.0.1 and resolves once it listens. */
export const startSqsFront = async (options: SqsFrontOptions) => {
  const server: Server = createServer((req, res) => void handle(options, req, res));
  return listenLocally(server, options.port);
};
