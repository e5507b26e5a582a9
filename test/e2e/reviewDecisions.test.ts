import { SendTaskSuccessCommand, type SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDecimals } from '../../lambdas/shared/documents/index.js';
import { resumeWorkflow } from '../../lambdas/shared/resumeWorkflow.js';
import {
  claimReview,
  DELIVERY_GRACE_MS,
  decideReview,
  recordDecision,
} from '../../lambdas/shared/review/index.js';
import { letterPdf } from '../fixtures/textPdfs.js';
import { eventually, startReviewStack, upload, waitForReviewToken, waitForWorkflow } from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';
import { reviewer, reviewHelpers } from '../support/reviewHelpers.js';

let stack: LocalStack;
let alice: string;

beforeAll(async () => {
  ({
    stack,
    tokens: { alice },
  } = await startReviewStack(['alice', 'bob']));
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

const { inReview, serviceOn, rivalStore } = reviewHelpers(() => stack);

describe('the PDF link of a review', () => {
  it('is for the object version the workflow was started for, not whatever the key holds now', async () => {
    // Prepare: the local S3 keeps no versions, so the version id is set as a versioned bucket's event sets it.
    const { id } = await inReview('contract-0022', 'versioned.pdf');
    await stack.store.update(id, { 'source.versionId': 'v-started-with' });

    // Act
    const review = await stack.api(alice, 'GET', `/reviews/${id}`);

    // Assess
    expect(review.status).toBe(200);
    expect(new URL(review.body.pdfUrl as string).searchParams.get('versionId')).toBe('v-started-with');
  });
});

describe('a decision', () => {
  it('is sent with the task token of the decision write, so a review re-armed meanwhile completes', async () => {
    // Prepare: alice's request reads the review; before its decision write the workflow is
    // resumed in a new execution (as a retry or a restart does), whose request-review stores a
    // new token; the old execution and its token are gone.
    const { key, id, item } = await inReview('contract-0014', 'rearmed.pdf');
    const store = rivalStore();
    store.rival = async () => {
      await stack.sfn.send(
        new StopExecutionCommand({ executionArn: item.executionArn, error: 'Test.Rearm', cause: 'resume' }),
      );
      await resumeWorkflow(
        { store: stack.store, sfn: stack.sfn, stateMachineArn: stack.endpoints.stateMachineArn },
        await stack.store.get(id),
      );
      await eventually('the resumed review to store a new token', async () => {
        const token = (await stack.store.get(id)).reviewTaskToken;
        return token && token !== item.reviewTaskToken ? token : undefined;
      });
    };

    // Act
    const decided = await decideReview(serviceOn(store), reviewer('alice'), id, { decision: 'approve' });
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess
    expect(decided.decision).toMatchObject({ decision: 'approve', reviewer: 'alice' });
    expect(done.state).toBe('completed');
    expect((await stack.store.history(id)).find((e) => e.event === 'approve')).toMatchObject({
      actor: 'alice',
    });
  });

  it('is not undone when request-review delivered it to a review re-armed after the decision write', async () => {
    // Prepare: alice's decision is written with the old token; before her SendTaskSuccess the
    // workflow is resumed, and its request-review finds the decision and delivers it itself. Her
    // own SendTaskSuccess then finds the old task gone.
    const { key, id, item } = await inReview('contract-0014', 'redelivered.pdf');
    let rivalRan = false;
    const sfn = {
      send: async (command: Parameters<typeof stack.sfn.send>[0]) => {
        if (command instanceof SendTaskSuccessCommand && !rivalRan) {
          rivalRan = true;
          await stack.sfn.send(
            new StopExecutionCommand({
              executionArn: item.executionArn,
              error: 'Test.Rearm',
              cause: 'resume',
            }),
          );
          await resumeWorkflow(
            { store: stack.store, sfn: stack.sfn, stateMachineArn: stack.endpoints.stateMachineArn },
            await stack.store.get(id),
          );
          await eventually('request-review to deliver the recorded decision', async () =>
            (await stack.store.get(id)).review?.redeliveredAt ? true : undefined,
          );
        }
        return stack.sfn.send(command as never);
      },
    } as unknown as SFNClient;

    // Act
    const decided = await decideReview({ ...serviceOn(stack.store), sfn }, reviewer('alice'), id, {
      decision: 'approve',
    });
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess: a 200 for the decision that went through, which the item still records.
    expect(rivalRan).toBe(true);
    expect(decided.decision).toMatchObject({ decision: 'approve', reviewer: 'alice' });
    expect(done.state).toBe('completed');
    expect(done.review?.decision).toMatchObject({ decision: 'approve', reviewer: 'alice' });
  });

  it('whose delivery a crash cut off is sent by the next request that meets it, once its own request is over', async () => {
    // Prepare: the API recorded alice's approve and died before SendTaskSuccess.
    const { key, id } = await inReview('invoice-0031', 'delivery-lost.pdf');
    const decision = {
      decision: 'reject' as const,
      reason: 'duplicate',
      reviewer: 'alice',
      at: new Date().toISOString(),
    };
    await recordDecision(stack.store, { id, tenant: 'acme' }, decision);
    const at = (ms: number) => ({
      ...serviceOn(stack.store),
      now: () => new Date(Date.parse(decision.at) + ms),
    });

    // Act: bob's claim within the grace (the recording request might still be running), then after it.
    const early = await claimReview(at(DELIVERY_GRACE_MS - 1000), reviewer('bob'), id).catch(
      (e: unknown) => e,
    );
    const afterEarly = await stack.store.get(id);
    const late = await claimReview(at(DELIVERY_GRACE_MS + 1000), reviewer('bob'), id).catch(
      (e: unknown) => e,
    );
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess: both claims meet the decision (409); only the late one sends it, and the workflow goes on.
    expect(early).toMatchObject({ statusCode: 409 });
    expect(afterEarly.review?.deliveredAt).toBeUndefined();
    expect(late).toMatchObject({
      statusCode: 409,
      message: expect.stringMatching(/alice already decided "reject"/),
    });
    expect(done.state).toBe('rejected');
    expect(done.review?.deliveredAt).toEqual(expect.any(String));
    expect((await stack.store.history(id)).at(-1)).toMatchObject({ event: 'reject', actor: 'alice' });
  });

  it('refuses a correction that puts the expiration before the effective date (422 saying why, with the dates)', async () => {
    // Prepare
    const { id } = await inReview('contract-0014', 'dates-corrected.pdf');
    const review = await stack.api(alice, 'GET', `/reviews/${id}`);
    const effective = (review.body.fields as Record<string, { value: string }>).effectiveDate
      ?.value as string;
    const dayBefore = new Date(Date.parse(effective) - 86_400_000).toISOString().slice(0, 10);

    // Act
    const refused = await stack.api(alice, 'POST', `/reviews/${id}/decision`, {
      decision: 'correct',
      corrections: { expirationDate: dayBefore },
    });

    // Assess
    expect(refused.status).toBe(422);
    // For people: the values and the rule in words; the code stays for machines in details.
    expect(refused.body.message).toContain(`is not after the effective date ${effective}`);
    expect(refused.body.message).not.toMatch(/dates_out_of_order/);
    expect(refused.body.details).toMatchObject({
      rules: [expect.objectContaining({ code: 'dates_out_of_order' })],
      issues: expect.arrayContaining([expect.objectContaining({ field: 'expirationDate' })]),
    });
    expect((await stack.store.get(id)).review?.decision).toBeUndefined();
  });

  it('refuses corrected totals that do not add up, and takes the correction that makes them add up', async () => {
    // Prepare: this invoice's stated total is not subtotal + tax.
    const { key, id } = await inReview('invoice-0015', 'totals-corrected.pdf');
    const review = await stack.api(alice, 'GET', `/reviews/${id}`);
    const fields = review.body.fields as Record<string, { value: string } | undefined>;
    const sum = addDecimals([fields.subtotal?.value ?? '0', fields.tax?.value ?? '0']);

    // Act
    const wrong = await stack.api(alice, 'POST', `/reviews/${id}/decision`, {
      decision: 'correct',
      corrections: { total: addDecimals([sum, '1']) },
    });
    const decidedAfterWrong = (await stack.store.get(id)).review?.decision;
    const right = await stack.api(alice, 'POST', `/reviews/${id}/decision`, {
      decision: 'correct',
      corrections: { total: sum },
    });
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toContain(`but the total is ${addDecimals([sum, '1'])}`);
    expect(wrong.body.message).not.toMatch(/totals_mismatch/);
    expect(decidedAfterWrong).toBeUndefined();
    expect(right.status).toBe(200);
    expect(done.state).toBe('completed');
  });
});

describe('a readable document of no known type', () => {
  it('waits for a person as unclassified, who must choose its type; the chosen type and fields complete it', async () => {
    // Prepare
    const key = await upload(stack, 'acme', 'letter.pdf', await letterPdf());
    const item = await waitForWorkflow(stack, 'acme', key, ['review_required', 'completed', 'rejected']);
    await waitForReviewToken(stack, item.id);

    // Act
    const review = await stack.api(alice, 'GET', `/reviews/${item.id}`);
    const untyped = await stack.api(alice, 'POST', `/reviews/${item.id}/decision`, { decision: 'approve' });
    const typed = await stack.api(alice, 'POST', `/reviews/${item.id}/decision`, {
      decision: 'correct',
      docType: 'invoice',
      corrections: {
        invoiceNumber: 'L-1',
        vendor: 'Acme Logistics Inc',
        invoiceDate: '2025-01-02',
        currency: 'EUR',
        total: '12.00',
      },
    });
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess
    expect(item.state).toBe('review_required');
    expect(review.body.docType).toBe('unclassified');
    expect(item.review?.reasons.map((r) => r.code)).toEqual(['unclassified']);
    expect(untyped.status).toBe(422);
    expect(untyped.body.message).toMatch(/choose its type/);
    expect(typed.status).toBe(200);
    expect(done.state).toBe('completed');
    expect(done.docType).toBe('invoice');
  });
});
