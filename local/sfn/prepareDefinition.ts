import { isDistributedMap, refuseUnsupported, wrapItemProcessor, wrapperNames } from './distributedMap.js';
import { type SecondsPaths, secondsPaths, wrapSecondsPaths } from './dynamicTimeouts.js';
import type { StateMachineDefinition } from './engine.js';
import { InvalidDefinitionError } from './errors.js';

/** How a Task state reaches its Lambda function. */
export type TaskKind = 'lambda' | 'lambdaInvoke' | 'lambdaInvokeCallback';

/** What the wrapper needs to run one Task state the way AWS does. */
export interface TaskSpec {
  readonly kind: TaskKind;
  /** `Resource` as written in the definition. */
  readonly resource: string;
  /** `TimeoutSeconds`, or the AWS default when absent (a `TimeoutSecondsPath` replaces it per run). */
  readonly timeoutSeconds: number;
  /** `HeartbeatSeconds`; only callback tasks enforce it. */
  readonly heartbeatSeconds?: number;
  /** `TimeoutSecondsPath` and `HeartbeatSecondsPath`, resolved when the state is entered. */
  readonly paths: SecondsPaths;
}

/** A Wait state's duration source; the path variants arrive resolved in the task input. */
export interface WaitSpec {
  readonly seconds?: number;
  readonly timestamp?: string;
}

/** A definition rewritten for the engine, with what the wrapper needs to know about its states. */
export interface PreparedDefinition {
  readonly engineDefinition: StateMachineDefinition;
  /** Original `Type` of every state (nested ones too; ASL state names are unique per machine). */
  readonly stateTypes: ReadonlyMap<string, string>;
  readonly tasks: ReadonlyMap<string, TaskSpec>;
  readonly waits: ReadonlyMap<string, WaitSpec>;
  /**
   * Distributed Map states by name, with their label: their items run as child executions on
   * AWS, so the states inside them (in `hiddenStates`) stay out of the parent's history.
   */
  readonly distributedMaps: ReadonlyMap<string, string>;
  readonly hiddenStates: ReadonlySet<string>;
}

/** Resource given to the Task that stands in for a Wait state; never leaves the engine. */
export const WAIT_RESOURCE = 'arn:aws:states:::local:wait';

/** AWS's `TimeoutSeconds` when a Task has none (the ASL spec's 60 s is not what AWS does). */
export const AWS_DEFAULT_TASK_TIMEOUT_SECONDS = 99_999_999;

/**
 * The engine races every Task against its own timer, which Node cannot arm beyond 2^31-1 ms
 * (it fires at once instead). The wrapper enforces the real timeouts; the engine gets this.
 */
export const ENGINE_TIMER_CAP_SECONDS = 2_147_483;

const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';
const LAMBDA_INVOKE_CALLBACK = 'arn:aws:states:::lambda:invoke.waitForTaskToken';
const LAMBDA_FUNCTION_ARN =
  /^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:[A-Za-z0-9_-]+(:[A-Za-z0-9_$-]+)?$/;
const UNSUPPORTED_TASK_FIELDS = ['Credentials'];

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const taskKind = (resource: unknown, stateName: string): TaskKind => {
  if (resource === LAMBDA_INVOKE) return 'lambdaInvoke';
  if (resource === LAMBDA_INVOKE_CALLBACK) return 'lambdaInvokeCallback';
  if (typeof resource === 'string' && LAMBDA_FUNCTION_ARN.test(resource)) return 'lambda';
  throw new InvalidDefinitionError(
    `Task "${stateName}" uses Resource ${JSON.stringify(resource)}; the local engine runs Lambda ` +
      `functions only: a function ARN, ${LAMBDA_INVOKE} or ${LAMBDA_INVOKE_CALLBACK}.`,
  );
};

/**
 * aws-local-stepfunctions 3.0.0 applies `ResultPath: "$"` by adding a key named "$" instead of
 * replacing the input with the result. An absent ResultPath means the same as "$" in ASL and the
 * engine gets that one right, so the field is dropped (on the state and on its catchers).
 */
