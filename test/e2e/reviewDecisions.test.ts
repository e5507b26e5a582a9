import { SendTaskSuccessCommand, type SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDecimals } from '../../lambdas/shared/documents/index.js';
import type { Principal } from '../../lambdas/shared/principal.js';
import { resumeWorkflow } from '../../lambdas/shared/resumeWorkflow.js';
import {
  claimReview,
  DELIVERY_GRACE_MS,
  decideReview,
  type ReviewDeps,
  recordDecision,
} from '../../lambdas/shared/review/index.js';
import type { WorkflowStore } from '../../lambdas/shared/store/index.js';
import { letterPdf } from '../fixtures/textPdfs.js';
import { corpusDocument, eventually, startReviewStack, upload, waitForWorkflow } from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';
import { StoreWithRival } from '../support/storeWithRival.js';

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

/** Uploads a must-review corpus document and waits until a reviewer can decide it. */
const inReview = async (docId: string, name: string) => {
  const key = await upload(stack, 'acme', name, await (await corpusDocument(docId)).pdf());
  const item = await waitForWorkflow(stack, 'acme', key, ['review_required', 'completed', 'rejected']);
  expect(item.state).toBe('review_required');
  const ready = await eventually(`${name} to have its review token`, async () => {
    const current = await stack.store.get(item.id);
    return current.reviewTaskToken ? current : undefined;
  });
  return { key, id: item.id, item: ready };
};

/** The review service in this process, on the stack's DynamoDB, S3 and Step Functions. */
const serviceOn = (store: WorkflowStore): ReviewDeps => ({
  store,
  s3: stack.s3,
  sfn: stack.sfn,
  bucket: stack.endpoints.bucket,
  now: () => new Date(),
});

const rivalStore = () => new StoreWithRival({ client: stack.documentClient, tables: stack.endpoints.tables });

const reviewer = (user: string): Principal => ({ user, roles: ['reviewer'], tenant: 'acme' });

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
    await eventually('the letter to have its review token', async () =>
      (await stack.store.get(item.id)).reviewTaskToken ? true : undefined,
    );

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
