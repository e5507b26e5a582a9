import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  type HistoryEvent,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resumeWorkflow } from '../../lambdas/shared/resumeWorkflow.js';
import { synthDocket } from '../infra/support/synthDocket.js';
import { definitionFromTemplate } from '../infra/support/templateDefinition.js';
import {
  corpusDocument,
  eventually,
  readyForReview,
  uploadToArmedReview,
  waitForWorkflow,
} from '../support/e2e.js';
import { startInProcessStack } from '../support/inProcessStack.js';
import { ManualClock } from '../support/manualClock.js';

/** The review timeout the stack is synthesized with (the `reviewTimeout` context value). */
const TIMEOUT_SECONDS = 60;
const TIMEOUT_MS = TIMEOUT_SECONDS * 1000;
/** Real-time bounds on the document pipeline (parse, extract, validate), not on review timing. */
const PIPELINE_MS = 120_000;

/**
 * The definition CloudFormation deploys, taken out of the synthesized template (not from
 * buildDefinition), runs on the local runtime. Time is the test's, as in reviewTimeout.test.ts:
 * handlers read a faked Date and the local Step Functions a clock the test moves.
 */
vi.useFakeTimers({ toFake: ['Date'] });
const clock = new ManualClock(Date.now(), (now) => vi.setSystemTime(now));
let stack: Awaited<ReturnType<typeof startInProcessStack>>;
let alice: string;
let pdf: Uint8Array;
let deployedText = '';

beforeAll(async () => {
  const synth = synthDocket({ context: { reviewTimeout: String(TIMEOUT_SECONDS) } });
  const template = synth.template;
  synth.remove();
  ({
    stack,
    tokens: { alice },
  } = await readyForReview(
    await startInProcessStack({
      clock,
      policy: { reviewTimeoutSeconds: TIMEOUT_SECONDS },
      definition: (arns) => {
        const { text, definition } = definitionFromTemplate(template, arns);
        deployedText = text;
        return definition;
      },
    }),
    ['alice'],
  ));
  pdf = await (await corpusDocument('contract-0014')).pdf();
}, PIPELINE_MS);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
  vi.useRealTimers();
});

const iso = (ms: number) => new Date(ms).toISOString();

/** Uploads a must-review document; returns once its review Task waits, with the time it started. */
const toReview = async (name: string) => {
  const review = await uploadToArmedReview(
    stack,
    clock,
    { name, pdf },
    { heartbeatMs: TIMEOUT_MS, pipelineMs: PIPELINE_MS },
  );
  return { ...review, executionArn: review.executionArn as string };
};

