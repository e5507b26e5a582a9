import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/**
 * A Lambda `Context` for a function invoked in-process, with the fields Powertools reads
 * (request id, function name and ARN, memory, remaining time).
 */
export const lambdaContext = (
  functionName: string,
  options: { region?: string; account?: string; timeoutMs?: number; memoryMb?: number } = {},
): Context => {
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  const region = options.region ?? 'us-east-1';
  const account = options.account ?? '000000000000';
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:${account}:function:${functionName}`,
    memoryLimitInMB: String(options.memoryMb ?? 1024),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};