const rootResultPaths = (state: Json): Json => {
  if (state.ResultPath === '$') delete state.ResultPath;
  if (Array.isArray(state.Catch)) {
    state.Catch = state.Catch.map((catcher: unknown) => {
      if (!isObject(catcher) || catcher.ResultPath !== '$') return catcher;
      const { ResultPath: _, ...rest } = catcher;
      return rest;
    });
  }
  return state;
};

class Preparer {
  readonly stateTypes = new Map<string, string>();
  readonly tasks = new Map<string, TaskSpec>();
  readonly waits = new Map<string, WaitSpec>();
  readonly distributedMaps = new Map<string, string>();
  readonly hiddenStates = new Set<string>();
  /** How many Distributed Maps the state being prepared is inside. */
  private distributedDepth = 0;

  constructor(private readonly timeScale: number) {}

  machine(definition: Json, where: string): Json {
    if (definition.QueryLanguage === 'JSONata') {
      throw new InvalidDefinitionError(
        `${where} uses JSONata; the local engine runs JSONPath definitions only.`,
      );
    }
    if (!isObject(definition.States)) {
      throw new InvalidDefinitionError(`${where} has no States object.`);
    }
    const states: Json = {};
    for (const [name, state] of Object.entries(definition.States)) {
      if (!isObject(state)) throw new InvalidDefinitionError(`State "${name}" is not an object.`);
      states[name] = this.state(name, state);
    }
    return { ...definition, States: states };
  }

  private state(name: string, state: Json): Json {
    if (state.QueryLanguage === 'JSONata') {
      throw new InvalidDefinitionError(`State "${name}" uses JSONata; the local engine runs JSONPath only.`);
    }
    this.stateTypes.set(name, String(state.Type));
    if (this.distributedDepth > 0) this.hiddenStates.add(name);
    const scaled = rootResultPaths({ ...state });
    if (Array.isArray(state.Retry)) scaled.Retry = state.Retry.map((r) => this.retrier(r));
    switch (state.Type) {
      case 'Task':
        return this.task(name, scaled);
      case 'Wait':
        return this.wait(name, scaled);
      case 'Parallel':
        return {
          ...scaled,
          Branches: (Array.isArray(state.Branches) ? state.Branches : []).map((b, i) =>
            this.machine(isObject(b) ? b : {}, `Branch ${i} of "${name}"`),
          ),
        };
      case 'Map': {
        if (isDistributedMap(state)) return this.distributedMap(name, scaled);
        const key = isObject(state.ItemProcessor) ? 'ItemProcessor' : 'Iterator';
        const inner = state[key];
        return { ...scaled, [key]: this.machine(isObject(inner) ? inner : {}, `The ${key} of "${name}"`) };
      }
      default:
        return scaled;
    }
  }

  /** A Distributed Map over an item list: see distributedMap.ts. */
  private distributedMap(name: string, state: Json): Json {
    refuseUnsupported(name, state);
    this.distributedMaps.set(name, typeof state.Label === 'string' ? state.Label : name);
    this.distributedDepth += 1;
    const processor = this.machine(state.ItemProcessor as Json, `The ItemProcessor of "${name}"`);
    this.distributedDepth -= 1;
    const wrappers = wrapperNames(name);
    this.stateTypes.set(wrappers.item, 'Parallel');
    this.stateTypes.set(wrappers.failed, 'Fail');
    this.hiddenStates.add(wrappers.item).add(wrappers.failed);
    const { Label: _, ...rest } = state;
    return { ...rest, ItemProcessor: wrapItemProcessor(name, processor) };
  }

  /** Retry pauses shrink with the time scale so tests can run a backoff schedule quickly. */
  private retrier(retrier: unknown): unknown {
    if (!isObject(retrier) || this.timeScale === 1) return retrier;
    const interval = typeof retrier.IntervalSeconds === 'number' ? retrier.IntervalSeconds : 1;
    const scaled: Json = { ...retrier, IntervalSeconds: interval * this.timeScale };
    if (typeof retrier.MaxDelaySeconds === 'number')
      scaled.MaxDelaySeconds = retrier.MaxDelaySeconds * this.timeScale;
    return scaled;
  }

