import { randomUUID } from 'node:crypto';
import { mapRunArn } from './distributedMap.js';
import type { RunOptions, StateMachine } from './engine.js';
import { type EngineEvent, historyFromEngine } from './engineHistory.js';
import type { ExecutionHost, RunnableMachine } from './executionHost.js';
import type { EventBody, ExecutionRecord } from './history.js';
import type { TaskSpec } from './prepareDefinition.js';
import { executionClosedError } from './taskFailures.js';
import { TaskRunner } from './taskRunner.js';
import type { CallbackTask } from './taskTokens.js';
import { nextTurn } from './timers.js';
import { runWait } from './waitState.js';

type EngineRun = ReturnType<StateMachine['run']>;

/**
 * One execution on aws-local-stepfunctions, with what the engine lacks: the context object
 * (`$$.Execution.*`, `$$.StateMachine.*`, a fresh `$$.Task.Token` per callback Task), Tasks run
 * by `TaskRunner` (Lambda handlers, timeouts, heartbeats, SendTask* callbacks), scaled Waits,
 * StopExecution, and an AWS-shaped history: state and execution events from the engine's log,
 * task events from the tasks themselves.
 */
export class RunningExecution {
  private readonly stopped = new AbortController();
  private readonly openTasks = new Set<CallbackTask>();
  private readonly tasks: TaskRunner;
  private readonly childTasks: TaskRunner;
  private pendingToken: string | undefined;
  private run: EngineRun | undefined;
  private closed = false;

  constructor(
    private readonly host: ExecutionHost,
    private readonly machine: RunnableMachine,
    readonly record: ExecutionRecord,
  ) {
    this.tasks = new TaskRunner(
      host,
      record.executionArn,
      this.stopped.signal,
      (body) => this.emit(body),
      this.openTasks,
    );
    this.childTasks = new TaskRunner(
      host,
      record.executionArn,
      this.stopped.signal,
      () => {},
      this.openTasks,
    );
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
   * `State.EnteredTime` is read the same way: Parameters are resolved as the state is entered.
   * (On AWS a Retry keeps the first entry's time; here a retried attempt reads its own.)
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
    const state = { EnteredTime: '' };
    Object.defineProperty(state, 'EnteredTime', {
      enumerable: true,
      get: () => new Date(this.host.clock.now()).toISOString(),
    });
    return {
      Execution: {
        Id: record.executionArn,
        Name: record.name,
        RoleArn: record.roleArn,
        StartTime: new Date(record.startDate).toISOString(),
        RedriveCount: record.redriveCount,
      },
      StateMachine: { Id: machine.arn, Name: machine.name },
      State: state,
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
    this.stopped.abort(executionClosedError());
    this.run?.abort();
  }

  /** Turns the engine's event log into state and execution history events. */
  private async follow(events: AsyncGenerator<EngineEvent>): Promise<void> {
    for await (const event of events) {
      if (this.closed) continue;
      for (const derived of historyFromEngine(event, this.machine.prepared, (map) => this.mapRunArn(map))) {
        if (derived.closes) this.finish(derived.body);
        else this.emit(derived.body);
      }
    }
  }

  /** The ARN of the current run of Distributed Map `map` (a new one each time it is entered). */
  private mapRunArn(map: string): string {
    const id = randomUUID();
    return mapRunArn(this.machine.arn, this.machine.prepared.distributedMaps.get(map) ?? map, id);
  }

  /** Runs a Task (or a Wait stood in by a Task) for the engine. */
  private async runState(name: string, input: unknown): Promise<unknown> {
    const token = this.pendingToken;
    this.pendingToken = undefined;
    // Let the history catch up with the StateEntered the engine has just queued, so the task's
    // own events follow it.
    await nextTurn();
    if (this.closed) throw executionClosedError();
    const wait = this.machine.prepared.waits.get(name);
    if (wait) return runWait(this.host, this.stopped.signal, wait, input);
    // A task inside a Distributed Map runs in a child execution on AWS: its events are not ours.
    const runner = this.machine.prepared.hiddenStates.has(name) ? this.childTasks : this.tasks;
    return runner.run(name, this.machine.prepared.tasks.get(name) as TaskSpec, input, token);
  }
}
