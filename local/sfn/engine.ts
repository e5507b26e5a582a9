// The polyfill must be evaluated before the engine: ESM runs imports in this order.
import './promiseWithResolvers.js';
import { ExecutionError, StateMachine } from 'aws-local-stepfunctions';

export type { RunOptions, StateMachineDefinition } from 'aws-local-stepfunctions';
export { StateMachine };

/** The engine's `States.Timeout` error class: `new` gives an error the engine treats as a timeout. */
export type TimeoutErrorClass = new () => Error;

let timeoutErrorClass: Promise<TimeoutErrorClass> | undefined;

/**
 * The engine matches `States.TaskFailed` in Retry/Catch against every error except an instance of
 * its own, unexported, `StatesTimeoutError`. Task timeouts are enforced here (the engine's 60 s
 * default and its single race cannot express heartbeats), so the error thrown for one must be that
 * class. It is obtained once by letting the engine time out a 1 ms probe task.
 */
export const engineTimeoutErrorClass = (): Promise<TimeoutErrorClass> => {
  timeoutErrorClass ??= probeTimeoutErrorClass();
  return timeoutErrorClass;
};

const probeTimeoutErrorClass = async (): Promise<TimeoutErrorClass> => {
  const probe = new StateMachine(
    {
      StartAt: 'Probe',
      States: {
        Probe: {
          Type: 'Task',
          Resource: 'arn:aws:lambda:us-east-1:123456789012:function:probe',
          TimeoutSeconds: 0.001,
          End: true,
        },
      },
    },
    { validationOptions: { noValidate: true } },
  );
  const run = probe.run(
    {},
    { overrides: { taskResourceLocalHandlers: { Probe: () => new Promise(() => {}) } } },
  );
  try {
    await run.result;
  } catch (error) {
    const cause = error instanceof ExecutionError ? error.cause : undefined;
    if (cause instanceof Error && cause.name === 'States.Timeout') {
      return cause.constructor as TimeoutErrorClass;
    }
  }
  // A future engine may time out differently: a plain named error still routes Retry and Catch
  // by name; only `States.TaskFailed` would then also match timeouts.
  return class StatesTimeout extends Error {
    override readonly name = 'States.Timeout';
  };
};
