import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSnapshot } from '../../../lambdas/shared/ledgerSnapshots/index.js';
import { runOnSchedule } from '../../../local/events/schedule.js';
import { loadHandler } from '../../../local/lambdas/registry.js';
import { startStageEnvironment } from '../../support/stageEnvironment.js';

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
beforeAll(async () => {
  env = await startStageEnvironment();
});
afterAll(async () => {
  await env?.close();
});

/** A timer the test fires by hand: no waiting on the clock. */
const manualTimer = () => {
  let fire: (() => void) | undefined;
  return {
    setTimer: (fn: () => void) => {
      fire = fn;
      return () => {
        fire = undefined;
      };
    },
    fire: () => fire?.(),
  };
};

describe('the local runtime’s ledger snapshot schedule', () => {
  it('runs the ledger-snapshot function on each tick, one at a time, writing a checked snapshot per tenant', async () => {
    // Prepare: two tenants with a workflow each.
    for (const tenant of ['north', 'south']) {
      const { workflow } = await env.store.create({ tenant, idempotencyKey: `sched-${tenant}` });
      await env.store.transition(workflow.id, { event: 'start_parse' });
    }
    const timer = manualTimer();
    const schedule = runOnSchedule({
      handler: await loadHandler('ledger-snapshot'),
      functionName: 'docket-ledger-snapshot',
      everyMs: 15 * 60_000,
      onError: (error) => {
        throw error;
      },
      setTimer: timer.setTimer,
    });

    // Act: two ticks at once (the second finds the first running and is skipped), then stop.
    timer.fire();
    timer.fire();
    await schedule.stop();
    const { Contents = [] } = await env.s3.send(
      new ListObjectsV2Command({ Bucket: env.bucket, Prefix: 'ledger/snapshots/' }),
    );
    const snapshots = await Promise.all(
      Contents.map((o) => openSnapshot(env.s3, env.bucket, o.Key as string)),
    );

    // Assess
    expect(snapshots.map((s) => [s.header.tenant, s.workflows]).sort()).toEqual([
      ['north', 1],
      ['south', 1],
    ]);
  });
});
