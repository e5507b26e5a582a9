import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewQueueStats } from '../../lambdas/review-metrics/reviewQueueStats.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { startStoreFixture } from '../support/localDynamo.js';

let clock = new Date('2025-03-01T08:00:00.000Z');
let fixture: Awaited<ReturnType<typeof startStoreFixture>>;

beforeAll(async () => {
  fixture = await startStoreFixture({ now: () => clock });
});
afterAll(async () => {
  await fixture.close();
});

const stats = () =>
  reviewQueueStats({
    client: fixture.client,
    table: fixture.dynamo.tables.workflows,
    now: () => clock,
    targetSeconds: 3_600,
  });

describe('reviewQueueStats', () => {
  it('reports an empty queue as depth 0, age 0', async () => {
    // Prepare: an empty review queue; Act and Assess below.
    expect(await stats()).toEqual({ depth: 0, oldestAgeSeconds: 0, pastTarget: 0 });
  });

  it('counts the workflows waiting for review across tenants, the age of the oldest and those past the 1 h target', async () => {
    // Prepare: two reviews an hour apart in two tenants; workflows elsewhere do not count.
    await workflowIn(fixture.store, 'review_required', { tenant: 'acme' });
    clock = new Date(clock.getTime() + 3_600_000);
    await workflowIn(fixture.store, 'review_required', { tenant: 'globex' });
    await workflowIn(fixture.store, 'validated', { tenant: 'acme' });
    const decided = await workflowIn(fixture.store, 'review_required', { tenant: 'acme' });
    await fixture.store.transition(decided, { event: 'approve', actor: 'rita' });
    clock = new Date(clock.getTime() + 1_800_000);

    // Act
    const result = await stats();

    // Assess: the first waited 1.5 h (past the target), the second 0.5 h.
    expect(result).toEqual({ depth: 2, oldestAgeSeconds: 5_400, pastTarget: 1 });
  });
});
