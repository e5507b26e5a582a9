import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  corpusDocument,
  eventually,
  importCorpusProviders,
  upload,
  uploadToArmedReview,
  waitForReviewToken,
  waitForWorkflow,
} from '../support/e2e.js';
import { startInProcessStack } from '../support/inProcessStack.js';
import { ManualClock } from '../support/manualClock.js';

/*
 * Review policies on the local stack: a folder with one policy (four-eyes above 10,000, an
 * escalation to a manager, a notification to finance), compiled into the definition the runtime
 * runs. Time is the test's: step timeouts fall due when the test moves the clock.
 */

const STEP_SECONDS = 3;
/** The policy's timeout: the whole review, however often it escalates. */
const REVIEW_SECONDS = 20;
/** Real-time bound on a document reaching review on a loaded machine (not on review timing). */
const PIPELINE_MS = 120_000;

const POLICY = `
name: four-eyes
version: 2
timeout: ${REVIEW_SECONDS}s
start: review
steps:
  - id: review
    type: approval
    role: reviewer
    timeout: ${STEP_SECONDS}s
    on_timeout: manager
    transitions:
      - { on: approve, when: total > 10000, to: tell-finance }
      - { on: approve, to: approved }
      - { on: reject, to: rejected }
  - id: manager
    type: approval
    role: manager
    timeout: 1h
    transitions:
      - { on: approve, to: approved }
      - { on: reject, to: rejected }
  - id: tell-finance
    type: notification
    channel: finance
    message: "Document {id} for {total} waits for finance"
    next: finance
  - id: finance
    type: approval
    role: finance
    distinct_from: [review, manager]
    transitions:
      - { on: approve, to: approved }
      - { on: reject, to: rejected }
  - { id: approved, type: terminal, outcome: approved }
  - { id: rejected, type: terminal, outcome: rejected }
`;

vi.useFakeTimers({ toFake: ['Date'] });
const clock = new ManualClock(Date.now(), (now) => vi.setSystemTime(now));
let stack: Awaited<ReturnType<typeof startInProcessStack>>;
const tokens: Record<'alice' | 'bob' | 'carol', string> = { alice: '', bob: '', carol: '' };

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docket-policies-'));
  await writeFile(join(dir, 'four-eyes.yaml'), POLICY);
  stack = await startInProcessStack({ clock, reviewPolicies: dir });
  await importCorpusProviders(stack);
  // alice reviews and is in finance too: four-eyes, not her role, keeps her from the second step.
  tokens.alice = await stack.token('alice', 'reviewer', 'acme', ['finance']);
  tokens.bob = await stack.token('bob', 'reviewer', 'acme', ['finance']);
  tokens.carol = await stack.token('carol', 'reviewer', 'acme', ['manager']);
}, PIPELINE_MS);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
  vi.useRealTimers();
});

/** The review's step as the item records it, once the review Task holds its token at that step. */
const armedAt = (id: string, step: string) =>
  eventually(
    `${id} to wait at step ${step}`,
    async () => {
      const item = await waitForReviewToken(stack, id, PIPELINE_MS);
      return item.review?.step?.step === step ? item : undefined;
    },
    { timeoutMs: PIPELINE_MS },
  );

/**
 * Uploads a must-review corpus document, lets its first step's 3 s pass on the test's clock, and
 * returns once the review waits at the manager's step, with the time the first step began.
 */
const escalatedToManager = async (document: string, name: string) => {
  const pdf = await (await corpusDocument(document)).pdf();
  const { key, id, at } = await uploadToArmedReview(
    stack,
    clock,
    { name, pdf },
    { heartbeatMs: STEP_SECONDS * 1000, pipelineMs: PIPELINE_MS },
  );
  await clock.advanceTo(at + STEP_SECONDS * 1000);
  return { key, id, at, escalated: await armedAt(id, 'manager') };
};

/** The notification events of a workflow in the local event sink. */
const notificationsOf = async (id: string) => {
  const text = await readFile(stack.endpoints.eventSink, 'utf8').catch(() => '');
  // Only whole lines: the runtime may be appending an event while this reads.
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).event as { 'detail-type': string; detail: Record<string, string> })
    .filter((e) => e['detail-type'] === 'Docket Review Notification' && e.detail.workflowId === id);
};

