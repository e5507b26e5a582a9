import { GetExecutionHistoryCommand, type HistoryEvent, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { HeartbeatDeadlineArgs } from '../../../../local/sfn/localStepFunctions.js';
import { ManualClock } from '../../../support/manualClock.js';
import { startSfnFixture } from './sfnFixture.js';

/** The local Step Functions running the real Docket definition, with stand-in stages. */
export type DefinitionFixture = Awaited<ReturnType<typeof startSfnFixture>>;

/**
 * What the tests of the real definition share: a clock they move themselves, the calls of the
 * initialHeartbeatDeadline hook and the deadlines it answers, and helpers on the fixture that
 * `fixture` returns once beforeAll has started it (with `startFixture`).
 */
export const definitionHelpers = (fixture: () => DefinitionFixture) => {
  const hookCalls: HeartbeatDeadlineArgs[] = [];
  const firstDeadlines = new Map<string, number>();
  // Waits, heartbeats and timeouts happen when a test moves this clock, never by real waiting.
  const clock = new ManualClock();

  const startFixture = () =>
    startSfnFixture({
      clock,
      policy: { reviewTimeoutSeconds: 1, reviewMaxSeconds: 30 },
      initialHeartbeatDeadline: async (args) => {
        hookCalls.push(args);
        return firstDeadlines.get(args.executionArn);
      },
    });

  const start = async (
    input: object = { detail: { object: { key: 'incoming/acme/a.pdf' } } },
    name: string | undefined = undefined,
  ) => {
    const { executionArn } = await fixture().client.send(
      new StartExecutionCommand({
        stateMachineArn: fixture().stateMachineArn,
        input: JSON.stringify(input),
        name,
      }),
    );
    if (!executionArn) throw new Error('StartExecution returned no executionArn');
    return executionArn;
  };

  const history = async (executionArn: string): Promise<HistoryEvent[]> =>
    (await fixture().client.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 })))
      .events ?? [];

  const finished = (executionArn: string) => fixture().service.waitForExecution(executionArn);

  /** Moves the clock past a wait of `ms` once the execution has started it. */
  const elapse = async (ms: number) => {
    await clock.armedAt(clock.now() + ms);
    await clock.advance(ms);
  };

  return { hookCalls, firstDeadlines, clock, startFixture, start, history, finished, elapse };
};
