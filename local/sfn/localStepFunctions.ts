import { randomUUID } from 'node:crypto';
import type {
  DescribeExecutionInput,
  DescribeExecutionOutput,
  DescribeStateMachineInput,
  DescribeStateMachineOutput,
  ExecutionStatus,
  GetExecutionHistoryInput,
  GetExecutionHistoryOutput,
  ListExecutionsInput,
  ListExecutionsOutput,
  ListStateMachinesInput,
  ListStateMachinesOutput,
  SendTaskFailureInput,
  SendTaskHeartbeatInput,
  SendTaskSuccessInput,
  StartExecutionInput,
  StartExecutionOutput,
  StopExecutionInput,
  StopExecutionOutput,
} from '@aws-sdk/client-sfn';
import {
  type AccountScope,
  executionArn,
  isValidResourceName,
  parseExecutionArn,
  parseStateMachineArn,
  stateMachineArn,
} from './arns.js';
import { engineTimeoutErrorClass, StateMachine, type TimeoutErrorClass } from './engine.js';
import {
  ExecutionAlreadyExistsError,
  ExecutionDoesNotExistError,
  ExecutionWaitTimedOutError,
  InvalidArnError,
  InvalidDefinitionError,
  InvalidExecutionInputError,
  InvalidNameError,
  InvalidOutputError,
  ServiceClosedError,
  StateMachineDoesNotExistError,
} from './errors.js';
import type { ExecutionHost, HeartbeatDeadlineArgs, RunnableMachine } from './executionHost.js';
import { RunningExecution } from './executionRunner.js';
import {
  applyEvent,
  closingStatus,
  describeRecord,
  type EventBody,
  type ExecutionRecord,
  listItem,
  newRecord,
  nextEvent,
  toHistoryEvent,
} from './history.js';
import { HistoryFile } from './historyFile.js';
import { type FunctionOptions, type LambdaHandler, LambdaRegistry } from './lambdaFunctions.js';
import { paginate } from './pagination.js';
import { prepareDefinition } from './prepareDefinition.js';
import { TaskTokenRegistry } from './taskTokens.js';
import { type Clock, systemClock } from './timers.js';

export type { HeartbeatDeadlineArgs } from './executionHost.js';

/** Options of the local Step Functions service. */
export interface LocalStepFunctionsOptions {
  /** Region in every ARN (default `us-east-1`). */
  region?: string;
  /** Account id in every ARN (default `123456789012`). */
  accountId?: string;
  /**
   * Directory for the execution history. It survives a restart; executions that were RUNNING
   * when the process died come back ABORTED. Without it, history lives in memory only.
   */
  dataDir?: string;
  /**
   * Multiplies Wait durations and Retry intervals (0.001 turns a 10 s backoff into 10 ms).
   * Heartbeats and Task timeouts are not scaled. Default 1.
   */
  timeScale?: number;
  /**
   * Consulted when a waitForTaskToken Task starts waiting (its Lambda has returned): an epoch-ms
   * deadline replaces now + HeartbeatSeconds for the first heartbeat window. How a runtime
   * re-arms a wait with its remaining time after a restart. `undefined` keeps the default.
   */
  initialHeartbeatDeadline?: (args: HeartbeatDeadlineArgs) => Promise<number | undefined>;
  /**
   * Tests only: where time comes from (default the system clock). A test gives a clock it moves
   * itself, so Waits, heartbeats and timeouts happen when it says rather than after real waiting.
   * The runtime never sets it: it has no behaviour AWS lacks.
   */
  clock?: Clock;
}

/** What a registered state machine is made of. */
export interface StateMachineRegistration {
  name: string;
  /** ASL, as an object or JSON text. */
  definition: object | string;
  /** Shown as the execution role; default `arn:aws:iam::{account}:role/{name}-role`. */
  roleArn?: string;
}

/** A change of an execution's status. */
export interface ExecutionStatusChange {
  readonly executionArn: string;
  readonly stateMachineArn: string;
  readonly status: ExecutionStatus;
}

/** A pending `waitForExecution`. */
interface Waiter {
  resolve(description: DescribeExecutionOutput): void;
  reject(error: Error): void;
}

interface RegisteredMachine extends RunnableMachine {
  readonly definitionText: string;
  readonly roleArn: string;
  readonly creationDate: Date;
}

