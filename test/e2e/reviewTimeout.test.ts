import { DescribeExecutionCommand, GetExecutionHistoryCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { corpusDocument, readyForReview, uploadToArmedReview, waitForWorkflow } from '../support/e2e.js';
import { startInProcessStack } from '../support/inProcessStack.js';
import { ManualClock } from '../support/manualClock.js';

const TIMEOUT_SECONDS = 3;
const TIMEOUT_MS = TIMEOUT_SECONDS * 1000;
/**
 * Real-time bounds on the document pipeline (parse in a child process, extract, validate), not on
 * the review's timing: a loaded 2-core machine can take half a minute to bring a document to
 * review. Exceeding one fails the test instead of hanging it.
 */
const PIPELINE_MS = 120_000;

/**
 * Time is the test's: the date every handler reads is faked, and the local Step Functions runs
 * heartbeats on a clock that moves it. Nothing here waits for a timeout to happen on its own;
 * the test moves time past it once the review is armed, on however busy a machine.
 */
vi.useFakeTimers({ toFake: ['Date'] });
const clock = new ManualClock(Date.now(), (now) => vi.setSystemTime(now));
let stack: Awaited<ReturnType<typeof startInProcessStack>>;
let alice: string;
let pdf: Uint8Array;

beforeAll(async () => {
  ({
    stack,
    tokens: { alice },
  } = await readyForReview(
    await startInProcessStack({ clock, policy: { reviewTimeoutSeconds: TIMEOUT_SECONDS } }),
    ['alice'],
  ));
  pdf = await (await corpusDocument('contract-0014')).pdf();
}, PIPELINE_MS);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
  vi.useRealTimers();
});

/** Uploads a must-review document; returns once its review waits, with the time it started. */
const toReview = (name: string) =>
  uploadToArmedReview(stack, clock, { name, pdf }, { heartbeatMs: TIMEOUT_MS, pipelineMs: PIPELINE_MS });

/** When the execution's review task timed out, by its history, if it has. */
const taskTimedOutAt = async (executionArn: string | undefined) => {
  const { events = [] } = await stack.sfn.send(
    new GetExecutionHistoryCommand({ executionArn, reverseOrder: true }),
  );
  return events.find((e) => e.type === 'TaskTimedOut')?.timestamp?.getTime();
};

describe(`a review nobody decides (timeout ${TIMEOUT_SECONDS} s)`, () => {
  it(
    'times out: timed_out, the execution fails with Docket.ReviewTimedOut',
    async () => {
      // Prepare
      const { key, id, at } = await toReview('ignored.pdf');

      // Act
      await clock.advanceTo(at + TIMEOUT_MS);
      const done = await waitForWorkflow(stack, 'acme', key, undefined, PIPELINE_MS);

      // Assess
      expect(done.state).toBe('timed_out');
      expect((await stack.store.history(id)).at(-1)).toMatchObject({
        from: 'review_required',
        event: 'review_timeout',
      });
      const execution = await stack.sfn.send(
        new DescribeExecutionCommand({ executionArn: done.executionArn }),
      );
      expect(execution).toMatchObject({ status: 'FAILED', error: 'Docket.ReviewTimedOut' });
    },
    PIPELINE_MS,
  );

  it(
    'is extended by a claim: human activity restarts the window',
    async () => {
      // Prepare
      const { key, id, executionArn, at } = await toReview('claimed.pdf');
      await clock.advanceTo(at + 2_000);

      // Act: claim 2 s in; without it the review would end at 3 s.
      const claim = await stack.api(alice, 'POST', `/reviews/${id}/claim`);
      await clock.advanceTo(at + 3_800);
      const afterFirstDeadline = (await stack.store.get(id)).state;
      const timedOutByFirstDeadline = await taskTimedOutAt(executionArn);
      await clock.advanceTo(at + 2_000 + TIMEOUT_MS);
      const done = await waitForWorkflow(stack, 'acme', key, undefined, PIPELINE_MS);

      // Assess
      expect(claim.status).toBe(200);
      expect(afterFirstDeadline).toBe('review_required');
      expect(timedOutByFirstDeadline).toBeUndefined();
      expect(await taskTimedOutAt(executionArn)).toBe(at + 2_000 + TIMEOUT_MS);
      expect(done.state).toBe('timed_out');
      expect(Date.parse(done.stateEnteredAt) - at).toBeGreaterThan(4_500);
    },
    PIPELINE_MS,
  );

  it(
    'answers a decision after the timeout with 410 and changes nothing',
    async () => {
      const { key, id, at } = await toReview('late.pdf');
      await clock.advanceTo(at + TIMEOUT_MS);
      const timedOut = await waitForWorkflow(stack, 'acme', key, undefined, PIPELINE_MS);
      const late = await stack.api(alice, 'POST', `/reviews/${id}/decision`, { decision: 'approve' });
      expect(late.status).toBe(410);
      const after = await stack.store.get(id);
      expect(after).toMatchObject({ state: 'timed_out', version: timedOut.version });
      expect(after.review?.decision).toBeUndefined();
    },
    PIPELINE_MS,
  );
});