describe('a review policy with four-eyes, escalation and a notification (local stack)', () => {
  it(
    'asks a second, distinct approver for a high-value document, refuses the first one twice, keeps both corrections, and notifies finance',
    async () => {
      // Prepare: a must-review contract worth 34,552.80 EUR
      const pdf = await (await corpusDocument('contract-0014')).pdf();
      const key = await upload(stack, 'acme', 'four-eyes.pdf', pdf);
      const { id } = await waitForWorkflow(stack, 'acme', key, ['review_required'], PIPELINE_MS);
      await armedAt(id, 'review');

      // Act
      const first = await stack.api(tokens.alice, 'POST', `/reviews/${id}/decision`, {
        decision: 'correct',
        corrections: { contractNumber: 'C-ALICE-1' },
      });
      const atFinance = await armedAt(id, 'finance');
      const again = await stack.api(tokens.alice, 'POST', `/reviews/${id}/decision`, { decision: 'approve' });
      const byManager = await stack.api(tokens.carol, 'POST', `/reviews/${id}/decision`, {
        decision: 'approve',
      });
      const second = await stack.api(tokens.bob, 'POST', `/reviews/${id}/decision`, {
        decision: 'correct',
        corrections: { customer: 'Bob Corrected GmbH' },
      });
      const done = await waitForWorkflow(stack, 'acme', key, ['completed'], PIPELINE_MS);

      // Assess
      expect(first.status).toBe(200);
      expect(atFinance.review?.step).toMatchObject({
        policy: 'four-eyes',
        version: 2,
        step: 'finance',
        role: 'finance',
      });
      expect(again.status).toBe(403);
      expect((again.body as { message: string }).message).toMatch(
        /Four-eyes: alice decided step review of this document .* policy four-eyes asks someone else to decide step finance/,
      );
      expect(byManager.status).toBe(403);
      expect((byManager.body as { message: string }).message).toMatch(
        /decided by the finance role; carol has/,
      );
      expect(second.status).toBe(200);
      expect(done.state).toBe('completed');
      const decisions = (await stack.store.history(id)).filter((e) => e.from === 'review_required');
      // Each step's corrections go on top of the step before's: the record has both.
      const { Body } = await stack.s3.send(
        new GetObjectCommand({ Bucket: stack.endpoints.bucket, Key: done.artifacts?.reviewed }),
      );
      const record = JSON.parse(
        await (Body as { transformToString: () => Promise<string> }).transformToString(),
      );
      expect(record.fields.contractNumber).toMatchObject({ value: 'C-ALICE-1', corrected: true });
      expect(record.fields.customer).toMatchObject({ value: 'Bob Corrected GmbH', corrected: true });
      expect(decisions.map((e) => [e.event, e.actor, e.metadata?.step])).toEqual([
        ['step_decided', 'alice', 'review'],
        ['approve', 'bob', 'finance'],
      ]);
      expect(decisions[0]?.metadata).toMatchObject({
        policy: 'four-eyes',
        next: 'finance',
        when: 'total > 10000',
      });
      const sent = await eventually('the finance notification', async () => {
        const events = await notificationsOf(id);
        return events.length > 0 ? events : undefined;
      });
      expect(sent).toHaveLength(1);
      expect(sent[0]?.detail).toMatchObject({
        channel: 'finance',
        policy: 'four-eyes',
        step: 'tell-finance',
        actor: 'alice',
        message: `Document ${id} for 34552.80 EUR waits for finance`,
      });
    },
    PIPELINE_MS * 2,
  );

  it(
    'escalates a review nobody decides to the manager, who completes it from the top of the queue',
    async () => {
      // Act: a second must-review document waits at the first step until its 3 s pass
      const { key, id, escalated } = await escalatedToManager('contract-0022', 'escalated.pdf');
      const queue = await stack.api(tokens.carol, 'GET', '/reviews');
      const decided = await stack.api(tokens.carol, 'POST', `/reviews/${id}/decision`, {
        decision: 'approve',
      });
      const done = await waitForWorkflow(stack, 'acme', key, ['completed'], PIPELINE_MS);

      // Assess
      expect(escalated.review?.step).toMatchObject({ step: 'manager', escalatedFrom: 'review' });
      // The queue's sort key puts an escalated review above every priority validation gives (0-100).
      expect((escalated as { reviewRank?: string }).reviewRank).toMatch(/^999#/);
      const listed = (queue.body as { items: { id: string; step?: { escalatedFrom: string | null } }[] })
        .items;
      expect(listed[0]).toMatchObject({ id, step: { escalatedFrom: 'review' } });
      expect(decided.status).toBe(200);
      expect(done.state).toBe('completed');
      const log = (await stack.store.history(id)).filter((e) => e.from === 'review_required');
      expect(log.map((e) => [e.event, e.actor])).toEqual([
        ['escalate', 'system'],
        ['approve', 'carol'],
      ]);
      expect(log[0]?.metadata).toMatchObject({ policy: 'four-eyes', from: 'review', to: 'manager' });
    },
    PIPELINE_MS * 2,
  );

  it(
    "ends a review timed_out when the policy's whole-review timeout passes, even after an escalation",
    async () => {
      // Prepare: a third document escalates at 3 s; the manager's step would last an hour
      const { key, id, at } = await escalatedToManager('contract-0030', 'abandoned.pdf');

      // Act: the manager's heartbeat is cut to what is left of the 20 s
      await clock.armedAt(at + REVIEW_SECONDS * 1000);
      await clock.advanceTo(at + REVIEW_SECONDS * 1000);
      const done = await waitForWorkflow(stack, 'acme', key, ['timed_out'], PIPELINE_MS);

      // Assess
      expect(done.state).toBe('timed_out');
      expect(done.review?.policyDueAt).toBe(new Date(at + REVIEW_SECONDS * 1000).toISOString());
      const log = (await stack.store.history(id)).filter((e) => e.from === 'review_required');
      expect(log.map((e) => [e.event, e.actor])).toEqual([
        ['escalate', 'system'],
        ['review_timeout', 'system'],
      ]);
    },
    PIPELINE_MS * 2,
  );
});
