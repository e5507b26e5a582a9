import { setTimeout as sleepFor } from 'node:timers/promises';

/** How `retry` bounds and spaces its attempts. */
export interface RetryPolicy {
  /** Attempts in all, the first included; `Infinity` retries for as long as `retryOn` says so. */
  attempts: number;
  /** Pause in ms after failed attempt `attempt` (1-based) before the next; absent: none. */
  delayMs?: (attempt: number) => number;
  /** Whether an error is worth another attempt; absent: every error is. */
  retryOn?: (error: unknown) => boolean;
  /** How to wait `ms`; a test passes one that records instead of sleeping. */
  sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Runs `work` until it returns, retrying the errors `policy.retryOn` accepts with the pauses
 * `policy.delayMs` gives. After the last attempt, or on an error not worth retrying, the error
 * of the attempt that failed is thrown as it is. `work` is told which attempt it is (1-based).
 */
export const retry = async <T>(work: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (attempt >= policy.attempts || !(policy.retryOn?.(error) ?? true)) throw error;
      const pause = policy.delayMs?.(attempt) ?? 0;
      if (pause > 0) await (policy.sleep ?? sleepFor)(pause);
    }
  }
};

/** Pauses that double after each failure, from `firstMs`, never longer than `maxMs`. */
export const exponentialBackoff =
  (firstMs: number, maxMs = Number.POSITIVE_INFINITY) =>
  (attempt: number): number =>
    Math.min(maxMs, firstMs * 2 ** (attempt - 1));
