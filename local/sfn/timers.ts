/** Longest delay `setTimeout` honours; Node fires anything longer at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Calls `fn` at epoch-ms `deadline`, however far away (a 7-day review timeout exceeds what one
 * `setTimeout` can hold). Returns a function that cancels it.
 */
export const atDeadline = (deadline: number, fn: () => void): (() => void) => {
  let handle: NodeJS.Timeout | undefined;
  const arm = (): void => {
    const left = deadline - Date.now();
    handle = left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(fn, Math.max(0, left));
  };
  arm();
  return () => clearTimeout(handle);
};

/** Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      cancel();
      reject(signal.reason);
    };
    const cancel = atDeadline(Date.now() + ms, () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Resolves on the next turn of the event loop, after every pending promise callback has run. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
