import { json } from './engineHistory.js';
import type { ExecutionHost } from './executionHost.js';
import type { WaitSpec } from './prepareDefinition.js';
import { statesRuntime } from './taskFailures.js';
import { sleep } from './timers.js';

/**
 * A Wait state (run as a Task by the engine): sleeps the scaled time, returns the input. `signal`
 * aborts when the execution closes, which ends the sleep.
 */
export const runWait = async (
  host: ExecutionHost,
  signal: AbortSignal,
  spec: WaitSpec,
  input: unknown,
): Promise<unknown> => {
  const resolved = input as { input: unknown; seconds?: unknown; timestamp?: unknown };
  const seconds = resolved.seconds ?? spec.seconds;
  const timestamp = resolved.timestamp ?? spec.timestamp;
  let ms = 0;
  if (seconds !== undefined) {
    if (!Number.isInteger(seconds) || (seconds as number) < 0) {
      throw statesRuntime(`Wait seconds must be a non-negative integer, got ${json(seconds)}.`);
    }
    ms = (seconds as number) * 1000;
  } else if (timestamp !== undefined) {
    const at = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
    if (Number.isNaN(at)) {
      throw statesRuntime(`Wait timestamp must be RFC 3339, got ${json(timestamp)}.`);
    }
    ms = Math.max(0, at - host.clock.now());
  }
  await sleep(host.clock, ms * host.timeScale, signal);
  return resolved.input;
};
