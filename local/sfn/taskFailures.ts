import { TaskFailure } from './errors.js';

/*
 * The failures the local runtime itself raises into a Task (the engine's Retry and Catch see them
 * as AWS would raise them), as opposed to a handler's own errors.
 */

/** A Task's function is not registered: the failure Lambda reports for an unknown function. */
export const functionNotFound = (ref: unknown): TaskFailure =>
  new TaskFailure(
    'Lambda.ResourceNotFoundException',
    JSON.stringify({
      errorType: 'ResourceNotFoundException',
      errorMessage: `Function not found: ${String(ref)}. Register it with registerFunction() before starting executions.`,
    }),
  );

/** A `States.Runtime` failure: it ends the execution, no Retry or Catch applies. */
export const statesRuntime = (message: string): TaskFailure =>
  new TaskFailure('States.Runtime', message, { terminal: true });

/** Thrown into the engine once an execution is stopped: neither retried nor caught. */
export const executionClosedError = (): TaskFailure =>
  statesRuntime('The execution was stopped; its remaining work is abandoned.');
