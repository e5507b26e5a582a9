import type { Context } from 'aws-lambda';
import { lambdaContext, systemClock } from '../sfn/index.js';
import { runInvocation } from './invocationScope.js';

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
  options: { timeoutMs?: number; memorySizeMb?: number } = {},
): Promise<T> => {
  const context = lambdaContext(
    {
      name: functionName,
      arn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
      logStreamName: 'local',
      options: { memorySizeMb: options.memorySizeMb ?? 1024 },
    },
    Date.now() + (options.timeoutMs ?? 300_000),
    systemClock,
  );
  return runInvocation(context, () => (handler as InProcessHandler)(event, context) as Promise<T>);
};
