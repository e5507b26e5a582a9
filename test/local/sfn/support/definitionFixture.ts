import { GetExecutionHistoryCommand, type HistoryEvent, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { beforeEach } from 'vitest';
import { ManualClock } from '../../../support/manualClock.js';
import { useFixture } from '../../../support/useFixture.js';
import { startSfnFixture } from './sfnFixture.js';

/** The local Step Functions running the real Docket definition, with stand-in stages. */
export type DefinitionFixture = Awaited<ReturnType<typeof startSfnFixture>>;

/**
 * The fixture of the tests of the real definition, started for the calling describe (stage
 * stand-ins reset before each test): a clock the tests move themselves, and helpers on the fixture.
 */
export const definitionFixture = () => {
  // Waits, heartbeats and timeouts happen when a test moves this clock, never by real waiting.
  const clock = new ManualClock();

  const fx: DefinitionFixture = useFixture(() =>
    startSfnFixture({
      clock,
      policy: { reviewTimeoutSeconds: 1, reviewMaxSeconds: 30 },
    }),
  );

  beforeEach(() => {
    fx.stages.reviewRequired = false;
    fx.stages.reviewWindow = undefined;
    fx.stages.failures.clear();
  });

  const start = async (
    input: object = { detail: { object: { key: 'incoming/acme/a.pdf' } } },
    name: string | undefined = undefined,
  ) => {
    const { executionArn } = await fx.client.send(
      new StartExecutionCommand({
        stateMachineArn: fx.stateMachineArn,
        input: JSON.stringify(input),
        name,
      }),
    );
    if (!executionArn) throw new Error('StartExecution returned no executionArn');
    return executionArn;
  };

  const history = async (executionArn: string): Promise<HistoryEvent[]> =>
    (await fx.client.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events ?? [];

  const finished = (executionArn: string) => fx.service.waitForExecution(executionArn);

  /** Moves the clock past a wait of `ms` once the execution has started it. */
  const elapse = async (ms: number) => {
    await clock.armedAt(clock.now() + ms);
    await clock.advance(ms);
  };

  return { fx, clock, start, history, finished, elapse };
};
