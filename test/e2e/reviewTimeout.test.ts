import { DescribeExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDocument, eventually, startReviewStack, upload, waitForWorkflow } from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';

const TIMEOUT_SECONDS = 3;
let stack: LocalStack;
let alice: string;

beforeAll(async () => {
  ({
    stack,
    tokens: { alice },
  } = await startReviewStack(['alice'], {
    env: { DOCKET_REVIEW_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) },
  }));
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

const toReview = async (name: string) => {
  const key = await upload(stack, 'acme', name, await (await corpusDocument('contract-0014')).pdf());
  const item = await waitForWorkflow(stack, 'acme', key, ['review_required']);
  await eventually('the review token', async () =>
    (await stack.store.get(item.id)).reviewTaskToken ? true : undefined,
  );
  return { key, id: item.id, at: Date.now() };
};

describe(`a review nobody decides (timeout ${TIMEOUT_SECONDS} s)`, () => {
  it('times out: timed_out, the execution fails with Docket.ReviewTimedOut', async () => {
    // Prepare
    const { key, id } = await toReview('ignored.pdf');

    // Act
    const done = await waitForWorkflow(stack, 'acme', key, undefined, 20_000);

    // Assess
    expect(done.state).toBe('timed_out');
    expect((await stack.store.history(id)).at(-1)).toMatchObject({
      from: 'review_required',
      event: 'review_timeout',
    });
    const execution = await stack.sfn.send(new DescribeExecutionCommand({ executionArn: done.executionArn }));
    expect(execution).toMatchObject({ status: 'FAILED', error: 'Docket.ReviewTimedOut' });
  });

  it('is extended by a claim: human activity restarts the window', async () => {
    // Prepare
    const { key, id, at } = await toReview('claimed.pdf');
    await new Promise((r) => setTimeout(r, 2_000));

    // Act: claim 2 s in; without it the review would end at 3 s.
    const claim = await stack.api(alice, 'POST', `/reviews/${id}/claim`);
    await new Promise((r) => setTimeout(r, Math.max(0, at + 3_800 - Date.now())));
    const afterFirstDeadline = (await stack.store.get(id)).state;
    const done = await waitForWorkflow(stack, 'acme', key, undefined, 20_000);

    // Assess
    expect(claim.status).toBe(200);
    expect(afterFirstDeadline).toBe('review_required');
    expect(done.state).toBe('timed_out');
    expect(Date.parse(done.stateEnteredAt) - at).toBeGreaterThan(4_500);
  });

  it('answers a decision after the timeout with 410 and changes nothing', async () => {
    const { key, id } = await toReview('late.pdf');
    const timedOut = await waitForWorkflow(stack, 'acme', key, undefined, 20_000);
    const late = await stack.api(alice, 'POST', `/reviews/${id}/decision`, { decision: 'approve' });
    expect(late.status).toBe(410);
    const after = await stack.store.get(id);
    expect(after).toMatchObject({ state: 'timed_out', version: timedOut.version });
    expect(after.review?.decision).toBeUndefined();
  });
});
