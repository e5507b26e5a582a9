import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SerializationError, SfnApiError, UnknownOperationError, ValidationError } from './errors.js';
import type { LocalStepFunctions } from './localStepFunctions.js';
import { isOperation, OPERATION_NAMES, runOperation } from './sfnOperations.js';

/** A running endpoint. */
export interface SfnHttpServer {
  /** `http://127.0.0.1:{port}`: the value for `AWS_ENDPOINT_URL_SFN` or `--endpoint-url`. */
  readonly endpoint: string;
  readonly port: number;
  close(): Promise<void>;
}

const TARGET_PREFIX = 'AWSStepFunctions.';
const CONTENT_TYPE = 'application/x-amz-json-1.0';
const MAX_BODY_BYTES = 1_048_576;

/** AWS JSON 1.0 carries timestamps as epoch seconds. */
const toWire = (value: unknown): unknown => {
  if (value instanceof Date) return value.getTime() / 1000;
  if (Array.isArray(value)) return value.map(toWire);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, toWire(v)]),
    );
  }
  return value;
};

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ValidationError('The request body is larger than 1 MiB.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
};

const parseBody = (text: string): unknown => {
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new SerializationError(error instanceof Error ? error.message : String(error));
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SerializationError(`got ${Array.isArray(body) ? 'an array' : typeof body}`);
  }
  return body;
};

const send = (response: ServerResponse, status: number, body: unknown, errorType?: string): void => {
  const text = JSON.stringify(toWire(body));
  response.writeHead(status, {
    'content-type': CONTENT_TYPE,
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  response.end(text);
};

const handle = async (sfn: LocalStepFunctions, request: IncomingMessage, response: ServerResponse) => {
  try {
    if (request.method !== 'POST') {
      throw new UnknownOperationError(`${request.method} ${request.url}`, OPERATION_NAMES);
    }
    const header = request.headers['x-amz-target'];
    const target = Array.isArray(header) ? header[0] : header;
    const operation = target?.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : undefined;
    if (operation === undefined || !isOperation(operation))
      throw new UnknownOperationError(target, OPERATION_NAMES);
    const body = parseBody(await readBody(request));
    send(response, 200, await runOperation(sfn, operation, body));
  } catch (error) {
    if (error instanceof SfnApiError) {
      send(response, error.httpStatus, { __type: error.name, message: error.message }, error.name);
      return;
    }
    console.error('Local Step Functions endpoint: unexpected error', error);
    const message = error instanceof Error ? error.message : String(error);
    send(response, 500, { __type: 'InternalFailure', message }, 'InternalFailure');
  }
};

/**
 * Serves `sfn` as a Step Functions endpoint (AWS JSON 1.0: `POST /`,
 * `X-Amz-Target: AWSStepFunctions.<Operation>`), so `@aws-sdk/client-sfn` and the AWS CLI talk
 * to it unchanged. Binds 127.0.0.1; port 0 (the default) picks a free one.
 */
export const startSfnHttpServer = async (
  sfn: LocalStepFunctions,
  options: { port?: number } = {},
): Promise<SfnHttpServer> => {
  const server = createServer((request, response) => {
    void handle(sfn, request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
};
