import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
const handlers: Record<string, unknown> = {};
const policy = { confidenceThreshold: 80, maxRetries: 3, backoffBaseSeconds: 10, reviewTimeoutSeconds: 3600 };

beforeAll(async () => {
  env = await startStageEnvironment();
  handlers['mark-failed'] = (await import('../../lambdas/mark-failed/handler.js')).handler;
  handlers['mark-rejected'] = (await import('../../lambdas/mark-rejected/handler.js')).handler;
  handlers['mark-timed-out'] = (await import('../../lambdas/mark-timed-out/handler.js')).handler;
  handlers['request-review'] = (await import('../../lambdas/request-review/handler.js')).handler;
});
afterAll(async () => {
  await env.close();
});

const invoke = (stage: string, event: Record<string, unknown>) =>
  invokeInProcess<Record<string, unknown>>(handlers[stage], stage, { policy, ...event });
let requests = 0;
/** A stage error as Step Functions hands it over: the message ends with its Lambda request id. */
const lambdaError = (name: string, message: string, requestId = `req-${++requests}`) => ({
  Error: name,
  Cause: JSON.stringify({ errorType: name, errorMessage: `${message} (request ${requestId})`, trace: [] }),
});

describe('mark-failed', () => {
  it('records a retryable error and asks for a retry at the failed step after 10 s, 20 s, 40 s', async () => {
    // Prepare
    const wf = await workflowIn(env.store, 'extracting');
    const waits: unknown[] = [];

    // Act: the stage fails four times; mark-failed moves it back to extracting after each.
    for (let i = 0; i < 3; i++) {
      const recovery = await invoke('mark-failed', {
        workflowId: wf.id,
        error: lambdaError('BedrockThrottled', 'slow down'),
      });
      waits.push(recovery.waitSeconds);
      expect(recovery).toMatchObject({ decision: 'retry', resumeAt: 'extracting' });
      expect((await env.store.get(wf.id)).state).toBe('extracting');
    }
    const last = await invoke('mark-failed', {
      workflowId: wf.id,
      error: lambdaError('BedrockThrottled', 'slow down'),
    });

    // Assess
    expect(waits).toEqual([10, 20, 40]);
    expect(last).toMatchObject({ decision: 'reject', retryCount: 3 });
    const item = await env.store.get(wf.id);
    expect(item).toMatchObject({
      state: 'failed',
      failedAtStep: 'extracting',
      lastError: { type: 'BedrockThrottled', message: 'slow down (request req-4)', retryable: true },
    });
  });

  it('rejects a permanent error at once, without a retry', async () => {
    const wf = await workflowIn(env.store, 'parsing_pdf');
    const recovery = await invoke('mark-failed', {
      workflowId: wf.id,
      error: lambdaError('ArtifactMissing', 'gone'),
    });
    expect(recovery).toMatchObject({ decision: 'reject', reason: 'permanent error, not retried' });
    expect((await env.store.get(wf.id)).lastError).toMatchObject({
      type: 'ArtifactMissing',
      retryable: false,
    });
  });

  it('is idempotent: the same failure handed over twice makes one fail and one retry', async () => {
    // Prepare
    const wf = await workflowIn(env.store, 'comparing');
    const failure = lambdaError('S3Down', 'x', 'request-a');

    // Act
    const first = await invoke('mark-failed', { workflowId: wf.id, error: failure });
    const second = await invoke('mark-failed', { workflowId: wf.id, error: failure });
    const another = await invoke('mark-failed', {
      workflowId: wf.id,
      error: lambdaError('S3Down', 'x', 'request-b'),
    });

    // Assess
    expect(second).toEqual(first);
    expect(another).toMatchObject({ decision: 'retry', waitSeconds: 20, retryCount: 2 });
    const events = (await env.store.history(wf.id)).map((e) => e.event);
    expect(events.slice(-4)).toEqual(['fail', 'retry', 'fail', 'retry']);
  });

  it('counts every timeout: a cause without a request id is never taken for a repeat', async () => {
    const wf = await workflowIn(env.store, 'comparing');
    const timeout = { Error: 'States.Timeout', Cause: 'Task timed out' };
    await invoke('mark-failed', { workflowId: wf.id, error: timeout });
    const second = await invoke('mark-failed', { workflowId: wf.id, error: timeout });
    expect(second).toMatchObject({ retryCount: 2 });
  });

  it('keeps plain-text causes (States.Timeout) as the message', async () => {
    const wf = await workflowIn(env.store, 'validating');
    await invoke('mark-failed', {
      workflowId: wf.id,
      error: { Error: 'States.Timeout', Cause: 'Task timed out after 300 s' },
    });
    expect((await env.store.get(wf.id)).lastError).toEqual({
      type: 'States.Timeout',
      message: 'Task timed out after 300 s',
      retryable: true,
    });
  });

  it('retries a stage that failed before its first write in place, then halts; nothing is logged', async () => {
    // Prepare
    const pending = await workflowIn(env.store, 'pending');

    // Act: the parse stage fails four times before it could move the workflow.
    const decisions = [];
    for (let i = 0; i < 4; i++) {
      decisions.push(
        await invoke('mark-failed', {
          workflowId: pending.id,
          error: lambdaError('ThrottlingException', 'x'),
        }),
      );
    }

    // Assess
    expect(decisions.slice(0, 3)).toEqual([
      expect.objectContaining({ decision: 'retry', resumeAt: 'pending', waitSeconds: 10 }),
      expect.objectContaining({ decision: 'retry', resumeAt: 'pending', waitSeconds: 20 }),
      expect.objectContaining({ decision: 'retry', resumeAt: 'pending', waitSeconds: 40 }),
    ]);
    expect(decisions[3]).toMatchObject({ decision: 'halt' });
    const item = await env.store.get(pending.id);
    expect(item).toMatchObject({
      state: 'pending',
      entryFailures: 4,
      lastError: { type: 'ThrottlingException' },
    });
    expect(await env.store.history(pending.id)).toEqual([]);
  });

  it('halts at once on a permanent error before the first write', async () => {
    const validated = await workflowIn(env.store, 'validated');
    const decision = await invoke('mark-failed', {
      workflowId: validated.id,
      error: lambdaError('ConfigurationError', 'x'),
    });
    expect(decision).toMatchObject({ decision: 'halt' });
  });

  it('settles a workflow that is already terminal in the outcome its ledger shows', async () => {
    const cancelled = await workflowIn(env.store, 'validated');
    await env.store.transition(cancelled.id, { event: 'cancel', actor: 'ops' });
    const settled = await invoke('mark-failed', {
      workflowId: cancelled.id,
      error: lambdaError('IllegalTransition', 'x'),
    });
    expect(settled).toMatchObject({ decision: 'settled', outcome: 'Cancelled' });
  });

  it('forgets entry failures once the stage gets through', async () => {
    const wf = await workflowIn(env.store, 'validated');
    await invoke('mark-failed', { workflowId: wf.id, error: lambdaError('ThrottlingException', 'x') });
    await env.store.transition(wf.id, { event: 'start_compare' });
    expect((await env.store.get(wf.id)).entryFailures).toBeUndefined();
  });
});

