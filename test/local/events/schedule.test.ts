import { describe, expect, it } from 'vitest';
import { runOnSchedule } from '../../../local/events/schedule.js';

/** A function that counts its runs and finishes each only when the test lets it. */
const heldFunction = () => {
  const releases: (() => void)[] = [];
  return {
    runs: () => releases.length,
    handler: () =>
      new Promise<void>((resolve) => {
        releases.push(resolve);
      }),
    /** Finishes the run under way. */
    finish: async () => {
      releases.at(-1)?.();
      // Let the finished run's continuations (and a follow-up run's start) happen.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
};

describe('runOnSchedule: a run now', () => {
  it('runs at once when idle, and once more after a run under way however often it is asked', async () => {
    // Prepare
    const fn = heldFunction();
    const schedule = runOnSchedule({
      handler: fn.handler,
      functionName: 'docket-test',
      everyMs: 0,
      onError: (error) => {
        throw error;
      },
    });

    // Act
    schedule.trigger();
    await new Promise((resolve) => setImmediate(resolve));
    const whileIdle = fn.runs();
    schedule.trigger();
    schedule.trigger();
    schedule.trigger();
    await fn.finish();
    const afterFirst = fn.runs();
    await fn.finish();
    const afterSecond = fn.runs();
    await schedule.stop();
    schedule.trigger();

    // Assess: the triggers during the first run made exactly one more; none after the stop.
    expect([whileIdle, afterFirst, afterSecond, fn.runs()]).toEqual([1, 2, 2, 2]);
  });
});