const history = async (executionArn: string): Promise<HistoryEvent[]> =>
  (await stack.sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events ?? [];

/** Stops a review's execution (a crash), lets `ms` pass, and resumes it as `docket retry` does. */
const interruptAndResume = async (id: string, executionArn: string, ms: number) => {
  await stack.sfn.send(new StopExecutionCommand({ executionArn, error: 'Test.Crash' }));
  await clock.advance(ms);
  const resumed = await resumeWorkflow(
    { store: stack.store, sfn: stack.sfn, stateMachineArn: stack.endpoints.stateMachineArn },
    await stack.store.get(id),
  );
  return resumed.executionArn;
};

/** Resolves once the item's review carries the token of a Task armed after `token`. */
const rearmed = (id: string, token: string | undefined) =>
  eventually(
    'the resumed review Task to store its token',
    async () => {
      const item = await stack.store.get(id);
      return item.reviewTaskToken && item.reviewTaskToken !== token ? item : undefined;
    },
    { timeoutMs: PIPELINE_MS },
  );

describe('the definition of the synthesized CDK template, on the local runtime', () => {
  it('is the template text, every function reference resolved to a local function', () => {
    expect(deployedText).toContain('"HeartbeatSecondsPath":"$.reviewWindow.heartbeatSeconds"');
    expect(deployedText).toContain(':function:docket-request-review"');
    expect(deployedText).not.toContain('${');
  });

  it(
    'runs the review path: upload, review_required, claim, decision, completed',
    async () => {
      // Prepare
      const { key, id, at } = await toReview('reviewed.pdf');
      const armed = await stack.store.get(id);

      // Act
      await clock.advanceTo(at + 5_000);
      const claim = await stack.api(alice, 'POST', `/reviews/${id}/claim`);
      const decision = await stack.api(alice, 'POST', `/reviews/${id}/decision`, { decision: 'approve' });
      const done = await waitForWorkflow(stack, 'acme', key, ['completed'], PIPELINE_MS);

      // Assess
      expect(armed.review).toMatchObject({ dueAt: iso(at + TIMEOUT_MS), heartbeatSeconds: TIMEOUT_SECONDS });
      expect(claim.status).toBe(200);
      expect(decision.status).toBe(200);
      expect(done.state).toBe('completed');
      const execution = await stack.sfn.send(
        new DescribeExecutionCommand({ executionArn: done.executionArn }),
      );
      expect(execution.status).toBe('SUCCEEDED');
    },
    PIPELINE_MS,
  );

  it(
    'resumes a review with what was left of it, and still agrees with the API after a claim',
    async () => {
      // Prepare: 20 s into the review its execution dies; it is resumed with 40 s left.
      const { key, id, executionArn, at } = await toReview('resumed.pdf');
      const before = await stack.store.get(id);
      const resumedArn = await interruptAndResume(id, executionArn, 20_000);
      const resumed = await rearmed(id, before.reviewTaskToken);

      // Act: a claim 10 s after the resume re-arms the 40 s heartbeat the resumed Task started with.
      await clock.armedAt(at + TIMEOUT_MS);
      await clock.advanceTo(at + 30_000);
      const claim = await stack.api(alice, 'POST', `/reviews/${id}/claim`);
      const claimedDue = at + 30_000 + 40_000;
      await clock.armedAt(claimedDue);
      await clock.advanceTo(claimedDue - 1);
      const stillOpen = (await stack.store.get(id)).state;
      await clock.advanceTo(claimedDue);
      const done = await waitForWorkflow(stack, 'acme', key, ['timed_out'], PIPELINE_MS);
      const late = await stack.api(alice, 'POST', `/reviews/${id}/decision`, { decision: 'approve' });

      // Assess: the resumed Task's heartbeat and the API's due time fall on the same instant,
      // before and after the claim.
      const events = await history(resumedArn);
      const scheduled = events.find((e) => e.type === 'TaskScheduled')?.taskScheduledEventDetails;
      expect(scheduled?.heartbeatInSeconds).toBe(40);
      expect(resumed.review).toMatchObject({ dueAt: iso(at + TIMEOUT_MS), heartbeatSeconds: 40 });
      expect(claim.status).toBe(200);
      expect(claim.body.dueAt).toBe(iso(claimedDue));
      expect(stillOpen).toBe('review_required');
      expect(events.find((e) => e.type === 'TaskTimedOut')?.timestamp?.getTime()).toBe(claimedDue);
      expect(done.state).toBe('timed_out');
      expect(late.status).toBe(410);
    },
    PIPELINE_MS,
  );

  it(
    'times a review out at once on resume when its time ran out while nothing ran',
    async () => {
      // Prepare: the execution dies 10 s in; nothing runs until 5 s past the due time.
      const { key, id, executionArn, at } = await toReview('expired.pdf');
      const stoppedAt = at + 10_000;
      await clock.advanceTo(stoppedAt);

      // Act
      const resumedArn = await interruptAndResume(id, executionArn, TIMEOUT_MS - 10_000 + 5_000);
      const done = await waitForWorkflow(stack, 'acme', key, ['timed_out'], PIPELINE_MS);

      // Assess: no review Task, no time moved, the same outcome as a heartbeat timeout.
      const execution = await stack.sfn.send(new DescribeExecutionCommand({ executionArn: resumedArn }));
      expect(execution).toMatchObject({ status: 'FAILED', error: 'Docket.ReviewTimedOut' });
      const entered = (await history(resumedArn)).flatMap((e) => e.stateEnteredEventDetails?.name ?? []);
      expect(entered).toContain('ReviewExpired');
      expect(entered).not.toContain('RequestReview');
      expect(Date.parse(done.stateEnteredAt)).toBe(at + TIMEOUT_MS + 5_000);
      expect((await stack.store.history(id)).at(-1)).toMatchObject({ event: 'review_timeout' });
    },
    PIPELINE_MS,
  );
});
