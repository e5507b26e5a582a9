import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimReview, decideReview } from '../../lambdas/shared/review/index.js';
import { startReviewStack, waitForWorkflow } from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';
import { reviewer, reviewHelpers } from '../support/reviewHelpers.js';

let stack: LocalStack;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({
    stack,
    tokens: { alice, bob },
  } = await startReviewStack(['alice', 'bob']));
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

const { inReview, serviceOn, rivalStore } = reviewHelpers(() => stack);

describe('claiming a review', () => {
  it('refuses a claim while another reviewer holds it, naming them; the holder re-claims; takeOver takes it', async () => {
    // Prepare
    const { id } = await inReview('contract-0014', 'claim-exclusive.pdf');
    const first = await stack.api(alice, 'POST', `/reviews/${id}/claim`);
    const afterFirst = await stack.store.get(id);

    // Act
    const refused = await stack.api(bob, 'POST', `/reviews/${id}/claim`);
    const afterRefused = await stack.store.get(id);
    const heartbeat = await stack.api(alice, 'POST', `/reviews/${id}/claim`);
    const takeOver = await stack.api(bob, 'POST', `/reviews/${id}/claim`, { takeOver: true });
    const aliceAgain = await stack.api(alice, 'POST', `/reviews/${id}/claim`);

    // Assess
    expect(first).toMatchObject({ status: 200, body: { claimedBy: 'alice' } });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: 'ReviewClaimed', details: { claimedBy: 'alice' } },
    });
    expect(refused.body.message).toMatch(/^alice is working on the review .*\{"takeOver": true\}/);
    expect(afterRefused.review).toMatchObject({
      claimedBy: 'alice',
      claimedAt: afterFirst.review?.claimedAt,
      dueAt: afterFirst.review?.dueAt,
    });
    expect(heartbeat).toMatchObject({ status: 200, body: { claimedBy: 'alice' } });
    expect(takeOver).toMatchObject({ status: 200, body: { claimedBy: 'bob', takenOverFrom: 'alice' } });
    expect(aliceAgain).toMatchObject({ status: 409, body: { details: { claimedBy: 'bob' } } });
    expect((await stack.store.get(id)).review?.claimedBy).toBe('bob');
  });

  it('lets only one of two racing claims win: the loser gets 409 naming the winner', async () => {
    // Prepare: alice reads the review unclaimed; bob's claim lands before her write.
    const { id } = await inReview('invoice-0031', 'claim-race.pdf');
    const store = rivalStore();
    store.rival = async () => {
      expect((await stack.api(bob, 'POST', `/reviews/${id}/claim`)).status).toBe(200);
    };

    // Act
    const lost = await claimReview(serviceOn(store), reviewer('alice'), id).catch((error: unknown) => error);

    // Assess
    expect(lost).toMatchObject({ statusCode: 409, claimedBy: 'bob' });
    expect((await stack.store.get(id)).review?.claimedBy).toBe('bob');
  });

  it('answers a claim before the task token is stored with a retryable 409, not a conflict', async () => {
    // Prepare: the review as request-review leaves it for a moment: waiting, no token yet.
    const { id, item } = await inReview('contract-0006', 'claim-not-ready.pdf');
    await stack.store.update(id, { reviewTaskToken: null });

    // Act
    const early = await stack.api(alice, 'POST', `/reviews/${id}/claim`);
    await stack.store.update(id, { reviewTaskToken: item.reviewTaskToken });
    const later = await stack.api(alice, 'POST', `/reviews/${id}/claim`);

    // Assess
    expect(early).toMatchObject({
      status: 409,
      body: { error: 'ReviewNotReady', details: { retryable: true } },
    });
    expect(early.body.message).toMatch(/still being set up; try again/);
    expect(later.status).toBe(200);
  });
});

describe('a decision on a claimed review', () => {
  it('is refused with 409 naming the holder, and goes through as a logged take-over with takeOver', async () => {
    // Prepare
    const { key, id } = await inReview('contract-0014', 'decide-claimed.pdf');
    expect((await stack.api(alice, 'POST', `/reviews/${id}/claim`)).status).toBe(200);

    // Act
    const refused = await stack.api(bob, 'POST', `/reviews/${id}/decision`, {
      decision: 'reject',
      reason: 'not ours',
    });
    const afterRefused = await stack.store.get(id);
    const takenOver = await stack.api(bob, 'POST', `/reviews/${id}/decision`, {
      decision: 'reject',
      reason: 'not ours',
      takeOver: true,
    });
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess
    expect(refused).toMatchObject({
      status: 409,
      body: { error: 'ReviewClaimed', details: { claimedBy: 'alice' } },
    });
    expect(refused.body.message).toMatch(/^alice is working on the review .*"takeOver": true/);
    expect(afterRefused.review?.decision).toBeUndefined();
    expect(afterRefused.review?.claimedBy).toBe('alice');
    expect(takenOver).toMatchObject({
      status: 200,
      body: { decision: { decision: 'reject', reviewer: 'bob', takenOverFrom: 'alice' } },
    });
    expect(done.state).toBe('rejected');
    expect(done.review?.claimedBy).toBe('bob');
    expect((await stack.store.history(id)).at(-1)).toMatchObject({
      event: 'reject',
      actor: 'bob',
      metadata: { takenOverFrom: 'alice' },
    });
  });

  it('by the holder goes through, and one on an unclaimed review claims it', async () => {
    // Prepare
    const held = await inReview('invoice-0031', 'decide-own-claim.pdf');
    const unclaimed = await inReview('contract-0022', 'decide-unclaimed.pdf');
    expect((await stack.api(alice, 'POST', `/reviews/${held.id}/claim`)).status).toBe(200);

    // Act
    const own = await stack.api(alice, 'POST', `/reviews/${held.id}/decision`, {
      decision: 'reject',
      reason: 'duplicate',
    });
    const fresh = await stack.api(bob, 'POST', `/reviews/${unclaimed.id}/decision`, {
      decision: 'reject',
      reason: 'duplicate',
    });
    const freshItem = await stack.store.get(unclaimed.id);
    const late = await stack.api(alice, 'POST', `/reviews/${unclaimed.id}/claim`);

    // Assess
    expect(own.status).toBe(200);
    expect(own.body.decision).not.toHaveProperty('takenOverFrom');
    expect(fresh.status).toBe(200);
    expect(freshItem.review).toMatchObject({ claimedBy: 'bob', decision: { reviewer: 'bob' } });
    expect(late.status).toBe(409);
  });

  it('loses to a claim that lands between its read and its write: 409 naming the new holder', async () => {
    // Prepare: alice reads the review unclaimed; bob's claim lands before her decision write.
    const { id } = await inReview('contract-0006', 'decide-claim-race.pdf');
    const store = rivalStore();
    store.rival = async () => {
      expect((await stack.api(bob, 'POST', `/reviews/${id}/claim`)).status).toBe(200);
    };

    // Act
    const lost = await decideReview(serviceOn(store), reviewer('alice'), id, {
      decision: 'reject',
      reason: 'late',
    }).catch((error: unknown) => error);

    // Assess
    expect(lost).toMatchObject({ statusCode: 409, claimedBy: 'bob' });
    expect((await stack.store.get(id)).review).toMatchObject({ claimedBy: 'bob' });
    expect((await stack.store.get(id)).review?.decision).toBeUndefined();
  });
});
