import { readFile } from 'node:fs/promises';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { type DelivererDeps, deliverOutbox } from '../../lambdas/outbox-deliverer/deliverOutbox.js';
import type { DocumentEventDetail } from '../../lambdas/outbox-deliverer/eventDetail.js';
import { artifactKey } from '../../lambdas/shared/artifacts.js';
import { WorkflowOutbox } from '../../lambdas/shared/store/index.js';
import { summarizeSink } from '../../local/emulators/events/index.js';
import { completedInvoice } from '../support/completedInvoice.js';
import { delivererDeps, startDelivererFixture } from '../support/delivererFixture.js';
import { schemaErrors } from '../support/documentEventSchema.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { LOCAL_CREDENTIALS } from '../support/localDynamo.js';
import { useFixture } from '../support/useFixture.js';

/*
 * The outbox deliverer against dynalite, the local S3 and the local EventBridge: what it
 * publishes, and that an event leaves its outbox only once EventBridge has taken it.
 */

const fx = useFixture(startDelivererFixture);

const deps = (overrides: Partial<DelivererDeps> = {}): DelivererDeps => delivererDeps(fx, overrides);

/** Every delivery of a workflow's events in the sink, oldest first. */
const deliveries = async (workflowId: string) =>
  (await readFile(fx.events.bus.sinkFile, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map(
      (line) => JSON.parse(line).event as { id: string; 'detail-type': string; detail: DocumentEventDetail },
    )
    .filter((event) => event.detail.workflowId === workflowId);

/** An invoice a reviewer corrected and approved, then compared (test/support/completedInvoice.ts). */
const correctedInvoice = (tenant = 'acme') => completedInvoice(fx, { tenant });

describe('the outbox deliverer', () => {
  it('publishes a completed invoice once, with the final fields and who set each, then clears it', async () => {
    // Prepare
    const done = await correctedInvoice();

    // Act
    const report = await deliverOutbox(deps());

    // Assess
    const [event, ...more] = await deliveries(done.id);
    expect(more).toEqual([]);
    expect(event?.['detail-type']).toBe('Docket Document Completed');
    expect(event?.detail).toMatchObject({
      version: 1,
      eventId: `${done.id}:${done.version}`,
      workflowId: done.id,
      tenant: 'acme',
      state: 'completed',
      actor: 'system',
      docType: 'invoice',
      fields: {
        invoiceNumber: {
          value: 'INV-2025-001',
          confidence: 0.97,
          setBy: 'system',
          origin: 'extraction',
          extractor: 'heuristic',
        },
        total: {
          value: '120.00',
          confidence: 1,
          setBy: 'rita',
          origin: 'review',
          setAt: '2025-05-02T10:00:00.000Z',
        },
      },
      comparison: { status: 'consistent', critical: 0, warning: 1 },
      review: { decision: 'correct', reviewer: 'rita' },
      error: null,
      links: {
        bucket: fx.bucket,
        extraction: `artifacts/${done.id}/extraction.json`,
        reviewed: `artifacts/${done.id}/reviewed.json`,
        comparison: `artifacts/${done.id}/comparison.json`,
      },
    });
    expect(schemaErrors(event?.detail)).toEqual([]);
    expect(report.failed).toBe(0);
    const after = await fx.store.get(done.id);
    expect(after.outbox).toEqual({});
    expect(after.outboxPending).toBeUndefined();
  });

  it('leaves an event EventBridge refuses in its outbox, and delivers it on the next run', async () => {
    // Prepare
    const ended = (
      await fx.store.transition((await workflowIn(fx.store, 'extracting')).id, {
        event: 'cancel',
        actor: 'olga',
      })
    ).workflow;

    // Act: a bus that does not exist refuses the entry; then the right bus.
    const refused = await deliverOutbox(deps({ busName: 'no-such-bus' }));
    const pendingAfterRefusal = (await fx.store.get(ended.id)).outbox;
    const next = await deliverOutbox(deps());

    // Assess
    expect(refused.failed).toBeGreaterThanOrEqual(1);
    expect(Object.keys(pendingAfterRefusal ?? {})).toEqual([`${ended.id}:${ended.version}`]);
    expect(next.failed).toBe(0);
    const events = await deliveries(ended.id);
    expect(events.map((e) => [e['detail-type'], e.detail.actor])).toEqual([
      ['Docket Document Cancelled', 'olga'],
    ]);
    expect(schemaErrors(events[0]?.detail)).toEqual([]);
  });

  it('leaves the event pending when EventBridge cannot be reached at all', async () => {
    // Prepare: a client of an EventBridge that is not there (nothing listens on port 9).
    const ended = (await fx.store.transition((await workflowIn(fx.store, 'pending')).id, { event: 'cancel' }))
      .workflow;
    const unreachable = new EventBridgeClient({
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
    const failures: string[] = [];

    // Act
    const report = await deliverOutbox(
      deps({ events: unreachable, onFailure: (e) => failures.push(e.eventId) }),
    );
    unreachable.destroy();

    // Assess
    expect(report.delivered).toBe(0);
    expect(failures).toContain(`${ended.id}:1`);
    expect((await fx.store.get(ended.id)).outboxPending).toBe('pending');
    expect(await deliveries(ended.id)).toEqual([]);
  });

  it('publishes the same event id again after a crash between the publish and the clear (the crash: a clear that throws)', async () => {
    // Prepare: an outbox whose clear dies, as the process would after PutEvents answered.
    const ended = (
      await fx.store.transition((await workflowIn(fx.store, 'validating')).id, { event: 'cancel' })
    ).workflow;
    class CrashingOutbox extends WorkflowOutbox {
      override async clear(): Promise<boolean> {
        throw new Error('the process died here');
      }
    }

    // Act
    await deliverOutbox(deps({ outbox: new CrashingOutbox(fx.client, fx.dynamo.tables.workflows) }));
    await deliverOutbox(deps());

    // Assess: at least once, never zero; one event id, two deliveries, the sink shows the duplicate.
    const events = await deliveries(ended.id);
    const eventId = `${ended.id}:${ended.version}`;
    expect(events.map((e) => e.detail.eventId)).toEqual([eventId, eventId]);
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
    const summary = (await summarizeSink(fx.events.bus.sinkFile)).events.find(
      (e) => e.workflowId === ended.id,
    );
    expect(summary).toMatchObject({ deliveries: 2, duplicates: 1 });
    expect((await fx.store.get(ended.id)).outboxPending).toBeUndefined();
  });

  it('takes each event off once when two runs race, and delivers every one at least once', async () => {
    // Prepare
    const ended = await Promise.all(
      ['a', 'b', 'c'].map(
        async (t) =>
          (
            await fx.store.transition((await workflowIn(fx.store, 'pending', { tenant: `race-${t}` })).id, {
              event: 'cancel',
            })
          ).workflow,
      ),
    );

    // Act
    const reports = await Promise.all([deliverOutbox(deps()), deliverOutbox(deps())]);

    // Assess
    for (const wf of ended) {
      expect((await deliveries(wf.id)).length).toBeGreaterThanOrEqual(1);
      expect((await fx.store.get(wf.id)).outboxPending).toBeUndefined();
    }
    expect(reports.reduce((n, r) => n + r.failed, 0)).toBe(0);
  });

  it('still delivers the event of a document erased before it went out, without its fields', async () => {
    // Prepare: the record is gone from S3 and the item, as `docket erase` leaves it.
    const done = await correctedInvoice('eraseco');
    for (const name of ['extraction', 'reviewed'] as const)
      await fx.s3.send(new DeleteObjectCommand({ Bucket: fx.bucket, Key: artifactKey(done.id, name) }));
    await fx.store.eraseContent(done);
    await fx.store.transition(done.id, { event: 'erase', actor: 'olga' });

    // Act
    await deliverOutbox(deps());

    // Assess
    const [event] = await deliveries(done.id);
    expect(event?.detail).toMatchObject({
      eventId: `${done.id}:${done.version}`,
      state: 'completed',
      fields: {},
      fieldsOmitted: 'erased',
    });
    expect(schemaErrors(event?.detail)).toEqual([]);
  });
});
