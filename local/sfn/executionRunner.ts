import { randomUUID } from 'node:crypto';
import type { HistoryEventType } from '@aws-sdk/client-sfn';
import type { RunOptions, StateMachine, TimeoutErrorClass } from './engine.js';
import { TaskFailure } from './errors.js';
import type { EventBody, ExecutionRecord } from './history.js';
import { type InvokeResult, invokeFunction, type LambdaRegistry } from './lambdaFunctions.js';
import type { PreparedDefinition, TaskSpec, WaitSpec } from './prepareDefinition.js';
import { type CallbackOutcome, CallbackTask, type TaskTokenRegistry } from './taskTokens.js';
import { atDeadline, nextTurn, sleep } from './timers.js';

/** Step Functions' cap on a state's input or output (256 KiB). */
const MAX_PAYLOAD_BYTES = 262_144;

/** Arguments of the `initialHeartbeatDeadline` hook. */
export interface HeartbeatDeadlineArgs {
  /** The waitForTaskToken Task being started. */
  readonly stateName: string;
  readonly executionArn: string;
  /** The Task's effective input (its resolved `Parameters`). */
  readonly input: unknown;
}

/** A registered state machine, ready to run. */
export interface RunnableMachine {
  readonly arn: string;
  readonly name: string;
  readonly engine: StateMachine;
  readonly prepared: PreparedDefinition;
}

/** What an execution needs from the service that runs it. */
export interface ExecutionHost {
  readonly region: string;
  readonly timeScale: number;
  readonly lambdas: LambdaRegistry;
  readonly tokens: TaskTokenRegistry;
  readonly timeoutError: TimeoutErrorClass;
  readonly initialHeartbeatDeadline?: (args: HeartbeatDeadlineArgs) => Promise<number | undefined>;
  /** Appends an event to the record's history (persisting it, updating the status). */
  append(record: ExecutionRecord, body: EventBody): void;
}

type EngineRun = ReturnType<StateMachine['run']>;
type EngineEvent = EngineRun['eventLogs'] extends AsyncGenerator<infer E> ? E : never;

const json = (value: unknown): string => JSON.stringify(value ?? null);

const causeText = (cause: unknown): string => {
  if (typeof cause === 'string') return cause;
  if (cause instanceof Error) return cause.message;
  return json(cause);
};

const LAMBDA_RESOURCE = { lambdaInvoke: 'invoke', lambdaInvokeCallback: 'invoke.waitForTaskToken' } as const;

const functionNotFound = (ref: unknown): TaskFailure =>
  new TaskFailure(
    'Lambda.ResourceNotFoundException',
    json({
      errorType: 'ResourceNotFoundException',
      errorMessage: `Function not found: ${String(ref)}. Register it with registerFunction() before starting executions.`,
    }),
  );

/** Thrown into the engine once an execution is stopped: neither retried nor caught. */
const closedError = (): TaskFailure =>
  new TaskFailure('States.Runtime', 'The execution was stopped; its remaining work is abandoned.', {
    terminal: true,
  });

/**
 * One execution on aws-local-stepfunctions, with what the engine lacks: the context object
 * (`$$.Execution.*`, `$$.StateMachine.*`, a fresh `$$.Task.Token` per callback Task), Lambda
 * resolution to in-process handlers, per-Task `TimeoutSeconds`, heartbeats, SendTask* callbacks,
 * scaled Waits, and an AWS-shaped history built from the engine's event log and the task events
 * recorded here.
 */
export class RunningExecution {
  private readonly stopped = new AbortController();
  private readonly openTasks = new Set<CallbackTask>();
  private pendingToken: string | undefined;
  private run: EngineRun | undefined;
  private closed = false;

  constructor(
    private readonly host: ExecutionHost,
    private readonly machine: RunnableMachine,
    readonly record: ExecutionRecord,
  ) {}

  /** Whether the execution has ended (or was detached) and records nothing more. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Starts the engine on `input`; the history already holds ExecutionStarted. */
  start(input: unknown): void {
    const { prepared } = this.machine;
    const handlers = Object.fromEntries(
      [...prepared.tasks.keys(), ...prepared.waits.keys()].map((name) => [
        name,
        (taskInput: unknown) => this.runState(name, taskInput),
      ]),
    );
    const options = {
      overrides: { taskResourceLocalHandlers: handlers },
      context: this.contextObject(),
      noThrowOnAbort: true,
    } as unknown as RunOptions;
    const run = this.machine.engine.run(input as never, options);
    this.run = run;
    // The outcome is read from the event log, which reports it before the promise settles.
    run.result.catch(() => {});
    void this.follow(run.eventLogs);
  }

  /** StopExecution: records ExecutionAborted and abandons the remaining work. */
  stop(error: string | undefined, cause: string | undefined): void {
    this.finish({
      type: 'ExecutionAborted',
      executionAbortedEventDetails: {
        ...(error !== undefined ? { error } : {}),
        ...(cause !== undefined ? { cause } : {}),
      },
    });
  }