  private task(name: string, state: Json): Json {
    const unsupported = UNSUPPORTED_TASK_FIELDS.filter((f) => f in state);
    if (unsupported.length > 0) {
      throw new InvalidDefinitionError(
        `Task "${name}" uses ${unsupported.join(', ')}, which the local engine does not implement.`,
      );
    }
    const kind = taskKind(state.Resource, name);
    const paths = secondsPaths(state, name);
    const timeoutSeconds =
      typeof state.TimeoutSeconds === 'number' ? state.TimeoutSeconds : AWS_DEFAULT_TASK_TIMEOUT_SECONDS;
    this.tasks.set(name, {
      kind,
      resource: String(state.Resource),
      timeoutSeconds,
      ...(typeof state.HeartbeatSeconds === 'number' ? { heartbeatSeconds: state.HeartbeatSeconds } : {}),
      paths,
    });
    return { ...wrapSecondsPaths(state, paths), TimeoutSeconds: ENGINE_TIMER_CAP_SECONDS };
  }

  /**
   * The engine can only override a Wait with a fixed number of milliseconds per run, and a
   * `SecondsPath` is known only when the state is reached. So a Wait becomes a Task whose
   * Parameters let the engine resolve the path; the wrapper then sleeps for the scaled time and
   * returns the input unchanged. History still shows a Wait state.
   */
  private wait(name: string, state: Json): Json {
    const parameters: Json = { 'input.$': '$' };
    if (typeof state.SecondsPath === 'string') parameters['seconds.$'] = state.SecondsPath;
    if (typeof state.TimestampPath === 'string') parameters['timestamp.$'] = state.TimestampPath;
    this.waits.set(name, {
      ...(typeof state.Seconds === 'number' ? { seconds: state.Seconds } : {}),
      ...(typeof state.Timestamp === 'string' ? { timestamp: state.Timestamp } : {}),
    });
    const task: Json = {
      Type: 'Task',
      Resource: WAIT_RESOURCE,
      Parameters: parameters,
      TimeoutSeconds: ENGINE_TIMER_CAP_SECONDS,
    };
    for (const key of ['Comment', 'InputPath', 'OutputPath', 'Next', 'End']) {
      if (key in state) task[key] = state[key];
    }
    return task;
  }
}

/**
 * Rewrites a (validated) definition for aws-local-stepfunctions: Task timeouts handed to the
 * wrapper, Wait states made scalable, Retry intervals scaled by `timeScale`. Throws
 * `InvalidDefinitionError` for what the engine cannot run faithfully (non-Lambda resources,
 * JSONata). `*SecondsPath` timeouts are wrapped into the Parameters (see dynamicTimeouts.ts).
 */
export const prepareDefinition = (definition: object, options: { timeScale: number }): PreparedDefinition => {
  const preparer = new Preparer(options.timeScale);
  const root = preparer.machine(definition as Json, 'The definition');
  // The engine arms the execution timeout with one setTimeout, which fires at once past the cap.
  if (typeof root.TimeoutSeconds === 'number' && root.TimeoutSeconds > ENGINE_TIMER_CAP_SECONDS) {
    throw new InvalidDefinitionError(
      `TimeoutSeconds ${root.TimeoutSeconds} exceeds what the local engine can time (${ENGINE_TIMER_CAP_SECONDS} s, ` +
        'about 24.8 days); use a shorter execution timeout locally.',
    );
  }
  const engineDefinition = root as unknown as StateMachineDefinition;
  return {
    engineDefinition,
    stateTypes: preparer.stateTypes,
    tasks: preparer.tasks,
    waits: preparer.waits,
    distributedMaps: preparer.distributedMaps,
    hiddenStates: preparer.hiddenStates,
  };
};
