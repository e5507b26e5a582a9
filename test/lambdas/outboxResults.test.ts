import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { type DelivererDeps, deliverOutbox } from '../../lambdas/outbox-deliverer/deliverOutbox.js';
import { resultKey } from '../../lambdas/shared/results/keys.js';
import type { ResultRecord } from '../../lambdas/shared/results/record.js';
import { completedInvoice } from '../support/completedInvoice.js';
import { delivererDeps, startDelivererFixture } from '../support/delivererFixture.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { LOCAL_CREDENTIALS } from '../support/localDynamo.js';
import { useFixture } from '../support/useFixture.js';

/*
 * The JSON results the outbox deliverer writes for completed workflows (issue 16), against
 * dynalite, the local S3 and the local EventBridge: where, what, written before the outbox is
 * cleared, and the same bytes on a redelivery.
 */

const fx = useFixture(startDelivererFixture);

const deps = (overrides: Partial<DelivererDeps> = {}): DelivererDeps => delivererDeps(fx, overrides);

const text = async (key: string) => {
  const { Body, ContentType } = await fx.s3.send(new GetObjectCommand({ Bucket: fx.bucket, Key: key }));
  return {
    body: await (Body as { transformToString: () => Promise<string> }).transformToString(),
    ContentType,
  };
};

const resultKeys = async (tenant: string) =>
  (
    await fx.s3.send(new ListObjectsV2Command({ Bucket: fx.bucket, Prefix: `results/${tenant}/` }))
  ).Contents?.map((o) => o.Key) ?? [];

describe('JSON results of completed workflows', () => {
  it('are written under results/{tenant}/{docType}/date={completion day}/{id}.json with the final fields and who set each', async () => {
    // Prepare
    const done = await completedInvoice(fx, { tenant: 'results-a' });

    // Act
    const report = await deliverOutbox(deps());

    // Assess
    const key = resultKey('results-a', 'invoice', done.stateEnteredAt, done.id);
    expect(key).toBe(`results/results-a/invoice/date=${done.stateEnteredAt.slice(0, 10)}/${done.id}.json`);
    expect(await resultKeys('results-a')).toEqual([key]);
    const { body, ContentType } = await text(key);
    expect(ContentType).toBe('application/json');
    const record = JSON.parse(body) as ResultRecord;
    expect(record).toMatchObject({
      version: 1,
      id: done.id,
      eventId: `${done.id}:${done.version}`,
      tenant: 'results-a',
      docType: 'invoice',
      completedAt: done.stateEnteredAt,
      fields: {
        vendor: { value: 'Acme Supplies GmbH', setBy: 'system', origin: 'extraction' },
        total: { value: '120.00', setBy: 'rita', origin: 'review' },
      },
      review: { decision: 'correct', reviewer: 'rita' },
      links: { reviewed: `artifacts/${done.id}/reviewed.json` },
    });
    expect(report.failed).toBe(0);
  });

  it('are written before the event goes out, and a redelivery writes the same bytes to the same key', async () => {
    // Prepare: EventBridge unreachable, so the event stays in its outbox after the result is written.
    const done = await completedInvoice(fx, { tenant: 'results-b' });
    const unreachable = new EventBridgeClient({
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });

    // Act
    const failed = await deliverOutbox(deps({ events: unreachable }));
    const [keyAfterFailure] = await resultKeys('results-b');
    const first = await text(keyAfterFailure as string);
    const pending = (await fx.store.get(done.id)).outboxPending;
    const delivered = await deliverOutbox(deps());
    const keysAfter = await resultKeys('results-b');
    const second = await text(keyAfterFailure as string);
    unreachable.destroy();

    // Assess
    expect(failed.failed).toBeGreaterThanOrEqual(1);
    expect(pending).toBe('pending');
    expect(delivered.failed).toBe(0);
    expect(keysAfter).toEqual([keyAfterFailure]);
    expect(second.body).toBe(first.body);
    expect((await fx.store.get(done.id)).outboxPending).toBeUndefined();
  });

  it('are not written for a workflow that ends otherwise (cancelled, rejected)', async () => {
    // Prepare
    const wf = await workflowIn(fx.store, 'validating', { tenant: 'results-c' });
    await fx.store.transition(wf.id, { event: 'cancel', actor: 'olga' });

    // Act
    const report = await deliverOutbox(deps());

    // Assess
    expect(report.failed).toBe(0);
    expect(await resultKeys('results-c')).toEqual([]);
  });
});
