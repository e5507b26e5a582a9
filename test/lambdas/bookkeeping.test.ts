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
const lambdaError = (name: string, message: string) => ({
  Error: name,
  Cause: JSON.stringify({ errorType: name, errorMessage: message, trace: [] }),
});

describe('mark-failed', () => {
  it('records a retryable error and asks for a retry at the failed step after 10 s, 20 s, 40 s', async () => {
    // Prepare
    const wf = await workflowIn(env.store, 'extracting');
    const waits: unknown[] = [];

    // Act: fail, retry (as the stage would), three times over.
    for (let i = 0; i < 3; i++) {
      const recovery = await invoke('mark-failed', {
        workflowId: wf.id,
        error: lambdaError('BedrockThrottled', 'slow down'),
      });
      waits.push(recovery.waitSeconds);
      expect(recovery).toMatchObject({ decision: 'retry', resumeAt: 'extracting' });
      const item = await env.store.get(wf.id);
      await env.store.transition(item, {
        event: 'retry',
        context: {
          retryable: true,
          retryCount: item.retryCount,
          maxRetries: 3,
          failedAtStep: item.failedAtStep,
        },
      });
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
      lastError: { type: 'BedrockThrottled', message: 'slow down', retryable: true },
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

  it('is idempotent: a repeated call makes no second transition', async () => {
    const wf = await workflowIn(env.store, 'comparing');
    const first = await invoke('mark-failed', { workflowId: wf.id, error: lambdaError('S3Down', 'x') });
    const second = await invoke('mark-failed', { workflowId: wf.id, error: lambdaError('S3Down', 'x') });
    expect(second).toEqual(first);
    expect((await env.store.history(wf.id)).filter((e) => e.event === 'fail')).toHaveLength(1);
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

  it('halts when the stage failed before its first write, and settles a terminal workflow', async () => {
    const pending = await workflowIn(env.store, 'pending');
    const cancelled = await workflowIn(env.store, 'validated');
    await env.store.transition(cancelled.id, { event: 'cancel', actor: 'ops' });

    const halted = await invoke('mark-failed', { workflowId: pending.id, error: lambdaError('Boom', 'x') });
    const settled = await invoke('mark-failed', {
      workflowId: cancelled.id,
      error: lambdaError('IllegalTransition', 'x'),
    });

    expect(halted).toMatchObject({ decision: 'halt' });
    expect((await env.store.get(pending.id)).state).toBe('pending');
    expect(settled).toMatchObject({ decision: 'settled', outcome: 'Cancelled' });
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
  it('stores the token server-side, returns only the due time, and keeps it when resumed', async () => {
    // Prepare
    const wf = await workflowIn(env.store, 'review_required');

    // Act
    const first = await invoke('request-review', { workflowId: wf.id, taskToken: 'token-1' });
    const resumed = await invoke('request-review', { workflowId: wf.id, taskToken: 'token-2' });

    // Assess
    expect(Object.keys(first).sort()).toEqual(['dueAt', 'workflowId']);
    expect(resumed.dueAt).toBe(first.dueAt);
    const item = await env.store.get(wf.id);
    expect(item.reviewTaskToken).toBe('token-2');
    expect(Date.parse(item.review?.dueAt as string) - Date.now()).toBeGreaterThan(3500 * 1000);
    expect(item.review?.reasons).toEqual([{ code: 'low_confidence', message: 'confidence 40' }]);
  });

  it('refuses a workflow that is not waiting for review', async () => {
    const wf = await workflowIn(env.store, 'validated');
    await expect(invoke('request-review', { workflowId: wf.id, taskToken: 't' })).rejects.toMatchObject({
      name: 'StageOutOfOrder',
    });
  });
});
