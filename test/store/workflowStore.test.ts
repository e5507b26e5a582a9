import { describe, expect, it } from 'vitest';
import { type LogEntry, TransitionConflictError, verifyLedger } from '../../lambdas/shared/store/index.js';
import { countCalls } from '../support/callCounter.js';
import { writeCrashedEntry } from '../support/crashedWriter.js';
import { startStoreFixture } from '../support/localDynamo.js';
import { useFixture } from '../support/useFixture.js';
import { workflowMaker } from './support/workflowMaker.js';

/*
 * The store's writes: create, transition, a crash between the log put and the item update, and
 * updates without a state change. Its reads are in workflowQueries.test.ts.
 */

const fixture = useFixture(startStoreFixture);
const newWorkflow = workflowMaker(() => fixture.store);

describe('create', () => {
  it('creates the workflow at pending, version 0, once per idempotency key', async () => {
    // Prepare
    const key = 's3://bucket/incoming/acme/a.pdf#v7';

    // Act
    const first = await fixture.store.create({
      tenant: 'acme',
      idempotencyKey: key,
      source: { bucket: 'bucket', key: 'a.pdf' },
    });
    const second = await fixture.store.create({ tenant: 'acme', idempotencyKey: key });

    // Assess
    expect(first).toMatchObject({
      created: true,
      workflow: { state: 'pending', version: 0, tenant: 'acme' },
    });
    expect(second.created).toBe(false);
    expect(second.workflow.id).toBe(first.workflow.id);
    expect(second.workflow.source).toEqual({ bucket: 'bucket', key: 'a.pdf' });
  });

  it('makes 20 concurrent creates with one key into exactly one workflow', async () => {
    const key = 's3://bucket/incoming/acme/race.pdf#v1';
    const results = await Promise.all(
      Array.from({ length: 20 }, () => fixture.store.create({ tenant: 'acme', idempotencyKey: key })),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.workflow.id)).size).toBe(1);
  });
});

describe('transition', () => {
  it('logs seq 1 and moves the item with one read and two writes', async () => {
    // Prepare
    const wf = await newWorkflow();
    const calls = countCalls(fixture.client);

    // Act
    const { workflow, entry } = await fixture.store.transition(wf.id, {
      event: 'start_parse',
      metadata: { attempt: 1 },
    });

    // Assess
    expect(calls.snapshot()).toEqual({ GetItem: 1, PutItem: 1, UpdateItem: 1 });
    expect(workflow).toMatchObject({ state: 'parsing_pdf', version: 1, lastEvent: 'start_parse' });
    expect(entry).toMatchObject({
      seq: 1,
      from: 'pending',
      to: 'parsing_pdf',
      actor: 'system',
      metadata: { attempt: 1 },
    });
    expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    calls.stop();
  });

  it('rejects an illegal event with the table error and writes nothing', async () => {
    const wf = await newWorkflow();
    await expect(fixture.store.transition(wf.id, { event: 'compared' })).rejects.toMatchObject({
      name: 'IllegalTransition',
      message: expect.stringContaining('start_parse -> parsing_pdf'),
    });
    expect(await fixture.store.history(wf.id)).toEqual([]);
    expect((await fixture.store.get(wf.id)).version).toBe(0);
  });

  it('records the error, failedAtStep and retry count through fail and retry', async () => {
    // Prepare
    const wf = await newWorkflow();
    await fixture.store.transition(wf.id, { event: 'start_parse' });
    await fixture.store.transition(wf.id, { event: 'parsed' });

    // Act
    const failed = await fixture.store.transition(wf.id, {
      event: 'fail',
      error: { type: 'BedrockThrottled', message: 'slow down', retryable: true },
    });
    const retried = await fixture.store.transition(wf.id, {
      event: 'retry',
      context: {
        retryable: true,
        retryCount: failed.workflow.retryCount,
        maxRetries: 3,
        failedAtStep: failed.workflow.failedAtStep,
      },
    });

    // Assess
    expect(failed.workflow).toMatchObject({
      state: 'failed',
      failedAtStep: 'extracting',
      lastError: { type: 'BedrockThrottled' },
    });
    expect(failed.entry.error).toEqual({ type: 'BedrockThrottled', message: 'slow down', retryable: true });
    expect(retried.workflow).toMatchObject({ state: 'extracting', retryCount: 1 });
    expect(retried.entry.retryCount).toBe(1);
  });

  it('lets exactly one of 50 concurrent writers win; the rest get a typed conflict, the log has no gap', async () => {
    // Prepare
    const wf = await newWorkflow();

    // Act
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        fixture.store.transition(wf.id, {
          event: 'start_parse',
          actor: `writer-${i}`,
          expectVersion: wf.version,
        }),
      ),
    );

    // Assess
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const r of lost) expect(r.reason).toBeInstanceOf(TransitionConflictError);
    const log = await fixture.store.history(wf.id);
    expect(log.map((e) => e.seq)).toEqual([1]);
    expect((await fixture.store.get(wf.id)).version).toBe(1);
  });

  it('makes no read at all when the caller passes the item it already read', async () => {
    const wf = await newWorkflow();
    const calls = countCalls(fixture.client);
    await fixture.store.transition(wf, { event: 'cancel' });
    calls.stop();
    expect(calls.snapshot()).toEqual({ PutItem: 1, UpdateItem: 1 });
  });

  it('reports a stale snapshot as a conflict, not as an illegal event', async () => {
    const wf = await newWorkflow();
    await fixture.store.transition(wf.id, { event: 'start_parse' });
    await expect(fixture.store.transition(wf, { event: 'start_parse' })).rejects.toBeInstanceOf(
      TransitionConflictError,
    );
  });

  it('still applies an event that stays legal after losing the race (cancel)', async () => {
    const wf = await newWorkflow();
    const [parse, cancel] = await Promise.allSettled([
      fixture.store.transition(wf.id, { event: 'start_parse' }),
      fixture.store.transition(wf.id, { event: 'cancel', actor: 'operator' }),
    ]);
    expect(cancel.status).toBe('fulfilled');
    const states = (await fixture.store.history(wf.id)).map((e) => e.to);
    expect(states.at(-1)).toBe('cancelled');
    expect(states.length).toBe(parse.status === 'fulfilled' ? 2 : 1);
  });
});

