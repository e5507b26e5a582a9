import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';

/**
 * How many invocations of one function may share this process. Setting
 * `AWS_LAMBDA_MAX_CONCURRENCY` is how Lambda itself tells Powertools that invocations run
 * concurrently in one execution environment (Lambda Managed Instances): Powertools then keeps each
 * invocation's log keys, metrics and trace segments in the invocation's own context.
 */
const MAX_CONCURRENCY = '64';

let ready: Promise<InvokeStoreBase> | undefined;

/**
 * Makes this process run handlers as a multi-concurrency Lambda environment does: the Lambda
 * `InvokeStore`, backed by AsyncLocalStorage, is created first, then the variable that tells
 * Powertools to use it is set. The local runtime runs many invocations in one process; without
 * this, `logger.appendKeys` of one invocation showed up on another's lines.
 */
export const enableInvocationScopes = (): Promise<InvokeStoreBase> => {
  ready ??= InvokeStore.getInstanceAsync(true).then((store) => {
    process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= MAX_CONCURRENCY;
    return store;
  });
  return ready;
};

/** Runs one invocation of a handler in a context of its own, as the Lambda runtime does. */
export const runInvocation = async <T>(context: Context, invoke: () => Promise<T>): Promise<T> => {
  const store = await enableInvocationScopes();
  return store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: context.awsRequestId }, invoke);
};
