import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { type WorkflowItem, WorkflowOutbox } from '../../lambdas/shared/store/index.js';
import { entryFor } from '../../lambdas/shared/store/projection.js';
import { TransitionLog } from '../../lambdas/shared/store/transitionLog.js';
import { countCalls } from '../support/callCounter.js';
import { startStoreFixture } from '../support/localDynamo.js';
import { useFixture } from '../support/useFixture.js';
import { workflowMaker } from './support/workflowMaker.js';

/*
 * The outbox on the workflow item: the event of a terminal transition is written by the same
 * conditional update that moves the item, rolled forward with it after a crash, listed by the
 * sparse outbox index, and taken off by a conditional clear.
 */

const fixture = useFixture(startStoreFixture);
const newWorkflow = workflowMaker(() => fixture.store);
const outbox = () => new WorkflowOutbox(fixture.client, fixture.dynamo.tables.workflows);

/** The ids of the items the outbox index lists. */
const listed = async () => {
  const ids: string[] = [];
  for await (const item of outbox().pending()) ids.push(item.id);
  return ids;
};

/** A workflow cancelled by an operator: one terminal transition, seq 1. */
const cancelled = async (tenant = 'acme') => {
  const wf = await newWorkflow(tenant);
  return (await fixture.store.transition(wf.id, { event: 'cancel', actor: 'olga' })).workflow;
};

describe('a terminal transition', () => {
  it('puts its event in the outbox in the same conditional write that moves the item', async () => {
    // Prepare
    const wf = await newWorkflow();
    const calls = countCalls(fixture.client);

    // Act
    const { workflow } = await fixture.store.transition(wf.id, { event: 'cancel', actor: 'olga' });

    // Assess: one read and two writes, as any transition; ids and the type only.
    expect(calls.snapshot()).toEqual({ GetItem: 1, PutItem: 1, UpdateItem: 1 });
    calls.stop();
    const eventId = `${wf.id}:1`;
    expect(workflow.outbox).toEqual({
      [eventId]: {
        eventId,
        type: 'Docket Document Cancelled',
        seq: 1,
        state: 'cancelled',
        actor: 'olga',
        createdAt: workflow.stateEnteredAt,
      },
    });
    expect(workflow).toMatchObject({ outboxPending: 'pending', outboxAt: workflow.stateEnteredAt });
    expect(await listed()).toContain(wf.id);
  });

  it('puts nothing there for a step that ends nothing, an erasure of an end state, or an import into legacy', async () => {
    // Prepare
    const working = await newWorkflow();
    const ended = await cancelled();
    const imported = await newWorkflow('legacyco');

    // Act
    const started = (await fixture.store.transition(working.id, { event: 'start_parse' })).workflow;
    const erased = (await fixture.store.transition(ended.id, { event: 'erase', actor: 'olga' })).workflow;
    const legacy = await fixture.store.importSteps(imported, [
      { to: 'legacy', at: '2019-04-01T00:00:00.000Z', actor: 'import', metadata: { line: 1 } },
    ]);

    // Assess: the erasure keeps the cancellation's event (seq 1), and adds none of its own.
    expect(started.outbox).toBeUndefined();
    expect(Object.keys(erased.outbox ?? {})).toEqual([`${ended.id}:1`]);
    expect(legacy.outbox).toBeUndefined();
    expect(await listed()).not.toContain(working.id);
    expect(await listed()).not.toContain(imported.id);
  });

  it('is refused an outbox attribute through an attribute update: only a transition writes one', async () => {
    // Prepare
    const wf = await newWorkflow();
    // Act
    const attempt = fixture.store.update(wf.id, { outboxPending: 'pending' } as never);
    // Assess
    await expect(attempt).rejects.toMatchObject({ name: 'ReservedAttribute' });
  });
});

describe('a crash between the log write and the item write', () => {
  it('leaves the event to the roll-forward, which writes it from the log entry alone', async () => {
    // Prepare: the log holds the rejection, the item was never moved (the writer died).
    const wf = await newWorkflow('crashco');
    const started = (await fixture.store.transition(wf.id, { event: 'start_parse' })).workflow;
    const failed = (
      await fixture.store.transition(started, {
        event: 'fail',
        error: { type: 'CorruptPdf', message: 'broken', retryable: false },
      })
    ).workflow;
    const entry = entryFor(
      failed,
      'rejected',
      { event: 'give_up' },
      new Date().toISOString(),
      await fixture.store.headOf(failed),
    );
    await new TransitionLog(fixture.client, fixture.dynamo.tables.transitions).append(entry);
    const before = await fixture.store.get(wf.id);

    // Act
    const repaired = await fixture.store.get(wf.id, { repair: true });

    // Assess
    expect(before.outbox).toBeUndefined();
    expect(repaired).toMatchObject({ state: 'rejected', version: 3 });
    expect(repaired.outbox?.[`${wf.id}:3`]).toEqual({
      eventId: `${wf.id}:3`,
      type: 'Docket Document Rejected',
      seq: 3,
      state: 'rejected',
      actor: 'system',
      createdAt: entry.at,
    });
    expect(await listed()).toContain(wf.id);
  });
});

describe('the conditional clear', () => {
  it('takes a published event off once: of two deliverers, one clears it and the other finds it gone', async () => {
    // Prepare
    const wf = await cancelled();
    const eventId = `${wf.id}:1`;

    // Act
    const results = await Promise.all([outbox().clear(wf, eventId), outbox().clear(wf, eventId)]);

    // Assess
    expect(results.sort()).toEqual([false, true]);
    const after = await fixture.store.get(wf.id);
    expect(after.outbox).toEqual({});
    expect(after.outboxPending).toBeUndefined();
    expect(await listed()).not.toContain(wf.id);
  });

  it('clears the last event of an item that moved since it was read (an erasure), by reading it again', async () => {
    // Prepare: the deliverer read the item before the erasure's transition.
    const wf = await cancelled();
    await fixture.store.transition(wf.id, { event: 'erase', actor: 'olga' });

    // Act
    const cleared = await outbox().clear(wf, `${wf.id}:1`);

    // Assess
    expect(cleared).toBe(true);
    expect((await fixture.store.get(wf.id)).outboxPending).toBeUndefined();
  });

  it('keeps an item with another event listed, and settles the marker once its outbox is empty', async () => {
    // Prepare: a second event beside the cancellation's (the kind a later outbox user adds).
    const wf = await cancelled();
    const other = { ...wf.outbox?.[`${wf.id}:1`], eventId: `${wf.id}:x` };
    await fixture.client.send(
      new UpdateCommand({
        TableName: fixture.dynamo.tables.workflows,
        Key: { id: wf.id },
        UpdateExpression: 'SET #o.#k = :e',
        ExpressionAttributeNames: { '#o': 'outbox', '#k': other.eventId },
        ExpressionAttributeValues: { ':e': other },
      }),
    );
    const both = (await fixture.store.get(wf.id)) as WorkflowItem;

    // Act: two deliverers each clear one event, from the same read.
    await Promise.all([outbox().clear(both, `${wf.id}:1`), outbox().clear(both, other.eventId)]);
    const emptied = await fixture.store.get(wf.id);
    const listedBefore = await listed();
    await outbox().settle(emptied);

    // Assess: neither could tell it took the last one; the settle takes the item out of the index.
    expect(emptied.outbox).toEqual({});
    expect(listedBefore).toContain(wf.id);
    expect(await listed()).not.toContain(wf.id);
  });
});
