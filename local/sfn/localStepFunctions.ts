import { randomUUID } from 'node:crypto';
import type {
  DescribeExecutionInput,
  DescribeExecutionOutput,
  DescribeStateMachineInput,
  DescribeStateMachineOutput,
  GetExecutionHistoryInput,
  GetExecutionHistoryOutput,
  ListExecutionsInput,
  ListExecutionsOutput,
  ListStateMachinesInput,
  ListStateMachinesOutput,
  RedriveExecutionInput,
  RedriveExecutionOutput,
  SendTaskFailureInput,
  SendTaskHeartbeatInput,
  SendTaskSuccessInput,
  StartExecutionInput,
  StartExecutionOutput,
  StopExecutionInput,
  StopExecutionOutput,
} from '@aws-sdk/client-sfn';
import { type AccountScope, executionArn, isValidResourceName, parseExecutionArn } from './arns.js';
import { engineTimeoutErrorClass, type TimeoutErrorClass } from './engine.js';
import {
  ExecutionAlreadyExistsError,
  ExecutionDoesNotExistError,
  ExecutionNotRedrivableError,
  InvalidArnError,
  InvalidExecutionInputError,
  InvalidNameError,
  InvalidOutputError,
} from './errors.js';
import type { ExecutionHost } from './executionHost.js';
import { executionHistory, listExecutions } from './executionQueries.js';
import { RunningExecution } from './executionRunner.js';
import { ExecutionStore, type ExecutionStoreStats } from './executionStore.js';
import { type ExecutionStatusChange, ExecutionWatchers } from './executionWatchers.js';
import {
  applyEvent,
  closingStatus,
  describeRecord,
  type EventBody,
  type ExecutionRecord,
  newRecord,
  nextEvent,
} from './history.js';
import { type FunctionOptions, type LambdaHandler, LambdaRegistry } from './lambdaFunctions.js';
import { parsePayload } from './payload.js';
import { redrivePoint, redriveVerdict } from './redrive.js';
import type { LocalStepFunctionsOptions } from './serviceOptions.js';
import { type StateMachineRegistration, StateMachines } from './stateMachines.js';
import { TaskTokenRegistry } from './taskTokens.js';
import { type Clock, systemClock } from './timers.js';

export type { ExecutionStatusChange } from './executionWatchers.js';
export type { LocalStepFunctionsOptions } from './serviceOptions.js';
export type { StateMachineRegistration } from './stateMachines.js';

/** Error of the ExecutionAborted event given to executions that a restart interrupted. */
export const RESTART_ERROR = 'LocalStepFunctions.Restarted';

const RESTART_CAUSE =
  'The local Step Functions runtime stopped while this execution was running; task tokens and timers ' +
  'were lost, so it was closed when the runtime started again. Start a new execution to resume the work.';

/**
 * Step Functions on one machine: aws-local-stepfunctions runs the definitions, this class adds
 * what AWS has and the engine lacks (see `RunningExecution`) and answers the Step Functions API
 * operations with AWS's shapes and errors. Create it with `LocalStepFunctions.open()`.
 */
export class LocalStepFunctions {
  private readonly machines: StateMachines;
  private readonly running = new Map<string, RunningExecution>();
  private readonly watchers = new ExecutionWatchers((record) => this.describe(record));
  private readonly lambdas: LambdaRegistry;
  private readonly tokens = new TaskTokenRegistry();
  private readonly host: ExecutionHost;
  private readonly clock: Clock;

  private constructor(
    private readonly scope: AccountScope,
    options: LocalStepFunctionsOptions,
    timeoutError: TimeoutErrorClass,
    private readonly executions: ExecutionStore,
  ) {
    this.clock = options.clock ?? systemClock;
    this.machines = new StateMachines(scope, options.timeScale ?? 1, () => this.clock.now());
    this.lambdas = new LambdaRegistry(scope, this.clock);
    this.host = {
      region: scope.region,
      timeScale: options.timeScale ?? 1,
      clock: this.clock,
      lambdas: this.lambdas,
      tokens: this.tokens,
      timeoutError,
      append: (record, body) => this.append(record, body),
    };
  }

  /**
   * Opens the service: replays the journal in `dataDir` (closing executions a restart interrupted
   * as ABORTED, error `LocalStepFunctions.Restarted`), then compacts what it replayed, so a start
   * reads only what happened since the last one (see `ExecutionStore`).
   */
  static async open(options: LocalStepFunctionsOptions = {}): Promise<LocalStepFunctions> {
    const timeScale = options.timeScale ?? 1;
    if (!(timeScale > 0 && Number.isFinite(timeScale))) {
      throw new RangeError(`timeScale must be a positive number; got ${timeScale}.`);
    }
    const scope = { region: options.region ?? 'us-east-1', accountId: options.accountId ?? '123456789012' };
    const { store, replayed } = ExecutionStore.open(options.dataDir);
    const service = new LocalStepFunctions(scope, options, await engineTimeoutErrorClass(), store);
    for (const record of replayed) {
      if (record.status === 'RUNNING') {
        service.append(record, {
          type: 'ExecutionAborted',
          executionAbortedEventDetails: { error: RESTART_ERROR, cause: RESTART_CAUSE },
        });
      }
    }
    store.compact();
    return service;
  }

