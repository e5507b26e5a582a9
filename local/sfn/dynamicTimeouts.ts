import { InvalidDefinitionError } from './errors.js';
import { statesRuntime } from './taskFailures.js';

/*
 * `TimeoutSecondsPath` and `HeartbeatSecondsPath`: a Task's timeouts read from its state input
 * with a reference path when the state is entered. The engine cannot do it (it reads
 * TimeoutSecondsPath from the input after Parameters, and ignores HeartbeatSecondsPath), so the
 * Task's Parameters are wrapped: the engine resolves the paths beside the Task's own effective
 * input, and the task runner takes the wrapper apart again before the Task runs.
 */

/** The `*SecondsPath` fields of one Task, as written in the definition. */
export interface SecondsPaths {
  readonly timeout?: string;
  readonly heartbeat?: string;
}

const KEY = { input: 'effectiveInput', timeout: 'timeoutSeconds', heartbeat: 'heartbeatSeconds' } as const;

type Json = Record<string, unknown>;

const pathField = (state: Json, field: string, fixed: string, stateName: string): string | undefined => {
  const path = state[field];
  if (path === undefined) return undefined;
  if (typeof path !== 'string' || !path.startsWith('$')) {
    throw new InvalidDefinitionError(`Task "${stateName}" has ${field} ${JSON.stringify(path)}: not a path.`);
  }
  if (state[fixed] !== undefined) {
    throw new InvalidDefinitionError(`Task "${stateName}" sets both ${fixed} and ${field}; use one.`);
  }
  return path;
};

/** The Task's `*SecondsPath` fields, checked as AWS checks them when a definition is created. */
export const secondsPaths = (state: Json, stateName: string): SecondsPaths => {
  const timeout = pathField(state, 'TimeoutSecondsPath', 'TimeoutSeconds', stateName);
  const heartbeat = pathField(state, 'HeartbeatSecondsPath', 'HeartbeatSeconds', stateName);
  return { ...(timeout && { timeout }), ...(heartbeat && { heartbeat }) };
};

/**
 * The Task state the engine runs: the path fields removed and its Parameters wrapped so that the
 * engine resolves each path against the state input (after InputPath, as every reference path of
 * the state is), next to the Parameters it resolves as usual. A path that selects nothing fails
 * the engine's resolution with States.Runtime, as on AWS.
 */
export const wrapSecondsPaths = (state: Json, paths: SecondsPaths): Json => {
  const { TimeoutSecondsPath: _t, HeartbeatSecondsPath: _h, ...rest } = state;
  if (!paths.timeout && !paths.heartbeat) return rest;
  const wrapped: Json =
    state.Parameters === undefined ? { [`${KEY.input}.$`]: '$' } : { [KEY.input]: state.Parameters };
  if (paths.timeout) wrapped[`${KEY.timeout}.$`] = paths.timeout;
  if (paths.heartbeat) wrapped[`${KEY.heartbeat}.$`] = paths.heartbeat;
  return { ...rest, Parameters: wrapped };
};

const positiveSeconds = (value: unknown, field: string, path: string, stateName: string): number => {
  // AWS takes a positive integer and nothing else: 0, a fraction or a numeric string is a
  // States.Runtime failure of the execution, which no Retry or Catch sees.
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw statesRuntime(
    `The value of ${field} (${path}) of state "${stateName}" is ${JSON.stringify(value)}; ` +
      'it must be a positive integer.',
  );
};

/**
 * Takes a wrapped Task input apart: the Task's effective input and its timeouts for this run.
 * Throws a States.Runtime failure when a path selected anything but a positive integer.
 */
export const resolveSecondsPaths = (
  stateName: string,
  paths: SecondsPaths,
  input: unknown,
): { input: unknown; timeoutSeconds?: number; heartbeatSeconds?: number } => {
  if (!paths.timeout && !paths.heartbeat) return { input };
  const wrapped = (input ?? {}) as Json;
  return {
    input: wrapped[KEY.input],
    ...(paths.timeout && {
      timeoutSeconds: positiveSeconds(wrapped[KEY.timeout], 'TimeoutSecondsPath', paths.timeout, stateName),
    }),
    ...(paths.heartbeat && {
      heartbeatSeconds: positiveSeconds(
        wrapped[KEY.heartbeat],
        'HeartbeatSecondsPath',
        paths.heartbeat,
        stateName,
      ),
    }),
  };
};
