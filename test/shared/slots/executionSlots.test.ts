import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCounts, resetCallCounts } from '../../../lambdas/shared/callCount.js';
import { ExecutionSlots } from '../../../lambdas/shared/slots/index.js';
import { createTableInput, WORKFLOWS_TABLE } from '../../../lambdas/shared/store/index.js';
import { startStoreFixture } from '../../support/localDynamo.js';

let fixture: Awaited<ReturnType<typeof startStoreFixture>>;
let tableNumber = 0;

beforeAll(async () => {
  fixture = await startStoreFixture();
});
afterAll(async () => {
  await fixture.close();
});

/**
 * Slots on a workflows table of their own: each test starts with none held. The table is created
 * from the same spec as the runtime's, through dynalite.
 */
const slotsWith = async (limit: number, now?: () => Date) => {
  const table = `slots-test-${tableNumber++}`;
  await fixture.createTable(createTableInput(WORKFLOWS_TABLE, table));
  return new ExecutionSlots({ client: fixture.client, table, limit, ...(now && { now }) });
};

describe('ExecutionSlots on dynalite', () => {
  it('takes up to the limit, then reports full, and a release frees one', async () => {
    // Prepare
    const slots = await slotsWith(2);

    // Act
    const results = [await slots.take('a'), await slots.take('b'), await slots.take('c')];
    const released = await slots.release('a');
    const afterRelease = await slots.take('c');

    // Assess
    expect(results).toEqual(['taken', 'taken', 'full']);
    expect(released).toBe(true);
    expect(afterRelease).toBe('taken');
    expect((await slots.holders()).map((h) => h.name).sort()).toEqual(['b', 'c']);
  });

  it('answers held for a name that already holds a slot, even when all are held', async () => {
    // Prepare
    const slots = await slotsWith(1);
    await slots.take('a');

    // Act
    const again = await slots.take('a');

    // Assess
    expect(again).toBe('held');
    expect(await slots.holders()).toHaveLength(1);
  });

  it('waits for a slot with updates alone: a refused or repeated take reads nothing (issue #18)', async () => {
    // Prepare: every slot held, and the item seen by this instance.
    const slots = await slotsWith(1);
    await slots.take('a');
    resetCallCounts();

    // Act: a starter polling for a slot, and a second delivery of the holder's upload.
    const polls = [await slots.take('b'), await slots.take('b'), await slots.take('a')];

    // Assess: one conditional update each, no GetItem to learn why.
    expect(polls).toEqual(['full', 'full', 'held']);
    expect(callCounts()).toEqual([{ service: 'DynamoDB', operation: 'UpdateItem', calls: 3 }]);
    expect((await slots.holders()).map((h) => h.name)).toEqual(['a']);
  });

  it('releases idempotently: a second release, or one for a name that held nothing, changes nothing', async () => {
    // Prepare
    const slots = await slotsWith(3);
    await slots.take('a');
    await slots.take('b');

    // Act
    const first = await slots.release('a');
    const second = await slots.release('a');
    const never = await slots.release('zzz');

    // Assess
    expect([first, second, never]).toEqual([true, false, false]);
    expect((await slots.holders()).map((h) => h.name)).toEqual(['b']);
  });

  it('never hands out more slots than the limit when many take at once', async () => {
    // Prepare
    const slots = await slotsWith(5);

    // Act
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => slots.take(`e${i}`)));

    // Assess
    expect(results.filter((r) => r === 'taken')).toHaveLength(5);
    expect(results.filter((r) => r === 'full')).toHaveLength(35);
    expect(await slots.holders()).toHaveLength(5);
  });

  it('reconcile releases slots whose execution no longer needs them, past the grace period only', async () => {
    // Prepare: the clock says 'old' was taken 2 min ago and 'young' 10 s ago.
    let now = Date.parse('2026-01-01T00:00:00Z');
    const slots = await slotsWith(10, () => new Date(now));
    await slots.take('old-running');
    await slots.take('old-ended');
    now += 110_000;
    await slots.take('young-ended');
    now += 10_000;

    // Act
    const released = await slots.reconcile(async (name) => name.endsWith('running'), { graceMs: 60_000 });

    // Assess
    expect(released).toEqual(['old-ended']);
    expect((await slots.holders()).map((h) => h.name).sort()).toEqual(['old-running', 'young-ended']);
  });
});
