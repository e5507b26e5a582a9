import {
  DescribeExecutionCommand,
  SendTaskFailureCommand,
  SendTaskHeartbeatCommand,
  SendTaskSuccessCommand,
} from '@aws-sdk/client-sfn';
import { describe, expect, it } from 'vitest';
import { definitionFixture } from './support/definitionFixture.js';
import { enteredStates } from './support/sfnFixture.js';

describe('the real Docket definition on the local Step Functions: review tasks and their tokens', () => {
  const { fx, clock, start, history, finished, elapse } = definitionFixture();

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

  it('starts the review Task with the heartbeat ScheduleReview computed (HeartbeatSecondsPath)', async () => {
    // Prepare: a resumed review with 7 s left, where the configured timeout is 1 s.
    fx.stages.reviewWindow = { heartbeatSeconds: 7, expired: false };
    const { executionArn } = await startReview();

    // Act
    await elapse(7_000);
    const result = await finished(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(result.error).toBe('Docket.ReviewTimedOut');
    expect(
      events.find((e) => e.type === 'TaskScheduled')?.taskScheduledEventDetails?.heartbeatInSeconds,
    ).toBe(7);
    const submitted = events.find((e) => e.type === 'TaskSubmitted')?.timestamp?.getTime() ?? 0;
    const timedOut = events.find((e) => e.type === 'TaskTimedOut')?.timestamp?.getTime() ?? 0;
    expect(timedOut - submitted).toBe(7_000);
    expect(fx.stages.calls('request-review', executionArn).at(-1)).toMatchObject({
      heartbeatSeconds: 7,
      enteredAt: new Date(submitted).toISOString(),
    });
  });

  it('times a review out at once, without a review Task, when ScheduleReview finds it expired', async () => {
    // Prepare
    fx.stages.reviewRequired = true;
    fx.stages.reviewWindow = { heartbeatSeconds: 0, expired: true };

    // Act
    const executionArn = await start();
    const result = await finished(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(result.error).toBe('Docket.ReviewTimedOut');
    expect(enteredStates(events).slice(-5)).toEqual([
      'ScheduleReview',
      'ReviewWindow',
      'ReviewExpired',
      'MarkTimedOut',
      'ReviewTimedOut',
    ]);
    expect(fx.stages.calls('request-review', executionArn)).toEqual([]);
    expect(fx.stages.calls('mark-timed-out', executionArn).at(-1)).toMatchObject({
      error: { Error: 'Docket.ReviewExpired' },
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
