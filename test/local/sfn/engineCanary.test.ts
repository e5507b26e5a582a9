/**
 * Canaries on aws-local-stepfunctions: each test pins one behaviour of the engine (pinned to an
 * exact version in package.json) that local/sfn/ relies on without the engine documenting it.
 * After an upgrade, these fail first, and their message names what in local/sfn/ to revisit,
 * before the wrapper's own tests fail in ways that are harder to read.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { engineTimeoutErrorClass, type RunOptions, StateMachine } from '../../../local/sfn/engine.js';
import { TaskFailure } from '../../../local/sfn/errors.js';
import { ENGINE_TIMER_CAP_SECONDS, WAIT_RESOURCE } from '../../../local/sfn/prepareDefinition.js';

const FN = 'arn:aws:lambda:us-east-1:123456789012:function:canary';

type Handler = (input: unknown) => Promise<unknown>;

/** An engine machine run with the options the wrapper passes (validation off, as it does). */
const run = (states: object, handlers: Record<string, Handler>, extra: object = {}) => {
  const machine = new StateMachine({ StartAt: 'First', States: states } as never, {
    validationOptions: { noValidate: true },
  });
  return machine.run(
    { in: 1 } as never,
    {
      overrides: { taskResourceLocalHandlers: handlers },
      ...extra,
    } as unknown as RunOptions,
  );
};

/** Every event of a run's log, once it closes. */
const eventsOf = async (engineRun: ReturnType<typeof run>) => {
  const events: { type: string; [key: string]: unknown }[] = [];
  for await (const event of engineRun.eventLogs) events.push(event as never);
  return events;
};

const engineSource = async (): Promise<string> => {
  const entry = createRequire(import.meta.url).resolve('aws-local-stepfunctions');
  return readFile(join(entry, '..', 'main.node.esm.js'), 'utf8');
};

afterEach(() => {
  vi.useRealTimers();
});

