import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultKey } from '../../lambdas/shared/results/keys.js';
import { type ResultRecord, resultBytes } from '../../lambdas/shared/results/record.js';
import { writeEndpoints } from '../../local/endpoints.js';
import { startS3Fixture } from '../support/localS3.js';
import { docket } from './support/runDocket.js';

/*
 * `docket results compact` and `docket query` against the local S3 (on a free port), named by an
 * endpoints.json as a running local stack's data directory holds: JSON results in, Parquet out,
 * SQL over it as a table, JSON and CSV, and the typed errors.
 */

let s3: Awaited<ReturnType<typeof startS3Fixture>>;
let dataDir: string;
let emptyDir: string;

const invoice = (id: string, vendor: string, total: string, completedAt: string): ResultRecord => ({
  version: 1,
  id,
  eventId: `${id}:8`,
  tenant: 'acme',
  docType: 'invoice',
  completedAt,
  actor: 'system',
  fields: {
    vendor: { value: vendor, confidence: 0.9, setBy: 'system', origin: 'extraction' },
    total: { value: total, confidence: 1, setBy: 'rita', origin: 'review' },
    currency: { value: 'EUR', confidence: 0.9, setBy: 'system', origin: 'extraction' },
  },
  comparison: null,
  review: null,
  links: {},
});

const stackAt = async (dir: string, bucket: string) =>
  writeEndpoints(dir, {
    s3: s3.s3.endpoint,
    dynamodb: 'http://127.0.0.1:9',
    sfn: 'http://127.0.0.1:9',
    sqs: 'http://127.0.0.1:9',
    events: 'http://127.0.0.1:9',
    eventBus: 'docket-local',
    eventSink: join(dir, 'events', 'events.jsonl'),
    queues: { uploads: 'http://127.0.0.1:9/q', deadLetters: 'http://127.0.0.1:9/d' },
    api: 'http://127.0.0.1:9',
    console: 'http://127.0.0.1:9/',
    bucket,
    tables: { workflows: 'w', transitions: 't', providers: 'p' },
    stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:docket',
    region: 'us-east-1',
    // This process stands in for the stack's: the CLI checks the stack's process is alive.
    pid: process.pid,
  });

beforeAll(async () => {
  s3 = await startS3Fixture();
  dataDir = await mkdtemp(join(tmpdir(), 'docket-cli-query-'));
  emptyDir = await mkdtemp(join(tmpdir(), 'docket-cli-query-empty-'));
  await stackAt(dataDir, s3.s3.bucket);
  await stackAt(emptyDir, s3.s3.bucket);
  for (const r of [
    invoice('wf-1', 'Acme, Inc.', '100.10', '2026-11-26T09:00:00.000Z'),
    invoice('wf-2', 'Acme, Inc.', '0.20', '2026-11-27T09:00:00.000Z'),
    invoice('wf-3', 'Beta "B" GmbH', '5.00', '2026-11-27T10:00:00.000Z'),
  ]) {
    await s3.client.send(
      new PutObjectCommand({
        Bucket: s3.s3.bucket,
        Key: resultKey(r.tenant, r.docType, r.completedAt, r.id),
        Body: resultBytes(r),
      }),
    );
  }
}, 60_000);
afterAll(async () => {
  await s3.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(emptyDir, { recursive: true, force: true });
});

const run = (...args: string[]) => docket(['--data-dir', dataDir, ...args]);
const SUM = 'SELECT vendor, sum(total) AS total FROM invoices GROUP BY 1 ORDER BY 1';

describe('docket query over the Parquet results', () => {
  it('says there are no results yet, and what to do, before any compaction', async () => {
    // Act
    const early = await run('query', SUM);

    // Assess
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/^docket: No Parquet results in .*results-parquet\/ yet\./);
    expect(early.stderr).toContain('run `docket results compact`');
  });

  it('compacts the days asked for, then sums exactly by vendor as a table, JSON and CSV', async () => {
    // Act
    const compact = await run('results', 'compact', '--date', '2026-11-26', '--date', '2026-11-27');
    const table = await run('query', SUM);
    const json = await run('query', SUM, '--json');
    const csv = await run('query', `${SUM.replace('ORDER BY 1', 'ORDER BY 1 DESC')}`, '--csv');

    // Assess
    expect(compact.code).toBe(0);
    expect(compact.stdout).toContain('acme invoice 2026-11-27: 2 row(s) -> s3://');
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n').slice(0, 3)).toEqual([
      'vendor         total',
      'Acme, Inc.     100.300000',
      'Beta "B" GmbH  5.000000',
    ]);
    expect(table.stdout).toContain('2 row(s) from 2 Parquet file(s).');
    expect(json.json()).toEqual([
      { vendor: 'Acme, Inc.', total: '100.300000' },
      { vendor: 'Beta "B" GmbH', total: '5.000000' },
    ]);
    expect(csv.stdout).toBe('vendor,total\n"Beta ""B"" GmbH",5.000000\n"Acme, Inc.",100.300000\n');
  });

  it('answers no rows for a query that matches none, and for contracts, which have no results yet', async () => {
    // Act
    const none = await run('query', "SELECT id FROM invoices WHERE vendor = 'Nobody'");
    const contracts = await run('query', 'SELECT count(*) AS n FROM contracts', '--json');
    const byDate = await run('query', "SELECT id FROM invoices WHERE date = '2026-11-26'", '--json');

    // Assess
    expect(none).toMatchObject({ code: 0 });
    expect(none.stdout).toContain('No rows.');
    expect(contracts.json()).toEqual([{ n: 0 }]);
    expect(byDate.json()).toEqual([{ id: 'wf-1' }]);
  });

  it('refuses bad SQL with DuckDB’s reason and the tables there are, and neither loads nor downloads an extension', async () => {
    // Act
    const bad = await run('query', 'SELEKT * FROM invoices');
    const missing = await run('query', 'SELECT * FROM payments');
    const remote = await run('query', "SELECT * FROM read_parquet('https://example.com/x.parquet')");
    const install = await run('query', 'INSTALL httpfs');
    const both = await run('query', SUM, '--json', '--csv');

    // Assess
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /^docket: DuckDB could not run the query: Parser Error: syntax error at or near "SELEKT"/,
    );
    expect(bad.stderr).toContain('Tables: invoices (id, tenant, docType, completedAt');
    expect(missing.stderr).toContain('payments');
    expect(remote.code).toBe(1);
    expect(remote.stderr).toContain('disabled by configuration');
    expect(install.stderr).toContain('disabled by configuration');
    expect(both.code).toBe(2);
  });

  it('refuses a day that is not a date', async () => {
    // Act
    const badDay = await run('results', 'compact', '--date', '2026-02-30');
    // Assess
    expect(badDay.code).toBe(1);
    expect(badDay.stderr).toContain('"2026-02-30" is not a date written YYYY-MM-DD');
  });
});
