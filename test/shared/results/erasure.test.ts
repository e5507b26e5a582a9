import { GetObjectCommand, ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { deliverOutbox } from '../../../lambdas/outbox-deliverer/deliverOutbox.js';
import { eraseWorkflow } from '../../../lambdas/shared/erasure.js';
import { compactResults } from '../../../lambdas/shared/results/compact.js';
import { completedInvoice } from '../../support/completedInvoice.js';
import { delivererDeps, startDelivererFixture } from '../../support/delivererFixture.js';
import { readParquet } from '../../support/duckdb.js';
import { useFixture } from '../../support/useFixture.js';

/*
 * Erasing a completed document removes its result: every version of its JSON, and its row from
 * the day's Parquet file (dynalite, the local S3 and the local EventBridge).
 */

const fx = useFixture(startDelivererFixture);

describe('erasing a completed document', () => {
  it("deletes every version of its JSON result and rewrites its day's Parquet file without its row", async () => {
    // Prepare: two completed invoices of a tenant, delivered (results written) and compacted.
    const erased = await completedInvoice(fx, { tenant: 'erasing', total: '10.00' });
    const kept = await completedInvoice(fx, { tenant: 'erasing', total: '20.00' });
    await deliverOutbox(delivererDeps(fx));
    const [day] = await compactResults(
      { s3: fx.s3, bucket: fx.bucket },
      { tenant: 'erasing', dates: [erased.stateEnteredAt.slice(0, 10)] },
    ).then((days) => days.filter((d) => d.docType === 'invoice'));
    const deps = { store: fx.store, s3: fx.s3, bucket: fx.bucket };

    // Act
    await eraseWorkflow(deps, { user: 'olga', roles: ['admin'], tenant: 'erasing' }, erased.id);
    const versions = await fx.s3.send(
      new ListObjectVersionsCommand({ Bucket: fx.bucket, Prefix: 'results/erasing/' }),
    );
    const { Body } = await fx.s3.send(new GetObjectCommand({ Bucket: fx.bucket, Key: day?.key }));
    const { rows } = await readParquet(
      await (Body as { transformToByteArray: () => Promise<Uint8Array> }).transformToByteArray(),
      'SELECT id, total FROM t',
    );

    // Assess
    expect(day?.rows).toBe(2);
    expect([...(versions.Versions ?? []), ...(versions.DeleteMarkers ?? [])].map((v) => v.Key)).toEqual([
      expect.stringContaining(`/${kept.id}.json`),
    ]);
    expect(rows).toEqual([{ id: kept.id, total: '20.000000' }]);
  });
});