describe('aws-local-stepfunctions internals the local Step Functions relies on', () => {
  it('uses no JavaScript API newer than Node 20 but Promise.withResolvers, which promiseWithResolvers.ts installs', async () => {
    // Prepare: ES2024+ APIs Node 20 lacks (Promise.withResolvers is the one the engine needs today).
    const newer = {
      'Promise.withResolvers': /Promise\.withResolvers/,
      'Array.fromAsync': /Array\.fromAsync/,
      'Object.groupBy / Map.groupBy': /\b(Object|Map)\.groupBy/,
      'Set methods': /\.(union|intersection|symmetricDifference|isSubsetOf|isSupersetOf|isDisjointFrom)\(/,
      'Iterator helpers': /\bIterator\.from\b/,
      'Promise.try': /Promise\.try\b/,
      'explicit resource management': /Symbol\.(asyncDispose|dispose)\b/,
      'process.getBuiltinModule': /process\.getBuiltinModule/,
      'RegExp.escape': /RegExp\.escape/,
      Float16Array: /Float16Array/,
    };

    // Act
    const source = await engineSource();
    const used = Object.entries(newer)
      .filter(([, pattern]) => pattern.test(source))
      .map(([name]) => name);

    // Assess
    expect(
      used,
      'the engine uses an API Node 20 lacks: polyfill it in local/sfn/ (as promiseWithResolvers.ts does) ' +
        'or make Node 22 the minimum in package.json engines and the README',
    ).toEqual(['Promise.withResolvers']);
    expect(typeof (Promise as { withResolvers?: unknown }).withResolvers).toBe('function');
  });

  it('runs a Task through taskResourceLocalHandlers with its resolved Parameters and takes the result', async () => {
    // Prepare
    const seen: unknown[] = [];

    // Act
    const engineRun = run(
      {
        First: {
          Type: 'Task',
          Resource: FN,
          Parameters: { 'got.$': '$.in' },
          ResultPath: '$.out',
          End: true,
        },
      },
      {
        First: async (input) => {
          seen.push(input);
          return 'result';
        },
      },
    );

    // Assess
    expect(
      await engineRun.result,
      'taskResourceLocalHandlers no longer runs Tasks (executionRunner.ts start())',
    ).toEqual({ in: 1, out: 'result' });
    expect(seen).toEqual([{ got: 1 }]);
  });

  it('reads $$ from the context object given to run(), calling a getter per Task right before its handler', async () => {
    // Prepare: a token getter like executionRunner.ts contextObject(); a microtask clears what it
    // minted, so the handler sees it only if the engine calls it without yielding in between.
    let minted = 0;
    let pending: string | undefined;
    const task = { Token: '' };
    Object.defineProperty(task, 'Token', {
      enumerable: true,
      get: () => {
        minted += 1;
        pending = `token-${minted}`;
        queueMicrotask(() => {
          pending = undefined;
        });
        return pending;
      },
    });
    const received: { token: unknown; pendingThen: string | undefined }[] = [];
    const handler: Handler = async (input) => {
      received.push({ token: (input as { token: unknown }).token, pendingThen: pending });
      return {};
    };
    const parameters = { 'token.$': '$$.Task.Token', 'id.$': '$$.Execution.Id' };

    // Act
    const engineRun = run(
      {
        First: { Type: 'Task', Resource: FN, Parameters: parameters, ResultPath: null, Next: 'Second' },
        Second: { Type: 'Task', Resource: FN, Parameters: { 'token.$': '$$.Task.Token' }, End: true },
      },
      {
        First: async (input) => {
          expect((input as { id: string }).id).toBe('arn:execution');
          return handler(input);
        },
        Second: handler,
      },
      { context: { Execution: { Id: 'arn:execution' }, Task: task } },
    );
    await engineRun.result;

    // Assess
    expect(
      received,
      'the engine no longer evaluates the context getter lazily per Task and calls the handler in the same ' +
        'step: $$.Task.Token minting in executionRunner.ts contextObject()/runState() must change',
    ).toEqual([
      { token: 'token-1', pendingThen: 'token-1' },
      { token: 'token-2', pendingThen: 'token-2' },
    ]);
  });

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

  it('logs the events engineHistory.ts translates, ends the log with the outcome, and stops on abort()', async () => {
    // Prepare
    const mapStates = {
      First: {
        Type: 'Map',
        ItemsPath: '$.items',
        ItemProcessor: { StartAt: 'Item', States: { Item: { Type: 'Pass', End: true } } },
        ResultPath: '$.mapped',
        Next: 'Fail',
      },
      Fail: { Type: 'Fail', Error: 'Canary.Failed', Cause: 'on purpose' },
    };
    let secondRan = false;

    // Act
    const machine = new StateMachine({ StartAt: 'First', States: mapStates } as never, {
      validationOptions: { noValidate: true },
    });
    const failedRun = machine.run({ items: [1] } as never);
    failedRun.result.catch(() => undefined);
    const failed = await eventsOf(failedRun);
    const aborted = run(
      {
        First: { Type: 'Task', Resource: FN, Next: 'Second' },
        Second: { Type: 'Task', Resource: FN, End: true },
      },
      {
        First: () => new Promise(() => undefined),
        Second: async () => {
          secondRan = true;
        },
      },
      { noThrowOnAbort: true },
    );
    setTimeout(() => aborted.abort(), 0);
    const abortedEvents = await eventsOf(aborted);

    // Assess
    const message = 'the engine event log changed shape: update engineHistory.ts historyFromEngine()';
    expect(
      failed.map((e) => e.type),
      message,
    ).toEqual([
      'ExecutionStarted',
      'StateEntered',
      'MapIterationStarted',
      'StateEntered',
      'StateExited',
      'MapIterationSucceeded',
      'StateExited',
      'StateEntered',
      'StateFailed',
      'ExecutionFailed',
    ]);
    expect(failed[1], message).toMatchObject({ state: { name: 'First', input: { items: [1] } } });
    expect(failed[2], message).toMatchObject({ index: 0, parentState: { name: 'First' } });
    expect(failed[6], message).toMatchObject({
      state: { name: 'First', output: { items: [1], mapped: [1] } },
    });
    expect(failed[9], message).toMatchObject({ Error: 'Canary.Failed', Cause: 'on purpose' });
    expect(await aborted.result, 'noThrowOnAbort no longer makes result null after abort()').toBeNull();
    expect(abortedEvents.at(-1)?.type).toBe('ExecutionAborted');
    expect(secondRan).toBe(false);
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

  it('validates a definition in its constructor unless told not to, which lets a Wait run as a Task', () => {
    // Prepare
    const waitAsTask = {
      StartAt: 'Pause',
      States: { Pause: { Type: 'Task', Resource: WAIT_RESOURCE, Parameters: { 'input.$': '$' }, End: true } },
    };

    // Act
    const validate = (definition: object) => () => new StateMachine(definition as never);
    const skip = () => new StateMachine(waitAsTask as never, { validationOptions: { noValidate: true } });

    // Assess
    expect(
      validate({ StartAt: 'Nowhere', States: {} }),
      'the constructor no longer validates: localStepFunctions.ts validateDefinition() checks nothing',
    ).toThrow();
    expect(skip).not.toThrow();
  });

  it('mishandles ResultPath "$" (adds a "$" key), which prepareDefinition.ts rootResultPaths() works around', async () => {
    // Act
    const output = await run(
      { First: { Type: 'Task', Resource: FN, ResultPath: '$', End: true } },
      { First: async () => ({ replaced: true }) },
    ).result;

    // Assess
    expect(
      output,
      'the engine now applies ResultPath "$" correctly: rootResultPaths() in prepareDefinition.ts can go',
    ).toEqual({ in: 1, $: { replaced: true } });
  });
});