  /**
   * Registers a state machine (or replaces its definition) after validating it as AWS would;
   * returns its ARN. Throws `InvalidDefinitionError` for a definition the engine cannot run.
   */
  registerStateMachine(registration: StateMachineRegistration): string {
    return this.machines.register(registration);
  }

  /**
   * Registers an in-process Lambda function under a name or ARN; Task states that name it (as
   * `Resource` or `Parameters.FunctionName`) invoke it. Returns its ARN.
   */
  registerFunction(nameOrArn: string, handler: LambdaHandler, options?: FunctionOptions): string {
    return this.lambdas.register(nameOrArn, handler, options);
  }

  /** StartExecution. Idempotent for a RUNNING execution with the same name and input. */
  startExecution(input: StartExecutionInput): StartExecutionOutput {
    const machine = this.machines.get(input.stateMachineArn);
    const name = input.name ?? randomUUID();
    if (!isValidResourceName(name)) throw new InvalidNameError(name);
    const text = input.input ?? '{}';
    const value = parsePayload(text, (detail) => new InvalidExecutionInputError(detail));
    const arn = executionArn(this.scope, machine.name, name);
    if (this.executions.has(arn)) {
      const existing = this.executions.liveRecord(arn);
      if (existing?.status === 'RUNNING' && existing.input === text) {
        return { executionArn: arn, startDate: new Date(existing.startDate) };
      }
      throw new ExecutionAlreadyExistsError(arn);
    }
    const identity = {
      executionArn: arn,
      stateMachineArn: machine.arn,
      name,
      input: text,
      startDate: this.clock.now(),
      roleArn: machine.roleArn,
      definitionDigest: machine.digest,
    };
    const record = newRecord(identity);
    this.executions.add(record, identity);
    this.append(record, {
      type: 'ExecutionStarted',
      executionStartedEventDetails: {
        input: text,
        inputDetails: { truncated: false },
        roleArn: machine.roleArn,
      },
    });
    this.watchers.notify(record);
    const execution = new RunningExecution(this.host, machine, record);
    this.running.set(arn, execution);
    execution.start(value);
    return { executionArn: arn, startDate: new Date(record.startDate) };
  }

  /** DescribeExecution. */
  describeExecution(input: DescribeExecutionInput): DescribeExecutionOutput {
    return this.describe(this.record(input.executionArn));
  }

  /**
   * RedriveExecution: a FAILED, ABORTED or TIMED_OUT execution (closed less than 14 days ago)
   * runs again under its own ARN from the top-level state it did not finish, with the input that
   * state was entered with; the states it finished are not run again. Anything else is
   * `ExecutionNotRedrivable` with the reason DescribeExecution gives.
   */
  redriveExecution(input: RedriveExecutionInput): RedriveExecutionOutput {
    // Live: a redrive appends to its history, which the journal must hold whole for a restart.
    const record = this.record(input.executionArn, { live: true });
    // The SDK sends a client token with each call and the same one on its retries: a retry of
    // the redrive that started this run gets the same answer, not "RUNNING".
    if (
      input.clientToken !== undefined &&
      record.status === 'RUNNING' &&
      record.redriveToken === input.clientToken
    ) {
      return { redriveDate: new Date(record.redriveDate ?? this.clock.now()) };
    }
    const machine = this.machines.get(record.stateMachineArn);
    const verdict = redriveVerdict(record, this.clock.now(), machine.digest);
    if (verdict.status !== 'REDRIVABLE') {
      throw new ExecutionNotRedrivableError(record.executionArn, verdict.reason ?? '');
    }
    const states = machine.prepared.engineDefinition.States;
    const point = redrivePoint(
      record,
      new Set(Object.keys(states)),
      machine.prepared.engineDefinition.StartAt,
    );
    const value = parsePayload(point.input, (detail) => new InvalidExecutionInputError(detail));
    this.append(record, {
      type: 'ExecutionRedriven',
      executionRedrivenEventDetails: { redriveCount: record.redriveCount + 1 },
    });
    record.redriveToken = input.clientToken;
    this.watchers.notify(record);
    const execution = new RunningExecution(this.host, this.machines.startingAt(machine, point.state), record);
    this.running.set(record.executionArn, execution);
    execution.start(value);
    return { redriveDate: new Date(record.redriveDate ?? this.clock.now()) };
  }

