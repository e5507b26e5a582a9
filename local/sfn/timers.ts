/**
 * Where the local Step Functions takes time from: the current time, and timers for Wait states,
 * task deadlines, heartbeats and Lambda function timeouts. The runtime always uses `systemClock`;
 * only tests give `LocalStepFunctions.open()` another one, to move time on instead of waiting.
 */
export interface Clock {
  /** Epoch ms. */
  now(): number;
  /** Calls `fn` once `ms` have passed; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

/** The machine's clock: `Date.now()` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    return () => clearTimeout(handle);
  },
};

/** Longest delay `setTimeout` honours; Node fires anything longer at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Calls `fn` at epoch-ms `deadline` on `clock`, however far away (a 7-day review timeout exceeds
 * what one `setTimeout` can hold). Returns a function that cancels it.
 */
export const atDeadline = (clock: Clock, deadline: number, fn: () => void): (() => void) => {
  let cancel = (): void => {};
  const arm = (): void => {
    const left = deadline - clock.now();
    cancel = left > MAX_TIMER_MS ? clock.setTimer(arm, MAX_TIMER_MS) : clock.setTimer(fn, Math.max(0, left));
  };
  arm();
  return () => cancel();
};

/** Resolves after `ms` on `clock`, or rejects with the signal's reason as soon as `signal` aborts. */
export const sleep = (clock: Clock, ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      cancel();
      reject(signal.reason);
    };
    const cancel = atDeadline(clock, clock.now() + ms, () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Resolves on the next turn of the event loop, after every pending promise callback has run. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
