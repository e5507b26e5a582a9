/**
 * Canaries on aws-local-stepfunctions: each test pins one behaviour of the engine (pinned to an
 * exact version in package.json) that local/sfn/ relies on without the engine documenting it.
 * After an upgrade, these fail first, and their message names what in local/sfn/ to revisit,
 * before the wrapper's own tests fail in ways that are harder to read. Timeouts, errors and retries
 * have their canaries in engineFailureCanary.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { StateMachine } from '../../../local/sfn/engine.js';
import { WAIT_RESOURCE } from '../../../local/sfn/prepareDefinition.js';
import { engineSource, eventsOf, FN, type Handler, run } from './support/engineRun.js';

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