  /**
   * ListExecutions: most recent first (running ones by start date, closed ones by stop date),
   * optionally filtered by status, paginated.
   */
  listExecutions(input: ListExecutionsInput): ListExecutionsOutput {
    return listExecutions(this.executions.summaries(), (arn) => this.machines.has(arn), input);
  }

  /** GetExecutionHistory, oldest first unless `reverseOrder`, paginated. */
  getExecutionHistory(input: GetExecutionHistoryInput): GetExecutionHistoryOutput {
    return executionHistory(this.record(input.executionArn), input);
  }

  /** StopExecution: ABORTED with the given error and cause; a closed execution is left as it is. */
  stopExecution(input: StopExecutionInput): StopExecutionOutput {
    const record = this.record(input.executionArn);
    this.running.get(record.executionArn)?.stop(input.error, input.cause);
    return { stopDate: new Date(record.stopDate ?? this.clock.now()) };
  }

  /** SendTaskSuccess: the output (JSON text) becomes the Task's result. */
  sendTaskSuccess(input: SendTaskSuccessInput): Record<string, never> {
    const output = parsePayload(input.output ?? '', (detail) => new InvalidOutputError(detail));
    this.tokens.succeed(input.taskToken ?? '', output);
    return {};
  }

  /** SendTaskFailure: the Task fails with `error` and `cause`, which its Retry and Catch see. */
  sendTaskFailure(input: SendTaskFailureInput): Record<string, never> {
    this.tokens.fail(input.taskToken ?? '', input.error ?? '', input.cause ?? '');
    return {};
  }

  /** SendTaskHeartbeat: restarts the Task's heartbeat clock. */
  sendTaskHeartbeat(input: SendTaskHeartbeatInput): Record<string, never> {
    this.tokens.heartbeat(input.taskToken ?? '');
    return {};
  }

  /** DescribeStateMachine. */
  describeStateMachine(input: DescribeStateMachineInput): DescribeStateMachineOutput {
    return this.machines.describe(input.stateMachineArn);
  }

  /** ListStateMachines, by name. */
  listStateMachines(input: ListStateMachinesInput = {}): ListStateMachinesOutput {
    return this.machines.list(input);
  }

  /** Calls `listener` on every status change (start, and the closing one). Returns an unsubscribe. */
  onExecutionStatusChange(listener: (change: ExecutionStatusChange) => void): () => void {
    return this.watchers.onChange(listener);
  }

  /**
   * Resolves with the description once the execution is closed (at once if it is). Rejects with
   * `ExecutionWaitTimedOutError` after `timeoutMs` (real milliseconds, whatever the service's
   * clock), leaving the execution running, and with `ServiceClosedError` if the service closes first.
   */
  waitForExecution(
    executionArn: string,
    options: { timeoutMs?: number } = {},
  ): Promise<DescribeExecutionOutput> {
    return this.watchers.waitFor(this.record(executionArn), options.timeoutMs);
  }

  /**
   * What the execution store has read from disk since it opened (journal replay, compacted
   * index, histories read back): lets a test check that a start reads no closed history.
   */
  storageStats(): ExecutionStoreStats {
    return this.executions.stats();
  }

  /**
   * Stops the service: running executions are abandoned without a closing event (the next
   * `open()` on the same `dataDir` marks them ABORTED), closed ones are compacted, and the
   * journal is flushed and closed.
   */
  async close(): Promise<void> {
    for (const execution of this.running.values()) execution.detach();
    this.running.clear();
    this.watchers.close();
    this.executions.close();
  }

  private append(record: ExecutionRecord, body: EventBody): void {
    const event = nextEvent(record, body, this.clock.now());
    applyEvent(record, event);
    this.executions.appendEvent(record.executionArn, event);
    if (closingStatus(event.type)) {
      this.running.delete(record.executionArn);
      this.watchers.notify(record);
    }
  }

  private describe(record: ExecutionRecord): DescribeExecutionOutput {
    const machine = this.machines.has(record.stateMachineArn)
      ? this.machines.get(record.stateMachineArn)
      : undefined;
    return describeRecord(record, redriveVerdict(record, this.clock.now(), machine?.digest));
  }

  private record(arn: string | undefined, options: { live?: boolean } = {}): ExecutionRecord {
    const value = arn ?? '';
    if (!parseExecutionArn(value)) throw new InvalidArnError(value, 'an execution ARN');
    const record = options.live ? this.executions.getLive(value) : this.executions.get(value);
    if (!record) throw new ExecutionDoesNotExistError(value);
    return record;
  }
}
