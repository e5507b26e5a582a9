import { resolveSecondsPaths } from './dynamicTimeouts.js';
import { json } from './engineHistory.js';
import { TaskFailure } from './errors.js';
import type { ExecutionHost } from './executionHost.js';
import type { EventBody } from './history.js';
import { type InvokeResult, invokeFunction } from './lambdaFunctions.js';
import { MAX_PAYLOAD_BYTES } from './payload.js';
import type { TaskSpec } from './prepareDefinition.js';
import { invokeResponse, type TaskEvents, taskEvents } from './taskEvents.js';
import { executionClosedError, functionNotFound } from './taskFailures.js';
import { type CallbackOutcome, CallbackTask } from './taskTokens.js';
import { atDeadline } from './timers.js';

/**
 * Runs the Task states of one execution as AWS does: Lambda resolution to in-process handlers,
 * the Task's own `TimeoutSeconds`, the callback pattern with heartbeats, Lambda and Task history
 * events, and errors shaped for the state's Retry and Catch.
 */
export class TaskRunner {
  constructor(
    private readonly host: ExecutionHost,
    private readonly executionArn: string,
    /** Aborts when the execution closes: every wait and race ends with its reason. */
    private readonly signal: AbortSignal,
    private readonly emit: (body: EventBody) => void,
    /** Callback tasks still waiting, so closing the execution can close them. */
    private readonly openTasks: Set<CallbackTask>,
  ) {}

  /**
   * Runs Task `name`. `token` is the one `$$.Task.Token` minted while the engine resolved the
   * Task's Parameters, if it did. A `*SecondsPath` value arrives beside the effective input and
   * sets this run's timeout or heartbeat.
   */
  async run(name: string, declared: TaskSpec, wrapped: unknown, token: string | undefined): Promise<unknown> {
    const { input, ...seconds } = resolveSecondsPaths(name, declared.paths, wrapped);
    const spec: TaskSpec = { ...declared, ...seconds };
    const result = await (spec.kind === 'lambda'
      ? this.runLambda(spec, input)
      : spec.kind === 'lambdaInvoke'
        ? this.runLambdaInvoke(spec, input)
        : this.runCallback(name, spec, input, token));
    if (json(result).length > MAX_PAYLOAD_BYTES) {
      throw new TaskFailure(
        'States.DataLimitExceeded',
        `The result of state "${name}" exceeds 256 KiB; keep large data in S3 and pass its key.`,
        { terminal: true },
      );
    }
    return result;
  }

  /** Races `work` against the task deadline and StopExecution. */
  private async guard<T>(work: Promise<T>, deadline: number): Promise<{ value: T } | 'timeout'> {
    const signal = this.signal;
    let cancelTimer = (): void => {};
    let onStop = (): void => {};
    const timedOut = new Promise<'timeout'>((resolve) => {
      cancelTimer = atDeadline(this.host.clock, deadline, () => resolve('timeout'));
    });
    const stopped = new Promise<never>((_, reject) => {
      onStop = () => reject(signal.reason);
      if (signal.aborted) onStop();
      else signal.addEventListener('abort', onStop, { once: true });
    });
    try {
      return await Promise.race([work.then((value) => ({ value })), timedOut, stopped]);
    } finally {
      cancelTimer();
      signal.removeEventListener('abort', onStop);
    }
  }

  /** A Task whose Resource is a function ARN: history shows LambdaFunction* events. */
  private async runLambda(spec: TaskSpec, input: unknown): Promise<unknown> {
    const deadline = this.host.clock.now() + spec.timeoutSeconds * 1000;
    const fn = this.host.lambdas.resolve(spec.resource);
    if (!fn) {
      const error = functionNotFound(spec.resource);
      this.emit({
        type: 'LambdaFunctionScheduleFailed',
        lambdaFunctionScheduleFailedEventDetails: { error: error.name, cause: error.message },
      });
      throw error;
    }
    this.emit({
      type: 'LambdaFunctionScheduled',
      lambdaFunctionScheduledEventDetails: {
        resource: spec.resource,
        input: json(input),
        inputDetails: { truncated: false },
        timeoutInSeconds: spec.timeoutSeconds,
      },
    });
    this.emit({ type: 'LambdaFunctionStarted' });
    const outcome = await this.guard(invokeFunction(fn, input, deadline, this.host.clock), deadline);
    if (outcome === 'timeout') {
      const cause = `The Lambda function did not return within the task's TimeoutSeconds (${spec.timeoutSeconds} s).`;
      this.emit({
        type: 'LambdaFunctionTimedOut',
        lambdaFunctionTimedOutEventDetails: { error: 'States.Timeout', cause },
      });
      throw this.timeoutError(cause);
    }
    const result = outcome.value;
    if (!result.ok) {
      this.emit({
        type: 'LambdaFunctionFailed',
        lambdaFunctionFailedEventDetails: { error: result.error, cause: result.cause },
      });
      throw new TaskFailure(result.error, result.cause);
    }
    this.emit({
      type: 'LambdaFunctionSucceeded',
      lambdaFunctionSucceededEventDetails: {
        output: json(result.payload),
        outputDetails: { truncated: false },
      },
    });
    return result.payload;
  }

