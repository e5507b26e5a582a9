import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docket } from '../cli/support/runDocket.js';
import {
  corpusDocument,
  eventually,
  readyForReview,
  upload,
  waitForWorkflow,
  workflowsForKey,
} from '../support/e2e.js';
import { startInProcessStack } from '../support/inProcessStack.js';
import { ManualClock } from '../support/manualClock.js';

/** Real-time bound on the document pipeline on a busy 2-core machine; the backoff is the clock's. */
const PIPELINE_MS = 120_000;
const BACKOFF_MS = 10_000;

// The retry backoff waits on this clock: it ends when the test moves it, never on its own.
const clock = new ManualClock(Date.now());
let stack: Awaited<ReturnType<typeof startInProcessStack>>;

beforeAll(async () => {
  ({ stack } = await readyForReview(await startInProcessStack({ clock, faults: { extract: 1 } }), []));
}, PIPELINE_MS);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

const eventTypes = async (executionArn: string | undefined) =>
  (
    (await stack.sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events ?? []
  ).map((e) => e.type);

describe('docket retry of a workflow whose execution was stopped mid-stage', () => {
  it(
    'redrives that execution: one ARN, the finished stages not run again, the document completed',
    async () => {
      // Prepare: extract fails once; the execution is stopped in its retry backoff.
      const pdf = await (await corpusDocument('contract-0000')).pdf();
      const key = await upload(stack, 'acme', 'stopped.pdf', pdf);
      const waiting = await eventually(
        'the retry backoff',
        async () => {
          const [item] = await workflowsForKey(stack, 'acme', key);
          if (item?.state !== 'extracting' || item.retryCount !== 1) return undefined;
          return (await eventTypes(item.executionArn)).at(-1) === 'WaitStateEntered' ? item : undefined;
        },
        { timeoutMs: PIPELINE_MS },
      );
      await stack.sfn.send(new StopExecutionCommand({ executionArn: waiting.executionArn }));

      // Act
      const retry = await docket(['--data-dir', stack.dataDir, 'retry', waiting.id, '--json']);
      await clock.armedAt(clock.now() + BACKOFF_MS);
      await clock.advance(BACKOFF_MS);
      const done = await waitForWorkflow(stack, 'acme', key, ['completed'], PIPELINE_MS);

      // Assess
      expect(retry.code).toBe(0);
      expect(retry.json()).toEqual({
        workflowId: waiting.id,
        executionArn: waiting.executionArn,
        resumeAt: 'extracting',
        method: 'redrive',
      });
      expect(done.executionArn).toBe(waiting.executionArn);
      const execution = await stack.sfn.send(
        new DescribeExecutionCommand({ executionArn: done.executionArn }),
      );
      expect(execution).toMatchObject({ status: 'SUCCEEDED', redriveCount: 1 });
      const types = await eventTypes(done.executionArn);
      expect(types.filter((t) => t === 'ExecutionAborted')).toHaveLength(1);
      expect(types.filter((t) => t === 'ExecutionRedriven')).toHaveLength(1);
      const log = (await stack.store.history(done.id)).map((e) => e.event);
      expect(log).toEqual([
        'start_parse',
        'parsed',
        'fail',
        'retry',
        'extracted',
        'validation_completed',
        'start_compare',
        'compared',
      ]);
    },
    PIPELINE_MS * 2,
  );
});
