import { DescribeExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, describe, expect, it } from 'vitest';
import {
  corpusDocument,
  eventually,
  importCorpusProviders,
  upload,
  waitForWorkflow,
  workflowsForKey,
} from '../support/e2e.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';

// Backoff runs at 1/100 of real time: 10 s, 20 s, 40 s become 100, 200, 400 ms.
const TIME_SCALE = 0.01;
const stacks: LocalStack[] = [];
const stackWith = async (faults: string) => {
  const stack = await startLocalStack({
    env: { DOCKET_FAULTS: faults, DOCKET_TIME_SCALE: String(TIME_SCALE) },
  });
  stacks.push(stack);
  await importCorpusProviders(stack);
  return stack;
};

afterAll(async () => {
  for (const stack of stacks) await stack.stop();
  for (const stack of stacks) await stack.remove();
});

describe('a transient fault in one stage (test hook DOCKET_FAULTS)', () => {
  it('is retried at that stage only, after the backoff, and the workflow completes', async () => {
    // Prepare
    const stack = await stackWith('extract=1');

    // Act
    const key = await upload(stack, 'acme', 'flaky.pdf', await (await corpusDocument('contract-0000')).pdf());
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess
    expect(done).toMatchObject({ state: 'completed', retryCount: 1 });
    const log = await stack.store.history(done.id);
    expect(log.map((e) => e.event)).toEqual([
      'start_parse',
      'parsed',
      'fail',
      'retry',
      'extracted',
      'validation_completed',
      'start_compare',
      'compared',
    ]);
    const fail = log.find((e) => e.event === 'fail');
    expect(fail).toMatchObject({ from: 'extracting', error: { type: 'InjectedFault', retryable: true } });
    const retry = log.find((e) => e.event === 'retry');
    expect(retry).toMatchObject({ from: 'failed', to: 'extracting', retryCount: 1 });
    // The backoff is spent back in extracting, between the retry and the stage's next write.
    const afterRetry = log[log.indexOf(retry as (typeof log)[number]) + 1];
    expect(retry?.metadata).toMatchObject({ waitSeconds: 10 });
    expect(afterRetry?.durationMs).toBeGreaterThanOrEqual(10_000 * TIME_SCALE);
  }, 60_000);

  it('rejects after the third retry when the stage fails every time, backing off 10, 20, 40 s', async () => {
    // Prepare
    const stack = await stackWith('extract=-1');

    // Act
    const key = await upload(
      stack,
      'acme',
      'broken.pdf',
      await (await corpusDocument('contract-0002')).pdf(),
    );
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess
    expect(done).toMatchObject({ state: 'rejected', retryCount: 3, lastError: { type: 'InjectedFault' } });
    const log = await stack.store.history(done.id);
    expect(log.map((e) => e.event)).toEqual([
      'start_parse',
      'parsed',
      'fail',
      'retry',
      'fail',
      'retry',
      'fail',
      'retry',
      'fail',
      'give_up',
    ]);
    // Each backoff is spent back in extracting, between a retry and the next failure.
    const waits = log.flatMap((e, i) => (e.event === 'retry' ? [log[i + 1]?.durationMs ?? 0] : []));
    expect(log.filter((e) => e.event === 'retry').map((e) => e.metadata?.waitSeconds)).toEqual([10, 20, 40]);
    expect(waits[0]).toBeGreaterThanOrEqual(10_000 * TIME_SCALE);
    expect(waits[1]).toBeGreaterThanOrEqual(20_000 * TIME_SCALE);
    expect(waits[2]).toBeGreaterThanOrEqual(40_000 * TIME_SCALE);
  }, 60_000);

  it('retries a stage that fails before its first write in place, halts, and a restart finishes it', async () => {
    // Prepare: compare fails before it can move the workflow out of validated.
    const stack = await stackWith('compare=-1');
    const key = await upload(stack, 'acme', 'stuck.pdf', await (await corpusDocument('contract-0004')).pdf());
    const { id } = await eventually(
      'the workflow',
      async () => (await workflowsForKey(stack, 'acme', key))[0],
    );
    const halted = await eventually('compare to give up', async () => {
      const item = await stack.store.get(id);
      return item.entryFailures === 4 ? item : undefined;
    });
    const execution = await eventually('the execution to end', async () => {
      const d = await stack.sfn.send(new DescribeExecutionCommand({ executionArn: halted.executionArn }));
      return d.status === 'RUNNING' ? undefined : d;
    });
    await stack.stop();

    // Act: start again without the fault; recovery resumes what did not finish.
    const restarted = await startLocalStack({ dataDir: stack.dataDir });
    stacks.push(restarted);
    const done = await waitForWorkflow(restarted, 'acme', key);

    // Assess
    expect(halted).toMatchObject({ state: 'validated', lastError: { type: 'InjectedFault' } });
    expect(execution).toMatchObject({ status: 'FAILED', error: 'Docket.ProcessingHalted' });
    expect(done.state).toBe('completed');
    expect(done.entryFailures).toBeUndefined();
    expect((await restarted.store.history(id)).map((e) => e.event).slice(-2)).toEqual([
      'start_compare',
      'compared',
    ]);
  }, 90_000);
});
