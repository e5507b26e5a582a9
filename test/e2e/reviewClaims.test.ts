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
    // A claim lasts the configured 15 minutes (the stack's default) from the claim.
    const { claimedAt, claimExpiresAt } = first.body as { claimedAt: string; claimExpiresAt: string };
    expect(Date.parse(claimExpiresAt) - Date.parse(claimedAt)).toBe(900_000);
    expect(afterFirst.review).toMatchObject({ claimedBy: 'alice', claimedAt, claimExpiresAt });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: 'ReviewClaimed', details: { claimedBy: 'alice' } },
    });
    expect(refused.body.message).toMatch(/^alice is working on the review .*\{"takeOver": true\}/);
    expect(refused.body.message).toContain(`until ${afterFirst.review?.claimExpiresAt}`);
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

describe('a claim that runs out (the review service in this process, on a clock the test moves)', () => {
  /** The review service with its clock at `minutes` after `start`: every claim time comes from it. */
  const at = (start: number, minutes: number) =>
    serviceOn(stack.store, () => new Date(start + minutes * 60_000));

  it('holds 15 minutes from the holder’s last claim, then lets another reviewer claim it without a take-over', async () => {
    // Prepare: alice claims at 0 and again at 10 (activity renews it to 25).
    const { id } = await inReview('contract-0014', 'claim-expiry.pdf');
    const start = Date.now();
    await claimReview(at(start, 0), reviewer('alice'), id);
    const renewed = await claimReview(at(start, 10), reviewer('alice'), id);

    // Act
    const refused = await claimReview(at(start, 24), reviewer('bob'), id).catch((error: unknown) => error);
    const taken = await claimReview(at(start, 25), reviewer('bob'), id);
    const item = await stack.store.get(id);

    // Assess
    expect(renewed).toMatchObject({
      claimedBy: 'alice',
      claimedAt: new Date(start).toISOString(),
      claimExpiresAt: new Date(start + 25 * 60_000).toISOString(),
    });
    expect(refused).toMatchObject({ statusCode: 409, claimedBy: 'alice' });
    expect(taken).toMatchObject({ claimedBy: 'bob', lapsedClaimOf: 'alice' });
    expect(taken).not.toHaveProperty('takenOverFrom');
    expect(item.review).toMatchObject({
      claimedBy: 'bob',
      claimedAt: new Date(start + 25 * 60_000).toISOString(),
      claimExpiresAt: new Date(start + 40 * 60_000).toISOString(),
    });
  });

  it('lets a decision on a review whose claim ran out through without a take-over; it claims it', async () => {
    // Prepare
    const { key, id } = await inReview('invoice-0031', 'decide-lapsed.pdf');
    const start = Date.now();
    await claimReview(at(start, 0), reviewer('alice'), id);

    // Act
    const early = await decideReview(at(start, 14), reviewer('bob'), id, {
      decision: 'reject',
      reason: 'not ours',
    }).catch((error: unknown) => error);
    const decided = await decideReview(at(start, 16), reviewer('bob'), id, {
      decision: 'reject',
      reason: 'not ours',
    });
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess
    expect(early).toMatchObject({ statusCode: 409, claimedBy: 'alice' });
    expect(decided.decision).toMatchObject({ decision: 'reject', reviewer: 'bob' });
    expect(decided.decision).not.toHaveProperty('takenOverFrom');
    expect(done).toMatchObject({ state: 'rejected', review: { claimedBy: 'bob' } });
    expect((await stack.store.history(id)).at(-1)).toMatchObject({ event: 'reject', actor: 'bob' });
    expect((await stack.store.history(id)).at(-1)?.metadata).not.toHaveProperty('takenOverFrom');
  });

  it('shows who holds what, since when and until when in the queue the API serves', async () => {
    // Prepare
    const { id } = await inReview('contract-0022', 'claim-queue.pdf');
    const claimed = await stack.api(alice, 'POST', `/reviews/${id}/claim`);

    // Act
    const queue = await stack.api(bob, 'GET', '/reviews');
    const line = (queue.body.items as { id: string }[]).find((i) => i.id === id);

    // Assess
    expect(line).toMatchObject({
      claimedBy: 'alice',
      claimedAt: claimed.body.claimedAt,
      claimExpiresAt: claimed.body.claimExpiresAt,
    });
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