  /** Abandons the execution without recording anything: the process is shutting down. */
  detach(): void {
    this.close();
  }

  /**
   * The context object. The engine copies it once per run and evaluates `$$` paths against the
   * copy, so `Task` is an object whose `Token` getter mints a token on demand; the Task handler
   * then claims it in the same synchronous step (the engine resolves Parameters and calls the
   * handler without yielding), so the token in the payload is the one the task waits on.
   */
  private contextObject(): object {
    const { record, machine } = this;
    const claimable = { Token: '' };
    Object.defineProperty(claimable, 'Token', {
      enumerable: true,
      get: () => {
        this.pendingToken ??= this.host.tokens.mint();
        return this.pendingToken;
      },
    });
    return {
      Execution: {
        Id: record.executionArn,
        Name: record.name,
        RoleArn: record.roleArn,
        StartTime: new Date(record.startDate).toISOString(),
        RedriveCount: 0,
      },
      StateMachine: { Id: machine.arn, Name: machine.name },
      Task: claimable,
    };
  }

  private emit(body: EventBody): void {
    if (!this.closed) this.host.append(this.record, body);
  }

  private finish(body: EventBody): void {
    if (this.closed) return;
    this.emit(body);
    this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const task of this.openTasks) task.settle({ kind: 'closed' }, 'its execution is no longer running');
    this.stopped.abort(closedError());
    this.run?.abort();
  }

  /** Turns the engine's event log into state and execution history events. */
  private async follow(events: AsyncGenerator<EngineEvent>): Promise<void> {
    for await (const event of events) {
      if (!this.closed) this.onEngineEvent(event);
    }
  }

  private stateType(name: string): string {
    return this.machine.prepared.stateTypes.get(name) ?? 'Pass';
  }

  private onEngineEvent(event: EngineEvent): void {
    switch (event.type) {
      case 'StateEntered':
        this.emit({
          type: `${this.stateType(event.state.name)}StateEntered` as HistoryEventType,
          stateEnteredEventDetails: {
            name: event.state.name,
            input: json(event.state.input),
            inputDetails: { truncated: false },
          },
        });
        return;
      case 'StateExited':
        if (this.stateType(event.state.name) === 'Fail') return;
        this.emit({
          type: `${this.stateType(event.state.name)}StateExited` as HistoryEventType,
          stateExitedEventDetails: {
            name: event.state.name,
            output: json(event.state.output),
            outputDetails: { truncated: false },
          },
        });
        return;
      case 'MapIterationStarted':
      case 'MapIterationSucceeded':
      case 'MapIterationFailed': {
        const key = `${event.type[0]?.toLowerCase()}${event.type.slice(1)}EventDetails`;
        this.emit({ type: event.type, [key]: { name: event.parentState.name, index: event.index } });
        return;
      }
      case 'ExecutionSucceeded':
        this.finish({
          type: 'ExecutionSucceeded',
          executionSucceededEventDetails: { output: json(event.output), outputDetails: { truncated: false } },
        });
        return;
      case 'ExecutionFailed':
        this.finish({
          type: 'ExecutionFailed',
          executionFailedEventDetails: { error: event.Error, cause: causeText(event.Cause) },
        });
        return;
      case 'ExecutionTimeout':
        this.finish({
          type: 'ExecutionTimedOut',
          executionTimedOutEventDetails: {
            error: 'States.Timeout',
            cause: 'The execution ran longer than the TimeoutSeconds of its state machine.',
          },
        });
        return;
      default:
        // ExecutionStarted is recorded at start, ExecutionAborted by stop(); the task events
        // (Lambda*, Task*) are recorded by the task itself, which knows more than the engine.
        return;
    }
  }

  /** Runs a Task (or a Wait stood in by a Task) for the engine. */
  private async runState(name: string, input: unknown): Promise<unknown> {
    const token = this.pendingToken;
    this.pendingToken = undefined;
    // Let the history catch up with the StateEntered the engine has just queued, so the task's
    // own events follow it.
    await nextTurn();
    if (this.closed) throw closedError();
    const wait = this.machine.prepared.waits.get(name);
    if (wait) return this.runWait(wait, input);
    const spec = this.machine.prepared.tasks.get(name) as TaskSpec;
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

  private async runWait(spec: WaitSpec, input: unknown): Promise<unknown> {
    const resolved = input as { input: unknown; seconds?: unknown; timestamp?: unknown };
    const seconds = resolved.seconds ?? spec.seconds;
    const timestamp = resolved.timestamp ?? spec.timestamp;
    let ms = 0;
    if (seconds !== undefined) {
      if (!Number.isInteger(seconds) || (seconds as number) < 0) {
        throw new TaskFailure(
          'States.Runtime',
          `Wait seconds must be a non-negative integer, got ${json(seconds)}.`,
          {
            terminal: true,
          },
        );
      }
      ms = (seconds as number) * 1000;
    } else if (timestamp !== undefined) {
      const at = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
      if (Number.isNaN(at)) {
        throw new TaskFailure('States.Runtime', `Wait timestamp must be RFC 3339, got ${json(timestamp)}.`, {
          terminal: true,
        });
      }
      ms = Math.max(0, at - Date.now());
    }
    await sleep(ms * this.host.timeScale, this.stopped.signal);
    return resolved.input;
  }

  /** Races `work` against the task deadline and StopExecution. */
  private async guard<T>(work: Promise<T>, deadline: number): Promise<{ value: T } | 'timeout'> {
    const signal = this.stopped.signal;
    let cancelTimer = (): void => {};
    let onStop = (): void => {};
    const timedOut = new Promise<'timeout'>((resolve) => {
      cancelTimer = atDeadline(deadline, () => resolve('timeout'));
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
    const deadline = Date.now() + spec.timeoutSeconds * 1000;
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
    const outcome = await this.guard(invokeFunction(fn, input, deadline), deadline);
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

  private taskEvents(spec: TaskSpec, input: unknown) {
    const resource = LAMBDA_RESOURCE[spec.kind as keyof typeof LAMBDA_RESOURCE];
    const base = { resourceType: 'lambda', resource };
    this.emit({
      type: 'TaskScheduled',
      taskScheduledEventDetails: {
        ...base,
        region: this.host.region,
        parameters: json(input),
        timeoutInSeconds: spec.timeoutSeconds,
        ...(spec.kind === 'lambdaInvokeCallback' && spec.heartbeatSeconds !== undefined
          ? { heartbeatInSeconds: spec.heartbeatSeconds }
          : {}),
      },
    });
    this.emit({ type: 'TaskStarted', taskStartedEventDetails: base });
    return {
      failed: (error: string, cause: string): TaskFailure => {
        this.emit({ type: 'TaskFailed', taskFailedEventDetails: { ...base, error, cause } });
        return new TaskFailure(error, cause);
      },
      timedOut: (error: string, cause: string): Error => {
        this.emit({ type: 'TaskTimedOut', taskTimedOutEventDetails: { ...base, error, cause } });
        return error === 'States.Timeout' ? this.timeoutError(cause) : new TaskFailure(error, cause);
      },
      submitted: (output: unknown): void =>
        this.emit({
          type: 'TaskSubmitted',
          taskSubmittedEventDetails: { ...base, output: json(output), outputDetails: { truncated: false } },
        }),
      succeeded: (output: unknown): void =>
        this.emit({
          type: 'TaskSucceeded',
          taskSucceededEventDetails: { ...base, output: json(output), outputDetails: { truncated: false } },
        }),
    };
  }

  private invokeResponse(payload: unknown): object {
    const requestId = randomUUID();
    return {
      ExecutedVersion: '$LATEST',
      Payload: payload,
      SdkHttpMetadata: {
        HttpHeaders: { 'Content-Type': 'application/json', 'X-Amz-Executed-Version': '$LATEST' },
        HttpStatusCode: 200,
      },
      SdkResponseMetadata: { RequestId: requestId },
      StatusCode: 200,
    };
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
    return { ref: params.FunctionName, result: invokeFunction(fn, params.Payload ?? {}, deadline) };
  }

  /** `arn:aws:states:::lambda:invoke`: the result is the Invoke response, payload in `Payload`. */
  private async runLambdaInvoke(spec: TaskSpec, input: unknown): Promise<unknown> {
    const events = this.taskEvents(spec, input);
    const deadline = Date.now() + spec.timeoutSeconds * 1000;
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
    const response = this.invokeResponse(outcome.value.payload);
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
      this.record.executionArn,
      name,
      spec.heartbeatSeconds,
    );
    this.host.tokens.register(task);
    this.openTasks.add(task);
    const events = this.taskEvents(spec, input);
    const deadline = Date.now() + spec.timeoutSeconds * 1000;
    const cancelTimeout = atDeadline(deadline, () =>
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
          events.submitted(this.invokeResponse(first.payload));
          task.armHeartbeat(await this.heartbeatDeadline(name, input));
        }
      }
      return this.settleCallback(await task.outcome, spec, events);
    } finally {
      cancelTimeout();
      this.openTasks.delete(task);
    }
  }

  private async heartbeatDeadline(stateName: string, input: unknown): Promise<number | undefined> {
    const hook = this.host.initialHeartbeatDeadline;
    if (!hook) return undefined;
    try {
      return await hook({ stateName, executionArn: this.record.executionArn, input });
    } catch (error) {
      process.emitWarning(
        `initialHeartbeatDeadline failed for ${this.record.executionArn} (${stateName}); using HeartbeatSeconds: ${String(error)}`,
      );
      return undefined;
    }
  }

  private settleCallback(
    outcome: CallbackOutcome,
    spec: TaskSpec,
    events: ReturnType<RunningExecution['taskEvents']>,
  ): unknown {
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
        throw closedError();
    }
  }

  private timeoutError(cause: string): Error {
    const error = new this.host.timeoutError();
    error.message = cause;
    return error;
  }
}
