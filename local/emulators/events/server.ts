import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocally, readBoundedBody, sendJson } from '../httpFront.js';
import {
  EventBridgeError,
  internalError,
  requestTooLarge,
  serializationError,
  unknownOperation,
} from './errors.js';
import type { EventSink, SinkRecord } from './sink.js';
import { checkPutEvents } from './validate.js';

/**
 * The largest request body read: ten entries of 256 KiB in all can take twice that once JSON
 * escapes their quotes, plus the envelope. Past it the answer is 413, before anything is parsed.
 */
export const MAX_REQUEST_BYTES = 1024 * 1024;

const JSON_CONTENT_TYPE = 'application/x-amz-json-1.1';

/** What the front serves PutEvents with. */
export interface EventsFrontOptions {
  port: number;
  sink: EventSink;
  region: string;
  accountId: string;
  /** The bus names that exist (`default` and the stack's own). */
  buses: ReadonlySet<string>;
  now: () => Date;
  /** Called with an error the front did not expect (it answers 500 and carries on). */
  onInternalError: (error: unknown) => void;
}

const send = (res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) =>
  sendJson(res, status, body, JSON_CONTENT_TYPE, headers);

/** Reads the body; past MAX_REQUEST_BYTES the rest is drained so the client gets the 413. */
const readBody = (req: IncomingMessage): Promise<Buffer> =>
  readBoundedBody(req, MAX_REQUEST_BYTES, () => requestTooLarge(MAX_REQUEST_BYTES));

/** Checks the envelope of an AWS JSON 1.1 request: POST, the content type, PutEvents, an object. */
const parse = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  const body = await readBody(req);
  if (req.method !== 'POST')
    throw unknownOperation(`The local EventBridge answers POST only, not ${req.method}.`);
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== JSON_CONTENT_TYPE)
    throw serializationError(
      `The local EventBridge speaks AWS JSON 1.1 (content-type ${JSON_CONTENT_TYPE}), as @aws-sdk/client-eventbridge does; not ${type || 'no content type'}.`,
    );
  const target = String(req.headers['x-amz-target'] ?? '');
  if (target !== 'AWSEvents.PutEvents')
    throw unknownOperation(
      `The action ${JSON.stringify(target.slice(0, 80))} is not served by the local EventBridge; it serves AWSEvents.PutEvents.`,
    );
  let input: unknown;
  try {
    input = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw serializationError('The request body is not valid JSON.', error);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw serializationError('The request body must be a JSON object.');
  return input as Record<string, unknown>;
};

/** EventBridge's `time`: UTC to the second. */
const eventTime = (time: Date) => `${time.toISOString().slice(0, 19)}Z`;

/** PutEvents: keeps every accepted entry in the sink (on disk before the answer), refuses the rest. */
const putEvents = async (options: EventsFrontOptions, input: Record<string, unknown>) => {
  const results = checkPutEvents(input, options.buses, options.now);
  const receivedAt = options.now().toISOString();
  const records: SinkRecord[] = [];
  const entries = results.map((result) => {
    if (!result.ok) return { ErrorCode: result.errorCode, ErrorMessage: result.errorMessage };
    const { entry } = result;
    const id = randomUUID();
    records.push({
      receivedAt,
      bus: entry.bus,
      event: {
        version: '0',
        id,
        'detail-type': entry.detailType,
        source: entry.source,
        account: options.accountId,
        time: eventTime(entry.time),
        region: options.region,
        resources: entry.resources,
        detail: entry.detail,
      },
    });
    return { EventId: id };
  });
  try {
    await options.sink.append(records);
  } catch (error) {
    throw internalError(error);
  }
  return { FailedEntryCount: results.filter((r) => !r.ok).length, Entries: entries };
};

const handle = async (options: EventsFrontOptions, req: IncomingMessage, res: ServerResponse) => {
  const requestId = randomUUID();
  try {
    const answer = await putEvents(options, await parse(req));
    send(res, 200, answer, { 'x-amzn-requestid': requestId });
  } catch (error) {
    if (error instanceof EventBridgeError) {
      if (error.status >= 500) options.onInternalError(error.cause ?? error);
      return send(res, error.status, error.body(), {
        'x-amzn-requestid': requestId,
        'x-amzn-errortype': error.code,
      });
    }
    const code = (error as NodeJS.ErrnoException).code;
    // A client that went away mid-body is no server fault.
    if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') return void res.destroy();
    options.onInternalError(error);
    const fault = internalError(error);
    send(res, fault.status, fault.body(), { 'x-amzn-requestid': requestId, 'x-amzn-errortype': fault.code });
  }
};

/** Starts the HTTP front on 127.0.0.1 and resolves once it listens. */
export const startEventsFront = (options: EventsFrontOptions) =>
  listenLocally(
    createServer((req, res) => void handle(options, req, res)),
    options.port,
  );
