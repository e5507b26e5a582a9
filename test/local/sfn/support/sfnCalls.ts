import { StartExecutionCommand } from '@aws-sdk/client-sfn';
import { ManualClock } from '../../../support/manualClock.js';
import { useFixture } from '../../../support/useFixture.js';
import { startSfnFixture } from './sfnFixture.js';

/** Resolves with the error a call rejects with (or fails the test if it succeeds). */
export const failure = async (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: { name: string; message: string; $metadata?: { httpStatusCode?: number } }) => ({
      name: error.name,
      message: error.message,
      status: error.$metadata?.httpStatusCode,
    }),
  );

/**
 * Starting executions of the fixture's state machine (the fixture `fixture` returns once beforeAll
 * has started it): `start` with a review or without, `completed` once it has finished.
 */
export const executionStarter = (fixture: () => Awaited<ReturnType<typeof startSfnFixture>>) => {
  const start = async (options: { name?: string; input?: string; review?: boolean } = {}) => {
    fixture().stages.reviewRequired = options.review ?? false;
    const { executionArn } = await fixture().client.send(
      new StartExecutionCommand({
        stateMachineArn: fixture().stateMachineArn,
        name: options.name,
        input: options.input ?? '{}',
      }),
    );
    if (!executionArn) throw new Error('StartExecution returned no executionArn');
    return executionArn;
  };

  const completed = async () => {
    const executionArn = await start();
    await fixture().service.waitForExecution(executionArn);
    return executionArn;
  };

  return { start, completed };
};

/**
 * The fixture of the endpoint tests, started for the calling describe: a clock that decides start
 * and stop times (so a test decides which execution is more recent), and starters of executions.
 */
export const apiFixture = () => {
  const clock = new ManualClock();
  const fx = useFixture(() =>
    startSfnFixture({ clock, policy: { reviewTimeoutSeconds: 60, reviewMaxSeconds: 120 } }),
  );
  return { clock, fx, ...executionStarter(() => fx) };
};
