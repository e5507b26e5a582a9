import type { Context } from 'aws-lambda';
import { lambdaContext } from './lambdaContext.js';

/** A Lambda handler as the in-process runtime sees it: any event in, a promise out. */
export type InProcessHandler = (event: unknown, context: Context) => Promise<unknown>;

/**
 * Invokes a handler module's `handler` in this process with a fresh Lambda context, as the
 * Lambda service would (middy handlers take an optional third argument, which is left out).
 */
export const invokeInProcess = async <T = unknown>(
  handler: unknown,
  functionName: string,
  event: unknown,
  options: { timeoutMs?: number } = {},
): Promise<T> => (handler as InProcessHandler)(event, lambdaContext(functionName, options)) as Promise<T>;