/** Largest execution input and task output Step Functions accepts (256 KiB). */
const MAX_PAYLOAD_BYTES = 262_144;

/** Error of the ExecutionAborted event given to executions that a restart interrupted. */
export const RESTART_ERROR = 'LocalStepFunctions.Restarted';

const RESTART_CAUSE =
  'The local Step Functions runtime stopped while this execution was running; task tokens and timers ' +
  'were lost, so it was closed when the runtime started again. Start a new execution to resume the work.';

const parseJson = (text: string, fail: (detail: string) => Error): unknown => {
  if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) throw fail('larger than 256 KiB');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fail(error instanceof Error ? error.message : String(error));
  }
};

/** Definitions (as JSON text) already validated in this process. */
const validDefinitions = new Set<string>();

/**
 * Validates a definition as written (asl-validator: schema, ARNs, JSONPaths) through the engine's
 * constructor. That costs about 300 ms a call, so a definition is validated once per process.
 */
const validateDefinition = (definition: object): void => {
  const text = JSON.stringify(definition);
  if (validDefinitions.has(text)) return;
  try {
    new StateMachine(definition as never);
  } catch (error) {
    throw new InvalidDefinitionError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  validDefinitions.add(text);
};

/**
 * Step Functions on one machine: aws-local-stepfunctions runs the definitions, this class adds
 * what AWS has and the engine lacks (see `RunningExecution`) and answers the Step Functions API
 * operations with AWS's shapes and errors. Create it with `LocalStepFunctions.open()`.
 */
export class LocalStepFunctions {
  private readonly machines = new Map<string, RegisteredMachine>();
  private readonly records = new Map<string, ExecutionRecord>();
  private readonly running = new Map<string, RunningExecution>();
  private readonly listeners = new Set<(change: ExecutionStatusChange) => void>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly lambdas: LambdaRegistry;
  private readonly tokens = new TaskTokenRegistry();
  private readonly host: ExecutionHost;
  private readonly clock: Clock;

  private constructor(
    private readonly scope: AccountScope,
    options: LocalStepFunctionsOptions,
    timeoutError: TimeoutErrorClass,
    private readonly file: HistoryFile | undefined,
  ) {
    this.clock = options.clock ?? systemClock;
    this.lambdas = new LambdaRegistry(scope, this.clock);
    this.host = {
      region: scope.region,
      timeScale: options.timeScale ?? 1,
      clock: this.clock,
      lambdas: this.lambdas,
      tokens: this.tokens,
      timeoutError,
      ...(options.initialHeartbeatDeadline
        ? { initialHeartbeatDeadline: options.initialHeartbeatDeadline }
        : {}),
      append: (record, body) => this.append(record, body),
    };
  }

  /**
   * Opens the service: loads the history in `dataDir` (closing executions a restart interrupted
   * as ABORTED, error `LocalStepFunctions.Restarted`).
   */
  static async open(options: LocalStepFunctionsOptions = {}): Promise<LocalStepFunctions> {
    const timeScale = options.timeScale ?? 1;
    if (!(timeScale > 0 && Number.isFinite(timeScale))) {
      throw new RangeError(`timeScale must be a positive number; got ${timeScale}.`);
    }
    const scope = { region: options.region ?? 'us-east-1', accountId: options.accountId ?? '123456789012' };
    const loaded = options.dataDir === undefined ? undefined : HistoryFile.open(options.dataDir);
    const service = new LocalStepFunctions(scope, options, await engineTimeoutErrorClass(), loaded?.file);
    for (const record of loaded?.records ?? []) {
      service.records.set(record.executionArn, record);
      if (record.status === 'RUNNING') {
        service.append(record, {
          type: 'ExecutionAborted',
          executionAbortedEventDetails: { error: RESTART_ERROR, cause: RESTART_CAUSE },
        });
      }
    }
    return service;
  }

  /**
   * Registers a state machine (or replaces its definition) after validating it as AWS would;
   * returns its ARN. Throws `InvalidDefinitionError` for a definition the engine cannot run.
   */
  registerStateMachine(registration: StateMachineRegistration): string {
    const { name } = registration;
    if (!isValidResourceName(name)) throw new InvalidNameError(name);
    const definition =
      typeof registration.definition === 'string'
        ? (parseJson(
            registration.definition,
            (d) => new InvalidDefinitionError(`Definition is not JSON: ${d}`),
          ) as object)
        : registration.definition;
    validateDefinition(definition);
    const prepared = prepareDefinition(definition, { timeScale: this.host.timeScale });
    const arn = stateMachineArn(this.scope, name);
    this.machines.set(arn, {
      arn,
      name,
      prepared,
      engine: new StateMachine(prepared.engineDefinition, { validationOptions: { noValidate: true } }),
      definitionText:
        typeof registration.definition === 'string'
          ? registration.definition
          : JSON.stringify(definition, null, 2),
      roleArn: registration.roleArn ?? `arn:aws:iam::${this.scope.accountId}:role/${name}-role`,
      creationDate: this.machines.get(arn)?.creationDate ?? new Date(this.clock.now()),
    });
    return arn;
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
    const machine = this.machine(input.stateMachineArn);
    const name = input.name ?? randomUUID();
    if (!isValidResourceName(name)) throw new InvalidNameError(name);
    const text = input.input ?? '{}';
    const value = parseJson(text, (detail) => new InvalidExecutionInputError(detail));
    const arn = executionArn(this.scope, machine.name, name);
    const existing = this.records.get(arn);
    if (existing) {
      if (existing.status === 'RUNNING' && existing.input === text) {
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
    };
    const record = newRecord(identity);
    this.records.set(arn, record);
    this.file?.appendExecution(identity);
    this.append(record, {
      type: 'ExecutionStarted',
      executionStartedEventDetails: {
        input: text,
        inputDetails: { truncated: false },
        roleArn: machine.roleArn,
      },
    });
    this.notify(record);
    const execution = new RunningExecution(this.host, machine, record);
    this.running.set(arn, execution);
    execution.start(value);
    return { executionArn: arn, startDate: new Date(record.startDate) };
  }

  /** DescribeExecution. */
  describeExecution(input: DescribeExecutionInput): DescribeExecutionOutput {
    return describeRecord(this.record(input.executionArn));
  }

  /**
   * ListExecutions: most recent first (running ones by start date, closed ones by stop date),
   * optionally filtered by status, paginated.
   */
  listExecutions(input: ListExecutionsInput): ListExecutionsOutput {
    const arn = input.stateMachineArn ?? '';
    if (!parseStateMachineArn(arn)) throw new InvalidArnError(arn, 'a state machine ARN');
    const all = [...this.records.values()].filter((r) => r.stateMachineArn === arn);
    // Executions recorded before a restart stay listable until their machine is registered again.
    if (all.length === 0 && !this.machines.has(arn)) throw new StateMachineDoesNotExistError(arn);
    const sortKey = (r: ExecutionRecord): number =>
      r.status === 'RUNNING' ? r.startDate : (r.stopDate ?? r.startDate);
    const matching = all
      .filter((r) => input.statusFilter === undefined || r.status === input.statusFilter)
      .sort((a, b) => sortKey(b) - sortKey(a) || b.name.localeCompare(a.name));
    const scope = `executions:${arn}:${input.statusFilter ?? ''}`;
    const { page, nextToken } = paginate(matching, scope, input.maxResults, input.nextToken);
    return { executions: page.map(listItem), ...(nextToken ? { nextToken } : {}) };
  }

  /** GetExecutionHistory, oldest first unless `reverseOrder`, paginated. */
  getExecutionHistory(input: GetExecutionHistoryInput): GetExecutionHistoryOutput {
    const record = this.record(input.executionArn);
    const events = input.reverseOrder ? [...record.events].reverse() : record.events;
    const scope = `history:${record.executionArn}:${input.reverseOrder ? 'desc' : 'asc'}`;
    const { page, nextToken } = paginate(events, scope, input.maxResults, input.nextToken);
    const includeData = input.includeExecutionData ?? true;
    return { events: page.map((e) => toHistoryEvent(e, includeData)), ...(nextToken ? { nextToken } : {}) };
  }

  /** StopExecution: ABORTED with the given error and cause; a closed execution is left as it is. */
  stopExecution(input: StopExecutionInput): StopExecutionOutput {
    const record = this.record(input.executionArn);
    this.running.get(record.executionArn)?.stop(input.error, input.cause);
    return { stopDate: new Date(record.stopDate ?? this.clock.now()) };
  }

  /** SendTaskSuccess: the output (JSON text) becomes the Task's result. */
  sendTaskSuccess(input: SendTaskSuccessInput): Record<string, never> {
    const output = parseJson(input.output ?? '', (detail) => new InvalidOutputError(detail));
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
    const machine = this.machine(input.stateMachineArn);
    return {
      stateMachineArn: machine.arn,
      name: machine.name,
      status: 'ACTIVE',
      definition: machine.definitionText,
      roleArn: machine.roleArn,
      type: 'STANDARD',
      creationDate: machine.creationDate,
      loggingConfiguration: { level: 'OFF', includeExecutionData: false },
      tracingConfiguration: { enabled: false },
    };
  }

  /** ListStateMachines, by name. */
  listStateMachines(input: ListStateMachinesInput = {}): ListStateMachinesOutput {
    const all = [...this.machines.values()].sort((a, b) => a.name.localeCompare(b.name));
    const { page, nextToken } = paginate(all, 'stateMachines', input.maxResults, input.nextToken);
    return {
      stateMachines: page.map((m) => ({
        stateMachineArn: m.arn,
        name: m.name,
        type: 'STANDARD',
        creationDate: m.creationDate,
      })),
      ...(nextToken ? { nextToken } : {}),
    };
  }

  /** Calls `listener` on every status change (start, and the closing one). Returns an unsubscribe. */
  onExecutionStatusChange(listener: (change: ExecutionStatusChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
    const record = this.record(executionArn);
    if (record.status !== 'RUNNING') return Promise.resolve(describeRecord(record));
    return new Promise((resolve, reject) => {
      const waiters = this.waiters.get(executionArn) ?? new Set<Waiter>();
      this.waiters.set(executionArn, waiters);
      const timer =
        options.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              waiters.delete(waiter);
              reject(new ExecutionWaitTimedOutError(executionArn, options.timeoutMs ?? 0));
            }, options.timeoutMs);
      const waiter: Waiter = {
        resolve: (description) => {
          clearTimeout(timer);
          resolve(description);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      waiters.add(waiter);
    });
  }

  /**
   * Stops the service: running executions are abandoned without a closing event (the next
   * `open()` on the same `dataDir` marks them ABORTED), and the history is flushed and closed.
   */
  async close(): Promise<void> {
    for (const execution of this.running.values()) execution.detach();
    this.running.clear();
    for (const waiter of [...this.waiters.values()].flatMap((set) => [...set])) {
      waiter.reject(new ServiceClosedError());
    }
    this.waiters.clear();
    this.listeners.clear();
    this.file?.close();
  }

  private append(record: ExecutionRecord, body: EventBody): void {
    const event = nextEvent(record, body, this.clock.now());
    applyEvent(record, event);
    this.file?.appendEvent(record.executionArn, event);
    if (closingStatus(event.type)) {
      this.running.delete(record.executionArn);
      this.notify(record);
    }
  }

  private notify(record: ExecutionRecord): void {
    if (record.status !== 'RUNNING') {
      const waiters = this.waiters.get(record.executionArn);
      this.waiters.delete(record.executionArn);
      for (const waiter of waiters ?? []) waiter.resolve(describeRecord(record));
    }
    const change = {
      executionArn: record.executionArn,
      stateMachineArn: record.stateMachineArn,
      status: record.status,
    };
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        // A listener runs inside the engine's flow; its failure must not stop the execution.
        process.emitWarning(`An execution status listener threw: ${String(error)}`);
      }
    }
  }

  private machine(arn: string | undefined): RegisteredMachine {
    const value = arn ?? '';
    if (!parseStateMachineArn(value)) throw new InvalidArnError(value, 'a state machine ARN');
    const machine = this.machines.get(value);
    if (!machine) throw new StateMachineDoesNotExistError(value);
    return machine;
  }

  private record(arn: string | undefined): ExecutionRecord {
    const value = arn ?? '';
    if (!parseExecutionArn(value)) throw new InvalidArnError(value, 'an execution ARN');
    const record = this.records.get(value);
    if (!record) throw new ExecutionDoesNotExistError(value);
    return record;
  }
}
