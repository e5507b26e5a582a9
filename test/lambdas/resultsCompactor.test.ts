import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultKey } from '../../lambdas/shared/results/keys.js';
import { type ResultRecord, resultBytes } from '../../lambdas/shared/results/record.js';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { readParquet } from '../support/duckdb.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';

/*
 * The results-compactor handler in-process, with the environment the local runtime gives it and
 * the local S3 on a free port: what a scheduled event and an invocation by hand do.
 */

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
let handler: unknown;
beforeAll(async () => {
  env = await startStageEnvironment();
  // Imported after the environment is set: a handler reads it once.
  handler = (await import('../../lambdas/results-compactor/handler.js')).handler;
});
afterAll(async () => {
  await env?.close();
});

type Report = { days: { tenant: string; docType: string; date: string; rows: number; action: string }[] };
const invoke = (event: unknown) => invokeInProcess<Report>(handler, 'docket-results-compactor', event);

const contract = (id: string, completedAt: string): ResultRecord => ({
  version: 1,
  id,
  eventId: `${id}:6`,
  tenant: 'initech',
  docType: 'contract',
  completedAt,
  actor: 'rita',
  fields: {
    contractNumber: { value: `C-${id}`, confidence: 1, setBy: 'rita', origin: 'review' },
    totalValue: {
      value: { amount: '125000.00', currency: 'USD' },
      confidence: 0.9,
      setBy: 'system',
      origin: 'extraction',
    },
  },
  comparison: null,
  review: null,
  links: {},
});

describe('the results-compactor handler', () => {
  it("compacts today's results on a scheduled event and any day asked for by hand, and refuses a bad day", async () => {
    // Prepare: one result completed now (the scheduled run's day), one a month back.
    const now = new Date().toISOString();
    for (const r of [contract('wf-now', now), contract('wf-old', '2026-10-01T12:00:00.000Z')]) {
      await env.s3.send(
        new PutObjectCommand({
          Bucket: env.bucket,
          Key: resultKey(r.tenant, r.docType, r.completedAt, r.id),
          Body: resultBytes(r),
        }),
      );
    }

    // Act
    const scheduled = await invoke({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} });
    const byHand = await invoke({ tenant: 'initech', dates: ['2026-10-01'] });
    const bad = await invoke({ dates: ['2026-10-32'] }).catch((error: unknown) => error);
    const { Body } = await env.s3.send(
      new GetObjectCommand({
        Bucket: env.bucket,
        Key: 'results-parquet/initech/contract/date=2026-10-01/part-0.parquet',
      }),
    );
    const { rows } = await readParquet(
      await (Body as { transformToByteArray: () => Promise<Uint8Array> }).transformToByteArray(),
      'SELECT id, contractNumber, totalValueAmount, totalValueCurrency FROM t',
    );

    // Assess
    expect(scheduled.days.filter((d) => d.action === 'written')).toEqual([
      { tenant: 'initech', docType: 'contract', date: now.slice(0, 10), rows: 1, action: 'written' },
    ]);
    expect(byHand.days.filter((d) => d.action === 'written')).toEqual([
      { tenant: 'initech', docType: 'contract', date: '2026-10-01', rows: 1, action: 'written' },
    ]);
    expect(rows).toEqual([
      {
        id: 'wf-old',
        contractNumber: 'C-wf-old',
        totalValueAmount: '125000.000000',
        totalValueCurrency: 'USD',
      },
    ]);
    expect(bad).toMatchObject({ name: 'BadResultDate' });
  });
});
