import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDecision } from '../../lambdas/shared/review/index.js';
import { startReviewStack, waitForWorkflow } from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';
import { reviewHelpers } from '../support/reviewHelpers.js';
import { JARGON, type RefusalContext } from './support/refusals.js';
import { requestRefusals } from './support/requestRefusals.js';
import { reviewRefusals } from './support/reviewRefusals.js';

/*
 * Every refusal the review API can give (its HTTP 4xx: the local adapter's, which API Gateway's
 * authorizer and router stand for, and the function's), each triggered for real against a running
 * local stack, and each answer read as a person reads it: the `message` names the values that
 * were refused and says what to do next, in words, with no schema jargon; the `error` code for
 * machines stays beside it. The two the adapter never lets through (a method no route has, a
 * token without a tenant) are sent to the function in-process, as API Gateway would hand them.
 */

let stack: LocalStack;
/** Filled in beforeAll; each case reads it when it runs. */
const ctx = {
  reviews: { claimed: '', decided: '', recorded: '', expired: '', notReady: '' },
} as RefusalContext;

const { inReview } = reviewHelpers(() => stack);

const REFUSALS = { ...requestRefusals(ctx), ...reviewRefusals(ctx) };

beforeAll(async () => {
  const started = await startReviewStack(['alice', 'bob']);
  stack = started.stack;
  ctx.stack = stack;
  ctx.tokens = {
    ...started.tokens,
    admin: await ctx.stack.token('root', 'admin', 'acme'),
    uploader: await ctx.stack.token('ulla', 'uploader', 'acme'),
    globex: await ctx.stack.token('gina', 'reviewer', 'globex'),
  };
  // A contract missing its value, claimed by alice: the refusals of claims and decisions.
  ctx.reviews.claimed = (await inReview('contract-0006', 'refusal-claimed.pdf')).id;
  ctx.claimExpiresAt = (
    await ctx.stack.api(ctx.tokens.alice, 'POST', `/reviews/${ctx.reviews.claimed}/claim`)
  ).body.claimExpiresAt as string;
  // Rejected by alice: a workflow no longer waiting.
  const decided = await inReview('contract-0006', 'refusal-decided.pdf');
  ctx.reviews.decided = decided.id;
  await ctx.stack.api(ctx.tokens.alice, 'POST', `/reviews/${decided.id}/decision`, {
    decision: 'reject',
    reason: 'test',
  });
  await waitForWorkflow(stack, 'acme', decided.key, ['rejected']);
  // A decision recorded and not yet delivered: the review still waits, decided.
  ctx.reviews.recorded = (await inReview('contract-0006', 'refusal-recorded.pdf')).id;
  await recordDecision(
    ctx.stack.store,
    { id: ctx.reviews.recorded, tenant: 'acme' },
    { decision: 'reject', reviewer: 'alice', at: new Date().toISOString(), reason: 'test' },
  );
  // Out of time (the due time set in the store, as time would), and not set up yet.
  ctx.reviews.expired = (await inReview('contract-0006', 'refusal-expired.pdf')).id;
  ctx.expiredDueAt = new Date(Date.now() - 60_000).toISOString();
  await ctx.stack.store.update(ctx.reviews.expired, { 'review.dueAt': ctx.expiredDueAt });
  ctx.reviews.notReady = (await inReview('contract-0006', 'refusal-not-ready.pdf')).id;
  await ctx.stack.store.update(ctx.reviews.notReady, { reviewTaskToken: null });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

describe('every refusal of the review API, as a person reads it', () => {
  it.each(Object.entries(REFUSALS))(
    '%s: names what was refused and what to do, no schema jargon',
    async (_, refusal) => {
      // Prepare: the reviews and tokens of beforeAll.

      // Act
      const answer = await refusal.send();
      const message = String(answer.body.message ?? '');

      // Assess: the code for machines beside the sentence for people.
      expect(answer.status).toBe(refusal.status);
      expect(answer.body.error).toBe(refusal.error);
      for (const name of refusal.names()) expect(message).toContain(name);
      expect(message).toMatch(refusal.next);
      expect(message).not.toMatch(JARGON);
    },
  );
});
