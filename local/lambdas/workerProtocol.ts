import type { Context } from 'aws-lambda';
import type { CallCount } from '../../lambdas/shared/callCount.js';
import type { LocalFunction } from './registry.js';

/*
 * The messages between the runtime's thread and a function worker thread. Events and results
 * cross as JSON text, as they cross the Lambda service: a handler gets what AWS would give it and
 * returns only what AWS would keep (no `undefined`, no class instances).
 */

/** The context fields a worker rebuilds the handler's `Context` from. */
export interface ContextFields {
  functionName: string;
  functionVersion: string;
  invokedFunctionArn: string;
  memoryLimitInMB: string;
  awsRequestId: string;
  logGroupName: string;
  logStreamName: string;
  /** `getRemainingTimeInMillis()` when the invocation was sent; the worker counts down from it. */
  remainingMs: number;
}

/** An error as it crosses threads: its name is what Step Functions matches Retry and Catch on. */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  /** The error's own enumerable properties that survive JSON (`retryable`, a status code...). */
  fields: Record<string, unknown>;
}

/** From the runtime's thread to a worker. */
export type ToWorker =
  | { kind: 'invoke'; id: number; name: LocalFunction; event: string; context: ContextFields }
  | { kind: 'counts'; id: number }
  | { kind: 'reset-counts'; id: number };

/** From a worker to the runtime's thread. */
export type FromWorker =
  | { kind: 'result'; id: number; payload: string }
  | { kind: 'error'; id: number; error: SerializedError }
  | { kind: 'counts'; id: number; counts: CallCount[] };

/** The fields of `context` a worker needs. */
export const contextFields = (context: Context): ContextFields => ({
  functionName: context.functionName,
  functionVersion: context.functionVersion,
  invokedFunctionArn: context.invokedFunctionArn,
  memoryLimitInMB: context.memoryLimitInMB,
  awsRequestId: context.awsRequestId,
  logGroupName: context.logGroupName,
  logStreamName: context.logStreamName,
  remainingMs: context.getRemainingTimeInMillis(),
});

/** The handler's `Context` in the worker, counting down from the time left when it was sent. */
export const contextFrom = (fields: ContextFields): Context => {
  const { remainingMs, ...rest } = fields;
  const deadline = Date.now() + remainingMs;
  const unsupported = (): never => {
    throw new Error('done/fail/succeed are not supported by the local runtime: return a promise.');
  };
  return {
    ...rest,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
};

/** What a handler threw, as data (a non-Error throw becomes an `Error` named by its type). */
export const serializeError = (error: unknown): SerializedError => {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  let fields: Record<string, unknown> = {};
  try {
    const { name: _name, message: _message, stack: _stack, ...own } = { ...error } as Record<string, unknown>;
    fields = JSON.parse(JSON.stringify(own)) as Record<string, unknown>;
  } catch {
    // A field JSON cannot hold (a cycle, a BigInt): the name and message still say what failed.
  }
  return { name: error.name, message: error.message, ...(error.stack && { stack: error.stack }), fields };
};

/** The error again, in the runtime's thread: same name, message, stack and plain fields. */
export const reviveError = (serialized: SerializedError): Error => {
  const error = new Error(serialized.message);
  Object.assign(error, serialized.fields);
  // `name` is an own property here, as on the class fields the handlers' errors declare.
  Object.defineProperty(error, 'name', { value: serialized.name, enumerable: false, writable: true });
  if (serialized.stack) error.stack = serialized.stack;
  return error;
};
