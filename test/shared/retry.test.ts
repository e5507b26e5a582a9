import { describe, expect, it } from 'vitest';
import { exponentialBackoff, retry } from '../../lambdas/shared/retry.js';

/** A sleep that records the pauses asked for and returns at once. */
const recordingSleep = () => {
  const pauses: number[] = [];
  return { pauses, sleep: async (ms: number) => void pauses.push(ms) };
};

describe('retry', () => {
  it('retries a failing call with the pauses its policy gives and returns the first success', async () => {
    // Prepare
    const { pauses, sleep } = recordingSleep();
    const seen: number[] = [];

    // Act
    const result = await retry(
      async (attempt) => {
        seen.push(attempt);
        if (attempt < 4) throw new Error(`failure ${attempt}`);
        return 'done';
      },
      { attempts: 5, delayMs: exponentialBackoff(200), sleep },
    );

    // Assess
    expect(result).toBe('done');
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(pauses).toEqual([200, 400, 800]);
  });

  it('throws the last error after the last attempt, without pausing after it', async () => {
    // Prepare
    const { pauses, sleep } = recordingSleep();

    // Act
    const outcome = retry(
      async (attempt) => {
        throw new Error(`failure ${attempt}`);
      },
      { attempts: 3, delayMs: () => 10, sleep },
    );

    // Assess
    await expect(outcome).rejects.toThrow('failure 3');
    expect(pauses).toEqual([10, 10]);
  });

  it('does not retry an error its policy refuses, and caps the backoff', async () => {
    // Prepare
    const { pauses, sleep } = recordingSleep();
    class Fatal extends Error {}
    let calls = 0;

    // Act
    const outcome = retry(
      async () => {
        calls += 1;
        throw calls < 3 ? new Error('again') : new Fatal('stop');
      },
      {
        attempts: Number.POSITIVE_INFINITY,
        delayMs: exponentialBackoff(600, 1000),
        retryOn: (e) => !(e instanceof Fatal),
        sleep,
      },
    );

    // Assess
    await expect(outcome).rejects.toBeInstanceOf(Fatal);
    expect(calls).toBe(3);
    expect(pauses).toEqual([600, 1000]);
  });
});
