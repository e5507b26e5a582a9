import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewWindow, scheduleReview } from '../../lambdas/shared/review/index.js';
import type { StagePolicy } from '../../statemachine/index.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';

const policy: StagePolicy = {
  confidenceThreshold: 80,
  maxRetries: 3,
  backoffBaseSeconds: 10,
  reviewTimeoutSeconds: 3600,
};
const NOW = new Date('2025-03-05T09:00:00.000Z');

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
beforeAll(async () => {
  env = await startStageEnvironment();
});
afterAll(async () => {
  await env.close();
});

/** A review waiting since an earlier execution, due at `dueAt`. */
const reviewDue = async (dueAt: string, extra: Record<string, unknown> = {}) => {
  const wf = await workflowIn(env.store, 'review_required');
  return env.store.update(wf.id, { 'review.dueAt': dueAt, 'review.heartbeatSeconds': 3600, ...extra });
};

describe('schedule-review: the heartbeat the review Task starts with', () => {
  it('gives a new review the configured review timeout and records it', async () => {
    // Prepare
    const wf = await workflowIn(env.store, 'review_required');

    // Act
    const window = await scheduleReview({ store: env.store, now: () => NOW }, { workflowId: wf.id, policy });

    // Assess
    expect(window).toEqual({ heartbeatSeconds: 3600, expired: false });
    expect((await env.store.get(wf.id)).review?.heartbeatSeconds).toBe(3600);
  });

  it('gives a resumed review what is left of it, rounded up to a whole second, and records it', async () => {
    // Prepare: due 20 min 33.2 s from now.
    const wf = await reviewDue('2025-03-05T09:20:33.200Z');

    // Act
    const window = await scheduleReview({ store: env.store, now: () => NOW }, { workflowId: wf.id, policy });

    // Assess
    expect(window).toEqual({ heartbeatSeconds: 1234, expired: false });
    expect((await env.store.get(wf.id)).review).toMatchObject({
      heartbeatSeconds: 1234,
      dueAt: '2025-03-05T09:20:33.200Z',
    });
  });

  it('finds a review whose time ran out while nothing ran expired, and records nothing', async () => {
    // Prepare
    const wf = await reviewDue('2025-03-05T08:59:59.999Z');

    // Act
    const window = await scheduleReview({ store: env.store, now: () => NOW }, { workflowId: wf.id, policy });

    // Assess
    expect(window.expired).toBe(true);
    expect((await env.store.get(wf.id)).version).toBe(wf.version);
  });

  it('never waits longer than the configured timeout, and lets a decision recorded in time go out', () => {
    // Prepare
    const item = (review: Record<string, unknown>) =>
      ({ id: 'wf', state: 'review_required', review: { priority: 0, reasons: [], ...review } }) as never;
    const decision = { decision: 'approve', reviewer: 'alice', at: '2025-03-05T08:00:00.000Z' };

    // Act / Assess
    expect(reviewWindow(item({ dueAt: '2025-03-09T09:00:00.000Z' }), policy, NOW).heartbeatSeconds).toBe(
      3600,
    );
    expect(reviewWindow(item({ dueAt: '2025-03-05T08:00:00.000Z', decision }), policy, NOW)).toEqual({
      heartbeatSeconds: 1,
      expired: false,
    });
  });

  it('refuses a workflow that is not waiting for review', async () => {
    const wf = await workflowIn(env.store, 'validated');
    await expect(
      scheduleReview({ store: env.store, now: () => NOW }, { workflowId: wf.id, policy }),
    ).rejects.toMatchObject({ name: 'StageOutOfOrder' });
  });
});
