import { describe, expect, it } from 'vitest';
import { startStoreFixture } from '../support/localDynamo.js';
import { useFixture } from '../support/useFixture.js';
import { workflowMaker } from './support/workflowMaker.js';

/* The store's reads: one tenant never sees another's workflows; lists and the review queue. */

const fixture = useFixture(startStoreFixture);
const newWorkflow = workflowMaker(() => fixture.store);

describe('tenant isolation', () => {
  it('treats another tenant’s workflow as not found, for reads and writes', async () => {
    // Prepare
    const wf = await newWorkflow('tenant-a');

    // Act / Assess
    await expect(fixture.store.get(wf.id, { tenant: 'tenant-b' })).rejects.toMatchObject({
      name: 'WorkflowNotFound',
    });
    await expect(
      fixture.store.transition(wf.id, { event: 'cancel', tenant: 'tenant-b' }),
    ).rejects.toMatchObject({
      name: 'WorkflowNotFound',
    });
    await expect(fixture.store.update(wf.id, { pageCount: 3 }, { tenant: 'tenant-b' })).rejects.toMatchObject(
      {
        name: 'WorkflowNotFound',
      },
    );
    expect((await fixture.store.list({ tenant: 'tenant-b' })).items.map((w) => w.id)).not.toContain(wf.id);
    expect((await fixture.store.get(wf.id, { tenant: 'tenant-a' })).id).toBe(wf.id);
  });
});

describe('listing and the review queue', () => {
  it('lists by tenant and state, page by page', async () => {
    // Prepare
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await newWorkflow('lister')).id);
    for (const id of ids.slice(0, 3)) await fixture.store.transition(id, { event: 'cancel' });

    // Act
    const first = await fixture.store.list({ tenant: 'lister', state: 'cancelled', limit: 2 });
    const second = await fixture.store.list({
      tenant: 'lister',
      state: 'cancelled',
      limit: 2,
      cursor: first.cursor,
    });
    const pending = await fixture.store.list({ tenant: 'lister', state: 'pending' });

    // Assess
    expect(first.items).toHaveLength(2);
    expect([...first.items, ...second.items].map((w) => w.id).sort()).toEqual(ids.slice(0, 3).sort());
    expect(pending.items.map((w) => w.id).sort()).toEqual(ids.slice(3).sort());
  });

  it('orders the queue by priority, oldest first on ties, and drops a workflow once decided', async () => {
    // Prepare
    const toReview = async (priority: number) => {
      const wf = await newWorkflow('reviewer-co');
      for (const event of ['start_parse', 'parsed', 'extracted'] as const)
        await fixture.store.transition(wf.id, { event });
      await fixture.store.update(
        wf.id,
        { review: { priority, reasons: [{ code: 'low_confidence', message: 'low' }] } },
        { expectState: 'validating' },
      );
      await fixture.store.transition(wf.id, {
        event: 'validation_completed',
        context: { confidence: 40, confidenceThreshold: 80, requiredFieldsValid: true },
      });
      return wf.id;
    };
    const low = await toReview(10);
    const highOld = await toReview(90);
    const highNew = await toReview(90);
    const mid = await toReview(50);

    // Act
    const queue = await fixture.store.reviewQueue('reviewer-co');
    await fixture.store.transition(highOld, { event: 'approve', actor: 'alice' });
    const after = await fixture.store.reviewQueue('reviewer-co');

    // Assess
    expect(queue.items.map((w) => w.id)).toEqual([highOld, highNew, mid, low]);
    expect(after.items.map((w) => w.id)).toEqual([highNew, mid, low]);
  });
});
