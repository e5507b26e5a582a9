import { randomBytes, randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { type AccountScope, functionArn, functionNameOf } from './arns.js';
import { Semaphore } from './semaphore.js';
import type { Clock } from './timers.js';

/**
 * An in-process Lambda function: the same `(event, context) => Promise` a Lambda handler (or a
 * middy-wrapped one) exports. `event: never` lets handlers declare their own event type.
 */
export type LambdaHandler = (event: never, context: Context) => Promise<unknown>;

/** Settings AWS keeps on the function rather than in the state machine. */
export interface FunctionOptions {
  /** The function's own timeout; past it the invocation fails with `Sandbox.Timedout`. */
  timeoutSeconds?: number;
  /** Reported to the handler as `context.memoryLimitInMB`. */
  memorySizeMb?: number;
  /**
   * Invocations running at once; the rest wait their turn, and their timeout starts when they
   * run (as a throttled invocation on AWS is retried, not timed out). Unset: unlimited.
   */
  reservedConcurrency?: number;
}

/** A registered function. */
export interface LambdaFunction {
  readonly name: string;
  readonly arn: string;
  /** One stream per registration, as Lambda has one per execution environment. */
  readonly logStreamName: string;
  readonly handler: LambdaHandler;
  readonly options: FunctionOptions;
  /** Present when `options.reservedConcurrency` is set. */
  readonly slots?: Semaphore;
}

/** The outcome of one invocation, as Step Functions sees it. */
export type InvokeResult =
  | { readonly ok: true; readonly payload: unknown }
  | { readonly ok: false; readonly error: string; readonly cause: string };

const FULL_FUNCTION_ARN = /^(arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:[A-Za-z0-9_-]+)(?::[\w$-]+)?$/;

/** Lambda functions by name: any ARN, partial ARN or name of a registered function resolves to it. */
export class LambdaRegistry {
  private readonly functions = new Map<string, LambdaFunction>();

  constructor(
    private readonly scope: AccountScope,
    private readonly clock: Clock,
  ) {}

  /** Registers (or replaces) a function; returns its ARN. */
  register(nameOrArn: string, handler: LambdaHandler, options: FunctionOptions = {}): string {
    const name = functionNameOf(nameOrArn);
    if (!name) {
      throw new TypeError(
        `${JSON.stringify(nameOrArn)} is neither a Lambda function name nor a function ARN.`,
      );
    }
    const arn = FULL_FUNCTION_ARN.exec(nameOrArn)?.[1] ?? functionArn(this.scope, name);
    const day = new Date(this.clock.now()).toISOString().slice(0, 10).replaceAll('-', '/');
    const logStreamName = `${day}/[$LATEST]${randomBytes(16).toString('hex')}`;
    const slots =
      options.reservedConcurrency === undefined ? undefined : new Semaphore(options.reservedConcurrency);
    this.functions.set(name, { name, arn, logStreamName, handler, options, ...(slots && { slots }) });
    return arn;
  }

  /** The function a `Resource` or `FunctionName` refers to, if registered. */
  resolve(ref: string): LambdaFunction | undefined {
    const name = functionNameOf(ref);
    return name === undefined ? undefined : this.functions.get(name);
  }
}

/** The Lambda error payload AWS puts in `Cause`: `{"errorType","errorMessage","trace"}`. */
export const errorPayload = (
  error: unknown,
): { errorType: string; errorMessage: string; trace: string[] } => {
  if (error instanceof Error) {
    return { errorType: error.name, errorMessage: error.message, trace: error.stack?.split('\n') ?? [] };
  }
  return { errorType: 'Error', errorMessage: String(error), trace: [] };
};

const failure = (errorType: string, error: unknown): InvokeResult => {
  const payload = errorPayload(error);
  return { ok: false, error: errorType, cause: JSON.stringify({ ...payload, errorType }) };
};

/**
 * The `context` a handler gets, with the fields Powertools reads (request id, function name and
 * ARN, memory, remaining time until `deadline`, epoch ms).
 */
export const lambdaContext = (
  fn: Pick<LambdaFunction, 'name' | 'arn' | 'logStreamName'> & {
    options: Pick<FunctionOptions, 'memorySizeMb'>;
  },
  deadline: number,
  clock: Clock,
): Context => {
  const unsupported = (): never => {
    throw new Error('done/fail/succeed are not supported by the local runtime: return a promise.');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: fn.name,
    functionVersion: '$LATEST',
    invokedFunctionArn: fn.arn,
    memoryLimitInMB: String(fn.options.memorySizeMb ?? 128),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${fn.name}`,
    logStreamName: fn.logStreamName,
    getRemainingTimeInMillis: () => Math.max(0, deadline - clock.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
};

/**
 * Invokes `fn` in-process as Lambda would: a JSON copy of the event, a Lambda-like context whose
 * remaining time counts down to the earlier of the function timeout and `taskDeadline`, the
 * result passed through JSON, and a thrown error reported as `{error: name, cause: payload}`.
 */
export const invokeFunction = async (
  fn: LambdaFunction,
  event: unknown,
  taskDeadline: number,
  clock: Clock,
): Promise<InvokeResult> =>
  fn.slots
    ? fn.slots.run(() => invokeNow(fn, event, taskDeadline, clock))
    : invokeNow(fn, event, taskDeadline, clock);

const invokeNow = async (
  fn: LambdaFunction,
  event: unknown,
  taskDeadline: number,
  clock: Clock,
): Promise<InvokeResult> => {
  const functionDeadline =
    fn.options.timeoutSeconds === undefined
      ? Number.POSITIVE_INFINITY
      : clock.now() + fn.options.timeoutSeconds * 1000;
  const context = lambdaContext(fn, Math.min(functionDeadline, taskDeadline), clock);
  let cancelTimeout = (): void => {};
  const timedOut = new Promise<InvokeResult>((resolve) => {
    if (fn.options.timeoutSeconds === undefined) return;
    cancelTimeout = clock.setTimer(
      () =>
        resolve(
          failure(
            'Sandbox.Timedout',
            new Error(
              `RequestId: ${context.awsRequestId} Error: Task timed out after ${fn.options.timeoutSeconds} seconds`,
            ),
          ),
        ),
      fn.options.timeoutSeconds * 1000,
    );
  });
  const run = async (): Promise<InvokeResult> => {
    try {
      const result = await fn.handler(JSON.parse(JSON.stringify(event ?? null)) as never, context);
      return { ok: true, payload: JSON.parse(JSON.stringify(result ?? null)) };
    } catch (error) {
      return failure(error instanceof Error ? error.name : 'Error', error);
    }
  };
  try {
    return await Promise.race([run(), timedOut]);
  } finally {
    cancelTimeout();
  }
};
