import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type RunOptions, StateMachine } from '../../../../local/sfn/engine.js';

/* Running aws-local-stepfunctions directly, as the canaries on it do. */

/** The function ARN every canary Task names. */
export const FN = 'arn:aws:lambda:us-east-1:123456789012:function:canary';

/** A Task handler as taskResourceLocalHandlers takes it. */
export type Handler = (input: unknown) => Promise<unknown>;

/** An engine machine run with the options the wrapper passes (validation off, as it does). */
export const run = (states: object, handlers: Record<string, Handler>, extra: object = {}) => {
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
export const eventsOf = async (engineRun: ReturnType<typeof run>) => {
  const events: { type: string; [key: string]: unknown }[] = [];
  for await (const event of engineRun.eventLogs) events.push(event as never);
  return events;
};

/** The engine's bundled source, for canaries on what it contains. */
export const engineSource = async (): Promise<string> => {
  const entry = createRequire(import.meta.url).resolve('aws-local-stepfunctions');
  return readFile(join(entry, '..', 'main.node.esm.js'), 'utf8');
};
