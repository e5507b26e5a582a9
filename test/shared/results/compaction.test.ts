import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { compactResults } from '../../../lambdas/shared/results/compact.js';
import { BadResultDateError } from '../../../lambdas/shared/results/errors.js';
import { resultKey } from '../../../lambdas/shared/results/keys.js';
import { type ResultRecord, resultBytes } from '../../../lambdas/shared/results/record.js';
import { readParquet } from '../../support/duckdb.js';
import { startS3Fixture } from '../../support/localS3.js';
import { useFixture } from '../../support/useFixture.js';

/*
 * Results compaction against the local S3 (started on a free port): each tenant's day of JSON
 * results becomes one Parquet file, rewritten the same on a rerun, removed when the day empties.
 */

const fx = useFixture(startS3Fixture);
const deps = () => ({ s3: fx.client, bucket: fx.s3.bucket });
const NOW = new Date('2026-11-27T08:00:00.000Z');

const result = (tenant: string, id: string, completedAt: string, total: string): ResultRecord => ({
  version: 1,
  id,
  eventId: `${id}:7`,
  tenant,
  docType: 'invoice',
  completedAt,
  actor: 'system',
  fields: {
    vendor: { value: 'Acme', confidence: 0.9, setBy: 'system', origin: 'extraction' },
    total: { value: total, confidence: 1, setBy: 'rita', origin: 'review' },
  },
  comparison: null,
  review: null,
  links: {},
});

const put = async (r: ResultRecord) => {
  const key = resultKey(r.tenant, r.docType, r.completedAt, r.id);
  await fx.client.send(new PutObjectCommand({ Bucket: fx.s3.bucket, Key: key, Body: resultBytes(r) }));
  return key;
};
const bytesOf = async (key: string) => {
  const { Body } = await fx.client.send(new GetObjectCommand({ Bucket: fx.s3.bucket, Key: key }));
  return (Body as { transformToByteArray: () => Promise<Uint8Array> }).transformToByteArray();
};
const parquetKeys = async (tenant: string) =>
  (
    await fx.client.send(
      new ListObjectsV2Command({ Bucket: fx.s3.bucket, Prefix: `results-parquet/${tenant}/` }),
    )
  ).Contents?.map((o) => o.Key) ?? [];

describe('results compaction', () => {
  it("writes one Parquet file per tenant, doc type and day (today's and yesterday's by default), rows sorted, an unreadable result named", async () => {
    // Prepare
    await put(result('north', 'wf-b', '2026-11-27T07:00:00.000Z', '20.00'));
    await put(result('north', 'wf-a', '2026-11-27T07:00:00.000Z', '10.00'));
    await put(result('north', 'wf-y', '2026-11-26T23:59:59.999Z', '5.00'));
    await put(result('south', 'wf-s', '2026-11-27T01:00:00.000Z', '1.00'));
    const broken = 'results/north/invoice/date=2026-11-27/wf-broken.json';
    await fx.client.send(new PutObjectCommand({ Bucket: fx.s3.bucket, Key: broken, Body: '{"not":' }));

    // Act
    const days = await compactResults(deps(), { now: () => NOW });
    const today = await readParquet(
      await bytesOf('results-parquet/north/invoice/date=2026-11-27/part-0.parquet'),
      'SELECT id, tenant, total FROM t',
    );

    // Assess
    expect(days.filter((d) => d.action === 'written').map((d) => [d.tenant, d.date, d.rows])).toEqual([
      ['north', '2026-11-26', 1],
      ['north', '2026-11-27', 2],
      ['south', '2026-11-27', 1],
    ]);
    expect(days.find((d) => d.tenant === 'north' && d.date === '2026-11-27')?.unreadable).toEqual([broken]);
    expect(today.rows).toEqual([
      { id: 'wf-a', tenant: 'north', total: '10.000000' },
      { id: 'wf-b', tenant: 'north', total: '20.000000' },
    ]);
    expect(await parquetKeys('north')).toEqual([
      'results-parquet/north/invoice/date=2026-11-26/part-0.parquet',
      'results-parquet/north/invoice/date=2026-11-27/part-0.parquet',
    ]);
  });

  it('rewrites the same bytes on a rerun, takes a new result in, and removes the file of a day left empty', async () => {
    // Prepare
    const first = await put(result('east', 'wf-1', '2026-11-20T10:00:00.000Z', '1.00'));
    await compactResults(deps(), { tenant: 'east', dates: ['2026-11-20'] });
    const key = 'results-parquet/east/invoice/date=2026-11-20/part-0.parquet';
    const before = await bytesOf(key);

    // Act
    const rerun = await compactResults(deps(), { tenant: 'east', dates: ['2026-11-20'] });
    const same = await bytesOf(key);
    await put(result('east', 'wf-2', '2026-11-20T11:00:00.000Z', '2.00'));
    const [grown] = await compactResults(deps(), { tenant: 'east', dates: 'all' }).then((d) =>
      d.filter((x) => x.action === 'written'),
    );
    await fx.client.send(new DeleteObjectCommand({ Bucket: fx.s3.bucket, Key: first }));
    await fx.client.send(
      new DeleteObjectCommand({ Bucket: fx.s3.bucket, Key: first.replace('wf-1', 'wf-2') }),
    );
    const emptied = await compactResults(deps(), { tenant: 'east', dates: ['2026-11-20'] });

    // Assess
    expect(rerun.find((d) => d.docType === 'invoice')).toMatchObject({ action: 'written', rows: 1 });
    expect(Buffer.from(same).equals(Buffer.from(before))).toBe(true);
    expect(grown).toMatchObject({ date: '2026-11-20', rows: 2 });
    expect(emptied.find((d) => d.docType === 'invoice')).toMatchObject({ action: 'removed', rows: 0 });
    expect(await parquetKeys('east')).toEqual([]);
  });

  it('refuses a day that is not a date, naming it', async () => {
    // Act
    const attempt = compactResults(deps(), { dates: ['2026-02-30'] });
    const nonsense = compactResults(deps(), { dates: ['2026-13-45'] });

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(BadResultDateError);
    await expect(attempt).rejects.toThrow('"2026-02-30" is not a date written YYYY-MM-DD');
    await expect(nonsense).rejects.toBeInstanceOf(BadResultDateError);
  });
});