  private invocation(
    input: unknown,
    deadline: number,
  ): { ref: unknown; result: Promise<InvokeResult> } | undefined {
    const params = (typeof input === 'object' && input !== null ? input : {}) as {
      FunctionName?: unknown;
      Payload?: unknown;
    };
    const fn =
      typeof params.FunctionName === 'string' ? this.host.lambdas.resolve(params.FunctionName) : undefined;
    if (!fn) return undefined;
    return {
      ref: params.FunctionName,
      result: invokeFunction(fn, params.Payload ?? {}, deadline, this.host.clock),
    };
  }

  /** `arn:aws:states:::lambda:invoke`: the result is the Invoke response, payload in `Payload`. */
  private async runLambdaInvoke(spec: TaskSpec, input: unknown): Promise<unknown> {
    const events = taskEvents(
      { emit: this.emit, region: this.host.region, timeoutError: (cause) => this.timeoutError(cause) },
      spec,
      input,
    );
    const deadline = this.host.clock.now() + spec.timeoutSeconds * 1000;
    const invocation = this.invocation(input, deadline);
    if (!invocation) {
      const error = functionNotFound((input as { FunctionName?: unknown } | null)?.FunctionName);
      throw events.failed(error.name, error.message);
    }
    const outcome = await this.guard(invocation.result, deadline);
    if (outcome === 'timeout') {
      throw events.timedOut(
        'States.Timeout',
        `The task ran longer than its TimeoutSeconds (${spec.timeoutSeconds} s).`,
      );
    }
    if (!outcome.value.ok) throw events.failed(outcome.value.error, outcome.value.cause);
    const response = invokeResponse(outcome.value.payload);
    events.succeeded(response);
    return response;
  }

  /**
   * `lambda:invoke.waitForTaskToken`: invoke the function with the token in its payload, then
   * wait for SendTaskSuccess/SendTaskFailure, the heartbeat clock or `TimeoutSeconds`, whichever
   * comes first.
   */
  private async runCallback(name: string, spec: TaskSpec, input: unknown, claimed: string | undefined) {
    const task = new CallbackTask(
      claimed ?? this.host.tokens.mint(),
      this.executionArn,
      name,
      spec.heartbeatSeconds,
      this.host.clock,
    );
    this.host.tokens.register(task);
    this.openTasks.add(task);
    const events = taskEvents(
      { emit: this.emit, region: this.host.region, timeoutError: (cause) => this.timeoutError(cause) },
      spec,
      input,
    );
    const deadline = this.host.clock.now() + spec.timeoutSeconds * 1000;
    const cancelTimeout = atDeadline(this.host.clock, deadline, () =>
      task.settle({ kind: 'timedOut', error: 'States.Timeout' }, 'the task timed out'),
    );
    try {
      const invocation = this.invocation(input, deadline);
      if (!invocation) {
        const error = functionNotFound((input as { FunctionName?: unknown } | null)?.FunctionName);
        task.settle(
          { kind: 'failed', error: error.name, cause: error.message },
          'its Lambda function was not found',
        );
      } else {
        const first = await Promise.race([invocation.result, task.outcome.then(() => undefined)]);
        if (first && !first.ok) {
          task.settle(
            { kind: 'failed', error: first.error, cause: first.cause },
            'its Lambda invocation failed',
          );
        } else if (first?.ok) {
          events.submitted(invokeResponse(first.payload));
          task.armHeartbeat();
        }
      }
      return this.settleCallback(await task.outcome, spec, events);
    } finally {
      cancelTimeout();
      this.openTasks.delete(task);
    }
  }

  private settleCallback(outcome: CallbackOutcome, spec: TaskSpec, events: TaskEvents): unknown {
    switch (outcome.kind) {
      case 'succeeded':
        events.succeeded(outcome.output);
        return outcome.output;
      case 'failed':
        throw events.failed(outcome.error, outcome.cause);
      case 'timedOut':
        throw events.timedOut(
          outcome.error,
          outcome.error === 'States.HeartbeatTimeout'
            ? `No SendTaskHeartbeat, SendTaskSuccess or SendTaskFailure within HeartbeatSeconds (${spec.heartbeatSeconds} s).`
            : `The task ran longer than its TimeoutSeconds (${spec.timeoutSeconds} s).`,
        );
      case 'closed':
        throw executionClosedError();
    }
  }

  private timeoutError(cause: string): Error {
    const error = new this.host.timeoutError();
    error.message = cause;
    return error;
  }
}