describe('crash between the log put and the item update', () => {
  const crashedWriter = (
    workflowId: string,
    seq: number,
    entry: Pick<LogEntry, 'from' | 'to' | 'event' | 'tenant'>,
  ) =>
    writeCrashedEntry(fixture.client, fixture.dynamo.tables.transitions, {
      workflowId,
      seq,
      actor: 'system',
      at: new Date().toISOString(),
      durationMs: 5,
      retryCount: 0,
      ...entry,
    });

  /** A new workflow whose start_parse (seq 1) was logged by a writer that died before the item update. */
  const crashedAfterStartParse = async () => {
    const wf = await newWorkflow('crashco');
    await crashedWriter(wf.id, 1, {
      from: 'pending',
      to: 'parsing_pdf',
      event: 'start_parse',
      tenant: 'crashco',
    });
    return wf;
  };

  it('is rolled forward by the next writer, and verify passes after', async () => {
    // Prepare: seq 1 logged, item never updated.
    const wf = await crashedAfterStartParse();
    const before = await verifyLedger(fixture.store, { tenant: 'crashco' });

    // Act: the next stage's writer arrives.
    const { workflow } = await fixture.store.transition(wf.id, { event: 'parsed' });

    // Assess
    expect(before.broken).toEqual([expect.objectContaining({ workflowId: wf.id, repairable: true })]);
    expect(workflow).toMatchObject({ state: 'extracting', version: 2 });
    expect((await fixture.store.history(wf.id)).map((e) => e.event)).toEqual(['start_parse', 'parsed']);
    expect((await verifyLedger(fixture.store, { tenant: 'crashco' })).broken).toEqual([]);
  });

  it('answers a stale snapshot behind a crashed write with a conflict, never a permanent refusal', async () => {
    // Prepare: seq 1 (start_parse) logged by a writer that died; the caller still holds version 0.
    const wf = await crashedAfterStartParse();
    // Act: 'parsed' is illegal from the snapshot's pending, legal from the log's parsing_pdf.
    const attempt = fixture.store.transition(wf, { event: 'parsed' });
    // Assess: transient, so the stage is retried and decides again on the caught-up item.
    await expect(attempt).rejects.toBeInstanceOf(TransitionConflictError);
  });

  it('is rolled forward by a repairing reader', async () => {
    const wf = await newWorkflow('crashread');
    await crashedWriter(wf.id, 1, { from: 'pending', to: 'cancelled', event: 'cancel', tenant: 'crashread' });

    const repaired = await fixture.store.get(wf.id, { repair: true });

    expect(repaired).toMatchObject({ state: 'cancelled', version: 1 });
    expect((await verifyLedger(fixture.store, { tenant: 'crashread' })).broken).toEqual([]);
  });
});

describe('update without a state change', () => {
  it('applies only while the expected state holds', async () => {
    const wf = await newWorkflow();
    const updated = await fixture.store.update(wf.id, { pageCount: 4 }, { expectState: 'pending' });
    expect(updated.pageCount).toBe(4);
    await expect(
      fixture.store.update(wf.id, { pageCount: 5 }, { expectState: 'review_required' }),
    ).rejects.toMatchObject({
      name: 'StaleWorkflow',
      message: expect.stringContaining('expected state "review_required", found "pending"'),
    });
  });

  it('cannot set state or version: a type error, and refused at run time for a caller past the types', async () => {
    // Prepare
    const wf = await newWorkflow();

    // Act
    // @ts-expect-error `state` is no key of ItemPatch: only a transition moves a workflow.
    const state = fixture.store.update(wf.id, { state: 'completed' }).catch((error: unknown) => error);
    // @ts-expect-error `version` neither.
    const version = fixture.store.update(wf.id, { version: 7 }).catch((error: unknown) => error);

    // Assess
    expect(await state).toMatchObject({ name: 'ReservedAttribute', attributes: ['state'] });
    expect(await version).toMatchObject({ name: 'ReservedAttribute', attributes: ['version'] });
    expect(await fixture.store.get(wf.id)).toMatchObject({ state: 'pending', version: 0 });
  });
});
