import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  type HistoryEvent,
  SendTaskFailureCommand,
  SendTaskHeartbeatCommand,
  SendTaskSuccessCommand,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PermanentError, TransientError } from '../../../lambdas/shared/errors.js';
import type { HeartbeatDeadlineArgs } from '../../../local/sfn/localStepFunctions.js';
import { ManualClock } from '../../support/manualClock.js';
import { enteredStates, startSfnFixture } from './support/sfnFixture.js';

class TextStoreUnavailable extends TransientError {
  override readonly name = 'TextStoreUnavailable';
}

class NotAPdf extends PermanentError {
  override readonly name = 'NotAPdf';
}

/** Lambda service fault as AWS names it: retried in place by the definition's serviceRetry. */
class LambdaServiceException extends Error {
  override readonly name = 'Lambda.ServiceException';
}

describe('the real Docket definition on the local Step Functions', () => {
  const hookCalls: HeartbeatDeadlineArgs[] = [];
  const firstDeadlines = new Map<string, number>();
  // Waits, heartbeats and timeouts happen when a test moves this clock, never by real waiting.
  const clock = new ManualClock();
  let fx: Awaited<ReturnType<typeof startSfnFixture>>;

  beforeAll(async () => {
    fx = await startSfnFixture({
      clock,
      policy: { reviewTimeoutSeconds: 1, reviewMaxSeconds: 30 },
      initialHeartbeatDeadline: async (args) => {
        hookCalls.push(args);
        return firstDeadlines.get(args.executionArn);
      },
    });
  });

  afterAll(async () => {
    await fx.close();
  });

  beforeEach(() => {
    fx.stages.reviewRequired = false;
    fx.stages.failures.clear();
  });

  const start = async (
    input: object = { detail: { object: { key: 'incoming/acme/a.pdf' } } },
    name: string | undefined = undefined,
  ) => {
    const { executionArn } = await fx.client.send(
      new StartExecutionCommand({ stateMachineArn: fx.stateMachineArn, input: JSON.stringify(input), name }),
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

  it('runs an upload to Completed, giving Ingest the execution ARN through $$.Execution.Id', async () => {
    // Prepare
    const input = { detail: { bucket: { name: 'docs' }, object: { key: 'incoming/acme/a.pdf' } } };

    // Act
    const executionArn = await start(input);
    const result = await finished(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(result.status).toBe('SUCCEEDED');
    expect(JSON.parse(result.output ?? '{}')).toMatchObject({
      duplicate: false,
      result: { state: 'completed' },
    });
    expect(fx.stages.calls('ingest').at(-1)).toEqual({ event: input, executionArn });
    expect(enteredStates(events)).toEqual([
      'Start',
      'Ingest',
      'AfterIngest',
      'Parse',
      'AfterParse',
      'Extract',
      'Validate',
      'ValidationOutcome',
      'Compare',
      'Completed',
    ]);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
    expect(events.every((e, i) => e.previousEventId === i)).toBe(true);
    expect(events[0]).toMatchObject({
      type: 'ExecutionStarted',
      executionStartedEventDetails: { input: JSON.stringify(input) },
    });
    expect(events.at(-1)?.type).toBe('ExecutionSucceeded');
    expect(events.filter((e) => e.type === 'LambdaFunctionSucceeded')).toHaveLength(5);
  });

  it('sends a named stage error through MarkFailed, a scaled backoff and the retry router back to that stage', async () => {
    // Prepare
    fx.stages.failures.set('parse', [
      new TextStoreUnavailable('The text bucket did not answer; retry later.'),
    ]);

    // Act: the first retry's 10 s backoff, at the 0.001 test time scale, is 10 ms of the clock.
    const executionArn = await start();
    await elapse(10);
    const result = await finished(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(result.status).toBe('SUCCEEDED');
    expect(enteredStates(events).slice(3, 11)).toEqual([
      'Parse',
      'MarkFailed',
      'Recover',
      'BackoffWait',
      'RetryRouter',
      'Parse',
      'AfterParse',
      'Extract',
    ]);
    const failed = events.find((e) => e.type === 'LambdaFunctionFailed')?.lambdaFunctionFailedEventDetails;
    expect(failed?.error).toBe('TextStoreUnavailable');
    const markFailedInput = fx.stages.calls('mark-failed', executionArn).at(-1) as {
      error: { Error: string; Cause: string };
    };
    expect(markFailedInput.error.Error).toBe('TextStoreUnavailable');
    const cause = JSON.parse(markFailedInput.error.Cause);
    expect(cause).toMatchObject({
      errorType: 'TextStoreUnavailable',
      errorMessage: 'The text bucket did not answer; retry later.',
    });
    expect(cause.trace[0]).toBe('TextStoreUnavailable: The text bucket did not answer; retry later.');
    // The 10 s backoff of the first retry runs at the test time scale: 10 ms, not 10 s.
    const waitEntered = events.find((e) => e.type === 'WaitStateEntered');
    const waitExited = events.find((e) => e.type === 'WaitStateExited');
    expect(JSON.parse(waitEntered?.stateEnteredEventDetails?.input ?? '{}').recovery).toEqual({
      decision: 'retry',
      resumeAt: 'parsing_pdf',
      waitSeconds: 10,
    });
    const waited = (waitExited?.timestamp?.getTime() ?? 0) - (waitEntered?.timestamp?.getTime() ?? 0);
    expect(waited).toBe(10);
  });

  it('resumes a workflow at its stage from {workflowId, resumeAt}, as the runtime does after a restart', async () => {
    // Prepare: a workflow a previous process left in validating.
    const first = await start();
    await finished(first);
    const [workflowId, workflow] =
      [...fx.stages.workflows.entries()].find(([, wf]) => wf.executionArn === first) ?? [];
    if (!workflowId || !workflow) throw new Error('the first execution ingested nothing');
    workflow.state = 'validating';

    // Act
    const resumed = await start({ workflowId, resumeAt: 'validating' });
    const result = await finished(resumed);

    // Assess
    expect(result.status).toBe('SUCCEEDED');
    expect(enteredStates(await history(resumed))).toEqual([
      'Start',
      'Resume',
      'Validate',
      'ValidationOutcome',
      'Compare',
      'Completed',
    ]);
  });

  it('retries a Lambda service fault in place without a workflow retry', async () => {
    // Prepare
    fx.stages.failures.set('extract', [new LambdaServiceException('Rate exceeded')]);

    // Act
    const executionArn = await start();
    const result = await finished(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(result.status).toBe('SUCCEEDED');
    expect(enteredStates(events)).not.toContain('MarkFailed');
    expect(events.filter((e) => e.type === 'LambdaFunctionFailed')).toHaveLength(1);
    expect(fx.stages.calls('extract', executionArn)).toHaveLength(2);
  });

  it('rejects a permanent error at once and fails the execution with Docket.ProcessingFailed', async () => {
    // Prepare
    fx.stages.permanentErrors.add('NotAPdf');
    fx.stages.failures.set('parse', [new NotAPdf('The upload is not a PDF; upload the PDF itself.')]);

    // Act
    const executionArn = await start();
    const result = await finished(executionArn);

    // Assess
    expect(result.status).toBe('FAILED');
    expect(result.error).toBe('Docket.ProcessingFailed');
    expect(enteredStates(await history(executionArn)).slice(-4)).toEqual([
      'MarkFailed',
      'Recover',
      'MarkRejected',
      'ProcessingFailed',
    ]);
  });

  const startReview = async () => {
    fx.stages.reviewRequired = true;
    const executionArn = await start();
    const token = await fx.stages.reviewToken(executionArn);
    return { executionArn, token };
  };

  it('hands request-review a task token and makes the SendTaskSuccess output $.review', async () => {
    // Prepare
    const { executionArn, token } = await startReview();
    const decision = { decision: 'approve', reviewer: 'rita' };

    // Act
    await fx.client.send(new SendTaskSuccessCommand({ taskToken: token, output: JSON.stringify(decision) }));
    const result = await finished(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(result.status).toBe('SUCCEEDED');
    expect(JSON.parse(result.output ?? '{}').review).toEqual(decision);
    const payload = (fx.stages.calls('request-review', executionArn).at(-1) as { taskToken: string })
      .taskToken;
    expect(payload).toBe(token);
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['TaskScheduled', 'TaskStarted', 'TaskSubmitted', 'TaskSucceeded']),
    );
    const scheduled = events.find((e) => e.type === 'TaskScheduled')?.taskScheduledEventDetails;
    expect(scheduled).toMatchObject({
      resourceType: 'lambda',
      resource: 'invoke.waitForTaskToken',
      heartbeatInSeconds: 1,
      timeoutInSeconds: 30,
    });
    expect(events.find((e) => e.type === 'TaskSucceeded')?.taskSucceededEventDetails?.output).toBe(
      JSON.stringify(decision),
    );
  });

  it('gives every review task its own token', async () => {
    // Prepare
    const first = await startReview();
    const second = await startReview();

    // Act
    await fx.client.send(
      new SendTaskSuccessCommand({ taskToken: second.token, output: '{"decision":"approve"}' }),
    );
    const secondResult = await finished(second.executionArn);
    const firstStatus = (
      await fx.client.send(new DescribeExecutionCommand({ executionArn: first.executionArn }))
    ).status;
    await fx.client.send(
      new SendTaskSuccessCommand({ taskToken: first.token, output: '{"decision":"approve"}' }),
    );

    // Assess
    expect(first.token).not.toBe(second.token);
    expect(secondResult.status).toBe('SUCCEEDED');
    expect(firstStatus).toBe('RUNNING');
    expect((await finished(first.executionArn)).status).toBe('SUCCEEDED');
  });

  it('times a silent review out through MarkTimedOut and answers a late SendTaskSuccess with TaskTimedOut', async () => {
    // Prepare
    const { executionArn, token } = await startReview();

    // Act: HeartbeatSeconds (1 s) passes without a word from the reviewer.
    await elapse(1_000);
    const result = await finished(executionArn);
    const late = fx.client.send(
      new SendTaskSuccessCommand({ taskToken: token, output: '{"decision":"approve"}' }),
    );
    const lateAnswer = await late.then(
      () => 'accepted',
      (error: { name: string; $metadata?: { httpStatusCode?: number } }) => error,
    );

    // Assess
    expect(result.status).toBe('FAILED');
    expect(result.error).toBe('Docket.ReviewTimedOut');
    const events = await history(executionArn);
    expect(events.find((e) => e.type === 'TaskTimedOut')?.taskTimedOutEventDetails?.error).toBe(
      'States.HeartbeatTimeout',
    );
    expect(enteredStates(events).slice(-3)).toEqual(['RequestReview', 'MarkTimedOut', 'ReviewTimedOut']);
    expect(lateAnswer).toMatchObject({ name: 'TaskTimedOut', $metadata: { httpStatusCode: 400 } });
  });

  it('keeps a review open past its heartbeat window while SendTaskHeartbeat keeps coming', async () => {
    // Prepare: HeartbeatSeconds is 1, so without heartbeats the task times out after 1 s.
    const { executionArn, token } = await startReview();
    await clock.armedAt(clock.now() + 1_000);

    // Act: 1.4 s in all, with a heartbeat every 0.5 s.
    await clock.advance(500);
    await fx.client.send(new SendTaskHeartbeatCommand({ taskToken: token }));
    await clock.advance(500);
    await fx.client.send(new SendTaskHeartbeatCommand({ taskToken: token }));
    await clock.advance(400);
    await fx.client.send(new SendTaskSuccessCommand({ taskToken: token, output: '{"decision":"approve"}' }));
    const result = await finished(executionArn);

    // Assess
    expect(result.status).toBe('SUCCEEDED');
    expect((await history(executionArn)).some((e) => e.type === 'TaskTimedOut')).toBe(false);
  });

  it('lets initialHeartbeatDeadline replace the first heartbeat window (a review re-armed after a restart)', async () => {
    // Prepare: the hook answers a deadline 200 ms away instead of the 1 s HeartbeatSeconds. The
    // execution is named so the deadline is in place before the hook can ask for it.
    fx.stages.reviewRequired = true;
    const name = `rearmed-${clock.now()}`;
    firstDeadlines.set(
      `${fx.stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`,
      clock.now() + 200,
    );
    const executionArn = await start(undefined, name);

    // Act
    await fx.stages.reviewToken(executionArn);
    await elapse(200);
    const result = await finished(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(result.error).toBe('Docket.ReviewTimedOut');
    const submitted = events.find((e) => e.type === 'TaskSubmitted')?.timestamp?.getTime() ?? 0;
    const timedOut = events.find((e) => e.type === 'TaskTimedOut')?.timestamp?.getTime() ?? 0;
    expect(timedOut - submitted).toBe(200);
    const call = hookCalls.find((c) => c.executionArn === executionArn);
    expect(call?.stateName).toBe('RequestReview');
    expect(call?.input).toMatchObject({
      Payload: { workflowId: expect.any(String), taskToken: expect.any(String) },
    });
  });

  it('routes SendTaskFailure to the Catch with the given error and cause', async () => {
    // Prepare
    const { executionArn, token } = await startReview();

    // Act
    await fx.client.send(
      new SendTaskFailureCommand({
        taskToken: token,
        error: 'ReviewWithdrawn',
        cause: 'The uploader withdrew it.',
      }),
    );
    await finished(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(events.find((e) => e.type === 'TaskFailed')?.taskFailedEventDetails).toMatchObject({
      error: 'ReviewWithdrawn',
      cause: 'The uploader withdrew it.',
    });
    expect(fx.stages.calls('mark-failed', executionArn).at(-1)).toMatchObject({
      error: { Error: 'ReviewWithdrawn', Cause: 'The uploader withdrew it.' },
    });
  });

  it('answers a token it never issued with InvalidToken', async () => {
    // Act
    const call = fx.client.send(
      new SendTaskSuccessCommand({ taskToken: 'not-a-token-we-issued', output: '{}' }),
    );

    // Assess
    await expect(call).rejects.toMatchObject({ name: 'InvalidToken', $metadata: { httpStatusCode: 400 } });
  });
});
