import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  corpusDocument,
  startReviewStack,
  upload,
  waitForReviewToken,
  waitForWorkflow,
} from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';

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

/** Uploads a must-review corpus document and waits until it waits for a human. */
const inReview = async (docId: string, name = `${docId}.pdf`) => {
  const key = await upload(stack, 'acme', name, await (await corpusDocument(docId)).pdf());
  return waitForWorkflow(stack, 'acme', key, ['review_required', 'completed', 'rejected']).then(
    async (item) => {
      expect(item.state).toBe('review_required');
      await waitForReviewToken(stack, item.id);
      return { key, id: item.id };
    },
  );
};

describe('reviews through the API', () => {
  it('lists the queue and shows a review with fields, reasons and a PDF link, never the token', async () => {
    // Prepare
    const { id } = await inReview('contract-0014', 'queue.pdf');

    // Act
    const queue = await stack.api(alice, 'GET', '/reviews');
    const review = await stack.api(alice, 'GET', `/reviews/${id}`);

    // Assess
    expect(queue.status).toBe(200);
    expect((queue.body.items as { id: string }[]).map((i) => i.id)).toContain(id);
    expect(review.status).toBe(200);
    expect(review.body).toMatchObject({ docType: 'contract', workflow: { id, state: 'review_required' } });
    expect(JSON.stringify(review.body)).not.toMatch(/reviewTaskToken|taskToken/);
    const reasons = (review.body.workflow as { review: { reasons: { code: string }[] } }).review.reasons;
    expect(reasons.map((r) => r.code)).toContain('unknown_provider');
    const pdf = await fetch(review.body.pdfUrl as string);
    expect(pdf.status).toBe(200);
    expect((await pdf.text()).startsWith('%PDF')).toBe(true);
  });

  it('approves: review_required -> validated -> completed, the reviewer the actor', async () => {
    // Prepare
    const { key, id } = await inReview('contract-0014');

    // Act
    const claim = await stack.api(alice, 'POST', `/reviews/${id}/claim`);
    const decision = await stack.api(alice, 'POST', `/reviews/${id}/decision`, { decision: 'approve' });
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess
    expect(claim).toMatchObject({ status: 200, body: { claimedBy: 'alice' } });
    expect(decision.status).toBe(200);
    expect(done.state).toBe('completed');
    const approve = (await stack.store.history(id)).find((e) => e.event === 'approve');
    expect(approve).toMatchObject({ from: 'review_required', to: 'validated', actor: 'alice' });
  });

  it('corrects: the corrected value is what the workflow completes with', async () => {
    // Prepare: this contract's total value is missing from the document.
    const { key, id } = await inReview('contract-0006');
    const totalValue = { amount: '125000.00', currency: 'USD' };

    // Act
    const before = await stack.api(alice, 'GET', `/reviews/${id}`);
    const approveIncomplete = await stack.api(alice, 'POST', `/reviews/${id}/decision`, {
      decision: 'approve',
    });
    const decision = await stack.api(alice, 'POST', `/reviews/${id}/decision`, {
      decision: 'correct',
      corrections: { totalValue },
    });
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess
    expect((before.body.workflow as { review: { reasons: unknown[] } }).review.reasons).toContainEqual(
      expect.objectContaining({ code: 'missing_required_field', fields: ['totalValue'] }),
    );
    expect(approveIncomplete.status).toBe(422);
    expect(decision.status).toBe(200);
    expect(done).toMatchObject({ state: 'completed', summary: { amount: '125000.00', currency: 'USD' } });
    const { Body } = await stack.s3.send(
      new GetObjectCommand({ Bucket: stack.endpoints.bucket, Key: done.artifacts?.reviewed }),
    );
    const reviewed = JSON.parse(
      await (Body as { transformToString: () => Promise<string> }).transformToString(),
    );
    expect(reviewed.fields.totalValue).toMatchObject({ value: totalValue, confidence: 1, corrected: true });
  });

  it('rejects with a reason: the workflow ends rejected, the execution succeeds', async () => {
    const { key, id } = await inReview('invoice-0015');
    const noReason = await stack.api(bob, 'POST', `/reviews/${id}/decision`, { decision: 'reject' });
    const decision = await stack.api(bob, 'POST', `/reviews/${id}/decision`, {
      decision: 'reject',
      reason: 'duplicate',
    });
    const done = await waitForWorkflow(stack, 'acme', key);
    expect(noReason.status).toBe(422);
    expect(decision.status).toBe(200);
    expect(done.state).toBe('rejected');
    // The reason is on the item; the log says one was given (it holds no words a person wrote).
    expect(done.review?.decision).toMatchObject({ decision: 'reject', reviewer: 'bob', reason: 'duplicate' });
    expect((await stack.store.history(id)).at(-1)).toMatchObject({
      event: 'reject',
      actor: 'bob',
      metadata: { decision: 'reject', reasonGiven: true },
    });
  });

  it('lets exactly one of two simultaneous decisions win: one 200, one 409', async () => {
    // Prepare
    const { key, id } = await inReview('contract-0022');

    // Act
    const [a, b] = await Promise.all([
      stack.api(alice, 'POST', `/reviews/${id}/decision`, { decision: 'approve' }),
      stack.api(bob, 'POST', `/reviews/${id}/decision`, { decision: 'reject', reason: 'looks wrong' }),
    ]);
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? 'alice' : 'bob';
    expect(done.state).toBe(winner === 'alice' ? 'completed' : 'rejected');
    const late = await stack.api(alice, 'POST', `/reviews/${id}/decision`, { decision: 'approve' });
    expect(late.status).toBe(409);
  });

  it('refuses invalid corrections with 422 and records nothing', async () => {
    const { id } = await inReview('invoice-0023');
    const bad = await stack.api(alice, 'POST', `/reviews/${id}/decision`, {
      decision: 'correct',
      corrections: { invoiceDate: '31/31/2025', notAField: 1 },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toMatch(/invoiceDate/);
    expect(JSON.stringify(bad.body)).toMatch(/notAField/);
    expect((await stack.store.get(id)).review?.decision).toBeUndefined();
  });
});

describe('who may call the API', () => {
  it('answers 401 without a token, 403 for the wrong role, 404 for another tenant', async () => {
    // Prepare
    const { id } = await inReview('contract-0030');
    const otherTenant = await stack.token('carol', 'admin', 'globex');

    // Act
    const anonymous = await fetch(`${stack.endpoints.api}/reviews`);
    const forged = await fetch(`${stack.endpoints.api}/reviews`, {
      headers: { authorization: 'Bearer not.a.token' },
    });
    const reviewerRetry = await stack.api(alice, 'POST', `/workflows/${id}/retry`);
    const foreign = await stack.api(otherTenant, 'GET', `/reviews/${id}`);
    const foreignDecision = await stack.api(otherTenant, 'POST', `/reviews/${id}/decision`, {
      decision: 'approve',
    });

    // Assess
    expect(anonymous.status).toBe(401);
    expect(forged.status).toBe(401);
    expect(reviewerRetry.status).toBe(403);
    expect(foreign.status).toBe(404);
    expect(foreignDecision.status).toBe(404);
    expect((await stack.store.get(id)).state).toBe('review_required');
  });

  it('lets an admin cancel a workflow waiting for review; its execution stops', async () => {
    const { id } = await inReview('invoice-0031');
    const admin = await stack.token('root', 'admin', 'acme');
    const cancelled = await stack.api(admin, 'POST', `/workflows/${id}/cancel`, {
      reason: 'sent by mistake',
    });
    expect(cancelled).toMatchObject({
      status: 200,
      body: { workflow: { state: 'cancelled' }, executionStopped: true },
    });
    const history = await stack.api(admin, 'GET', `/workflows/${id}/history`);
    expect((history.body.entries as { event: string; actor: string }[]).at(-1)).toMatchObject({
      event: 'cancel',
      actor: 'root',
    });
  });
});
