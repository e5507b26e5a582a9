import { readFile } from 'node:fs/promises';
import {
  GetObjectCommand,
  ListObjectVersionsCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
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

  it('leaves no result and no fields when the erasure runs while the deliverer writes the result', async () => {
    // Prepare: an S3 client for the deliverer that, at the result's PUT, runs the whole erasure
    // first: the deliverer has read the record already, the erasure deletes a result not yet there.
    const racing = await completedInvoice(fx, { tenant: 'racing', total: '30.00' });
    const erasure = { store: fx.store, s3: fx.s3, bucket: fx.bucket };
    const erasingS3 = {
      send: async (command: unknown) => {
        if (command instanceof PutObjectCommand && command.input.Key?.startsWith('results/racing/'))
          await eraseWorkflow(erasure, { user: 'olga', roles: ['admin'], tenant: 'racing' }, racing.id);
        return fx.s3.send(command as never);
      },
    } as unknown as S3Client;

    // Act
    const report = await deliverOutbox(delivererDeps(fx, { s3: erasingS3 }));

    // Assess: the erasure ran in the middle; afterwards nothing of the document is in results/,
    // and the event went out without its fields.
    expect((await fx.store.get(racing.id)).lastEvent).toBe('erase');
    expect(report).toMatchObject({ delivered: 1, failed: 0 });
    const versions = await fx.s3.send(
      new ListObjectVersionsCommand({ Bucket: fx.bucket, Prefix: 'results/racing/' }),
    );
    expect([...(versions.Versions ?? []), ...(versions.DeleteMarkers ?? [])]).toEqual([]);
    const sent = (await readFile(fx.events.bus.sinkFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).event.detail)
      .filter((detail) => detail.workflowId === racing.id);
    expect(sent).toEqual([expect.objectContaining({ fields: {}, fieldsOmitted: 'erased' })]);
  });
});
