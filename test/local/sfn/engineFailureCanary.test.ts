/**
 * Canaries on how aws-local-stepfunctions times out, fails and retries Tasks: each test pins one
 * behaviour of the engine (pinned to an exact version in package.json) that local/sfn/ relies on
 * without the engine documenting it. After an upgrade, these fail first, and their message names
 * what in local/sfn/ to revisit. The canaries on how it runs definitions are in engineCanary.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { engineTimeoutErrorClass } from '../../../local/sfn/engine.js';
import { TaskFailure } from '../../../local/sfn/errors.js';
import { ENGINE_TIMER_CAP_SECONDS } from '../../../local/sfn/prepareDefinition.js';
import { eventsOf, FN, run } from './support/engineRun.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('aws-local-stepfunctions timeouts, errors and retries the local Step Functions relies on', () => {
  it('times a Task out with its own unexported StatesTimeoutError, which engine.ts obtains by a probe and States.TaskFailed does not catch', async () => {
    // Prepare
    const TimeoutError = await engineTimeoutErrorClass();
    const catches = [
      { ErrorEquals: ['States.TaskFailed'], ResultPath: '$.caught', Next: 'ByTaskFailed' },
      { ErrorEquals: ['States.Timeout'], ResultPath: '$.caught', Next: 'ByTimeout' },
    ];

    // Act
    const engineRun = run(
      {
        First: { Type: 'Task', Resource: FN, Catch: catches, End: true },
        ByTaskFailed: { Type: 'Pass', Result: 'TaskFailed', ResultPath: '$.route', End: true },
        ByTimeout: { Type: 'Pass', Result: 'Timeout', ResultPath: '$.route', End: true },
      },
      {
        First: async () => {
          throw new TimeoutError();
        },
      },
    );

    // Assess
    expect(
      TimeoutError.name,
      "engine.ts probeTimeoutErrorClass() fell back to its own class: the engine's timeout error changed, " +
        'and States.TaskFailed would now catch task timeouts',
    ).toBe('StatesTimeoutError');
    expect(new TimeoutError().name).toBe('States.Timeout');
    expect(await engineRun.result).toMatchObject({ route: 'Timeout', caught: { Error: 'States.Timeout' } });
  });

  it('matches Retry and Catch on an error name, takes its message as Cause, and honours isRetryable/isCatchable', async () => {
    // Prepare: how TaskFailure (errors.ts) shapes errors for the engine.
    let calls = 0;
    const states = (name: string) => ({
      First: {
        Type: 'Task',
        Resource: FN,
        Retry: [{ ErrorEquals: ['States.ALL'], IntervalSeconds: 0, MaxAttempts: 1 }],
        Catch: [{ ErrorEquals: ['States.ALL'], Next: 'Caught' }],
        End: true,
      },
      Caught: { Type: 'Pass', Parameters: { 'error.$': '$' }, End: true },
      [name]: { Type: 'Succeed' },
    });

    // Act
    const caught = await run(states('a'), {
      First: async () => {
        calls += 1;
        throw new TaskFailure('Custom.Error', 'what happened');
      },
    }).result;
    const retriedCalls = calls;
    calls = 0;
    const terminal = run(states('b'), {
      First: async () => {
        calls += 1;
        throw new TaskFailure('States.Runtime', 'stop here', { terminal: true });
      },
    });
    terminal.result.catch(() => undefined);
    const terminalEvents = await eventsOf(terminal);

    // Assess
    expect(
      caught,
      'the engine no longer reads Error/Cause from name/message (errors.ts TaskFailure)',
    ).toEqual({
      error: { Error: 'Custom.Error', Cause: 'what happened' },
    });
    expect(retriedCalls).toBe(2);
    expect(
      { calls, last: terminalEvents.at(-1) },
      'the engine no longer honours isRetryable/isCatchable: a terminal TaskFailure would be retried or caught',
    ).toMatchObject({ calls: 1, last: { type: 'ExecutionFailed', Error: 'States.Runtime' } });
  });

  it('races each Task against its own TimeoutSeconds timer, which is why the wrapper gives it the timer cap', async () => {
    // Prepare
    vi.useFakeTimers();
    const never = () => new Promise(() => undefined);

    // Act
    const timed = run(
      { First: { Type: 'Task', Resource: FN, TimeoutSeconds: 2, End: true } },
      { First: never },
    );
    timed.result.catch(() => undefined);
    const capped = run(
      { First: { Type: 'Task', Resource: FN, TimeoutSeconds: ENGINE_TIMER_CAP_SECONDS, End: true } },
      { First: never },
    );
    let cappedSettled = false;
    capped.result.then(
      () => {
        cappedSettled = true;
      },
      () => {
        cappedSettled = true;
      },
    );
    await vi.advanceTimersByTimeAsync(1_999);
    const timedEarly = await Promise.race([
      timed.result.then(
        () => 'settled',
        () => 'settled',
      ),
      'running',
    ]);
    await vi.advanceTimersByTimeAsync(1);
    const timedEvents = await eventsOf(timed);
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    capped.abort();

    // Assess
    expect(timedEarly).toBe('running');
    expect(
      timedEvents.at(-1),
      'the engine no longer times Tasks out itself: prepareDefinition.ts need not hand it ENGINE_TIMER_CAP_SECONDS',
    ).toMatchObject({ type: 'ExecutionFailed', Error: 'States.Timeout' });
    expect(cappedSettled).toBe(false);
  });

  it('waits IntervalSeconds (fractional, as the time scale makes them) between retries', async () => {
    // Prepare
    vi.useFakeTimers();
    const attempts: number[] = [];

    // Act
    const engineRun = run(
      {
        First: {
          Type: 'Task',
          Resource: FN,
          Retry: [{ ErrorEquals: ['States.ALL'], IntervalSeconds: 0.01, BackoffRate: 2, MaxAttempts: 2 }],
          End: true,
        },
      },
      {
        First: async () => {
          attempts.push(Date.now());
          if (attempts.length < 3) throw new TaskFailure('Flaky', 'again');
          return 'ok';
        },
      },
    );
    await vi.advanceTimersByTimeAsync(100);

    // Assess
    expect(await engineRun.result).toBe('ok');
    expect(
      attempts.slice(1).map((at, i) => at - (attempts[i] ?? 0)),
      'the engine no longer waits IntervalSeconds x BackoffRate^n: prepareDefinition.ts retrier() scaling is off',
    ).toEqual([10, 20]);
  });
});
