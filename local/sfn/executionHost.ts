import type { StateMachine, TimeoutErrorClass } from './engine.js';
import type { EventBody, ExecutionRecord } from './history.js';
import type { LambdaRegistry } from './lambdaFunctions.js';
import type { PreparedDefinition } from './prepareDefinition.js';
import type { TaskTokenRegistry } from './taskTokens.js';
import type { Clock } from './timers.js';

/** A registered state machine, ready to run. */
export interface RunnableMachine {
  readonly arn: string;
  readonly name: string;
  readonly engine: StateMachine;
  readonly prepared: PreparedDefinition;
}

/**
 * What an execution and its tasks need from the service that runs them. A module of its own so
 * that the execution runner and the task runner both depend on it rather than on each other.
 */
export interface ExecutionHost {
  readonly region: string;
  readonly timeScale: number;
  /** Time for Waits, deadlines and heartbeats. */
  readonly clock: Clock;
  readonly lambdas: LambdaRegistry;
  readonly tokens: TaskTokenRegistry;
  readonly timeoutError: TimeoutErrorClass;
  /** Appends an event to the record's history (persisting it, updating the status). */
  append(record: ExecutionRecord, body: EventBody): void;
}