describe('mark-rejected and mark-timed-out', () => {
  it('moves failed to rejected once', async () => {
    const wf = await workflowIn(env.store, 'parsing_pdf');
    await invoke('mark-failed', { workflowId: wf.id, error: lambdaError('NotAnIncomingObject', 'bad key') });
    const first = await invoke('mark-rejected', { workflowId: wf.id });
    const second = await invoke('mark-rejected', { workflowId: wf.id });
    expect(first).toMatchObject({ state: 'rejected' });
    expect(second).toMatchObject({ state: 'rejected', alreadyDone: true });
    expect((await env.store.history(wf.id)).at(-1)).toMatchObject({
      event: 'give_up',
      metadata: { reason: 'permanent error' },
    });
  });

  it('times a review out and forgets its token', async () => {
    const wf = await workflowIn(env.store, 'review_required');
    await invoke('request-review', { workflowId: wf.id, taskToken: 'secret-token' });
    const result = await invoke('mark-timed-out', {
      workflowId: wf.id,
      error: { Error: 'States.HeartbeatTimeout' },
    });
    expect(result).toMatchObject({ state: 'timed_out' });
    expect((await env.store.get(wf.id)).reviewTaskToken).toBeUndefined();
  });
});

describe('request-review', () => {
  it('stores the token server-side and sets the due time the review Task will time out at', async () => {
    // Prepare: the Task was entered at `enteredAt` with the heartbeat schedule-review computed.
    const wf = await workflowIn(env.store, 'review_required');
    const enteredAt = '2025-03-05T09:00:00.000Z';

    // Act: a first review, then the same review resumed with 1,234 s left.
    const first = await invoke('request-review', {
      workflowId: wf.id,
      taskToken: 'token-1',
      heartbeatSeconds: 3600,
      enteredAt,
    });
    const resumed = await invoke('request-review', {
      workflowId: wf.id,
      taskToken: 'token-2',
      heartbeatSeconds: 1234,
      enteredAt,
    });

    // Assess
    expect(Object.keys(first).sort()).toEqual(['dueAt', 'workflowId']);
    expect(first.dueAt).toBe('2025-03-05T10:00:00.000Z');
    expect(resumed.dueAt).toBe('2025-03-05T09:20:34.000Z');
    const item = await env.store.get(wf.id);
    expect(item.reviewTaskToken).toBe('token-2');
    expect(item.review).toMatchObject({ dueAt: resumed.dueAt, heartbeatSeconds: 1234 });
    expect(item.review?.reasons).toEqual([{ code: 'low_confidence', message: 'confidence 40' }]);
  });

  it('gives a review Task of an older definition (fixed HeartbeatSeconds) the configured timeout from now', async () => {
    // Prepare
    const wf = await workflowIn(env.store, 'review_required');

    // Act: no heartbeatSeconds nor enteredAt in the payload.
    const armed = await invoke('request-review', { workflowId: wf.id, taskToken: 'token-1' });

    // Assess
    expect(Date.parse(armed.dueAt as string) - Date.now()).toBeGreaterThan(3590 * 1000);
    expect((await env.store.get(wf.id)).review?.heartbeatSeconds).toBe(3600);
  });

  it('refuses a workflow that is not waiting for review', async () => {
    const wf = await workflowIn(env.store, 'validated');
    await expect(invoke('request-review', { workflowId: wf.id, taskToken: 't' })).rejects.toMatchObject({
      name: 'StageOutOfOrder',
    });
  });
});
