import { describe, expect, it } from 'vitest';
import { FIELD_NAMES } from '../../../lambdas/shared/documents/index.js';
import { RECORD_ONLY_FIELDS, RESULT_COLUMNS } from '../../../lambdas/shared/results/columns.js';
import { resultsParquet } from '../../../lambdas/shared/results/parquet.js';
import type { ResultRecord } from '../../../lambdas/shared/results/record.js';
import { readParquet } from '../../support/duckdb.js';

/*
 * The Parquet writer of the results: written with hyparquet-writer, read back with DuckDB.
 */

const field = (value: unknown, setBy = 'system') => ({
  value,
  confidence: 0.9,
  setBy,
  origin: setBy === 'system' ? ('extraction' as const) : ('review' as const),
});

const invoice = (id: string, fields: Record<string, unknown>): ResultRecord => ({
  version: 1,
  id,
  eventId: `${id}:9`,
  tenant: 'acme',
  docType: 'invoice',
  completedAt: '2026-11-27T10:15:00.250Z',
  actor: 'system',
  fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, field(v)])),
  comparison: null,
  review: null,
  links: { bucket: 'docket-test' },
});

describe('the Parquet results writer', () => {
  it('writes typed columns DuckDB reads back: dates, a timestamp, exact DECIMAL(18,6) amounts, the record as JSON', async () => {
    // Prepare
    const records = [
      invoice('wf-a', { vendor: 'Acme', total: '0.10', currency: 'EUR', invoiceDate: '2026-11-01' }),
      invoice('wf-b', { vendor: 'Acme', total: '0.20', currency: 'EUR', lineItems: [{ amount: '0.20' }] }),
      invoice('wf-c', {
        vendor: 'Zeta',
        total: '-999999999999.999999',
        currency: 'USD',
        kind: 'credit_note',
      }),
    ];

    // Act
    const bytes = resultsParquet('invoice', records);
    const { rows, types } = await readParquet(
      bytes,
      "SELECT id, vendor, total, invoiceDate, completedAt, dueDate, record FROM t WHERE vendor = 'Acme' ORDER BY id",
    );
    const sum = await readParquet(bytes, "SELECT sum(total) AS s FROM t WHERE vendor = 'Acme'");

    // Assess
    expect(Object.keys(types)).toEqual(RESULT_COLUMNS.invoice.map((c) => c.name));
    expect(types).toMatchObject({
      id: 'VARCHAR',
      completedAt: 'TIMESTAMP',
      invoiceDate: 'DATE',
      total: 'DECIMAL(18,6)',
      record: 'VARCHAR',
    });
    expect(rows.map((r) => ({ ...r, record: undefined }))).toEqual([
      {
        id: 'wf-a',
        vendor: 'Acme',
        total: '0.100000',
        invoiceDate: '2026-11-01',
        completedAt: '2026-11-27 10:15:00.25',
        dueDate: null,
        record: undefined,
      },
      {
        id: 'wf-b',
        vendor: 'Acme',
        total: '0.200000',
        invoiceDate: null,
        completedAt: '2026-11-27 10:15:00.25',
        dueDate: null,
        record: undefined,
      },
    ]);
    // Exact: 0.1 + 0.2 as DOUBLEs would be 0.30000000000000004.
    expect(sum.rows).toEqual([{ s: '0.300000' }]);
    expect(JSON.parse(rows[1]?.record as string)).toEqual(records[1]);
  });

  it('leaves a value null that its column cannot hold (too large an amount, a malformed date), keeping it in the record', async () => {
    // Prepare
    const odd = invoice('wf-odd', { total: '1234567890123.00', invoiceDate: '2026-13-45', vendor: 42 });

    // Act
    const { rows } = await readParquet(
      resultsParquet('invoice', [odd]),
      'SELECT total, invoiceDate, vendor, record FROM t',
    );

    // Assess
    expect(rows[0]).toMatchObject({ total: null, invoiceDate: null, vendor: '42' });
    expect(JSON.parse(rows[0]?.record as string).fields.total.value).toBe('1234567890123.00');
  });

  it('writes the same bytes for the same records, and a contract with its total value split in amount and currency', async () => {
    // Prepare
    const contract: ResultRecord = {
      ...invoice('wf-k', {}),
      docType: 'contract',
      fields: {
        provider: field('Acme'),
        totalValue: field({ amount: '125000.00', currency: 'USD' }, 'rita'),
        termMonths: field(24),
        autoRenewal: field(true),
      },
    };

    // Act
    const first = resultsParquet('contract', [contract]);
    const second = resultsParquet('contract', [contract]);
    const { rows } = await readParquet(
      first,
      'SELECT provider, totalValueAmount, totalValueCurrency, termMonths, autoRenewal FROM t',
    );

    // Assess
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    expect(rows).toEqual([
      {
        provider: 'Acme',
        totalValueAmount: '125000.000000',
        totalValueCurrency: 'USD',
        termMonths: 24,
        autoRenewal: true,
      },
    ]);
  });

  it('has a typed column for every field of each doc type except the nested ones kept in the record', () => {
    // Act
    const uncovered = (['invoice', 'contract'] as const).flatMap((docType) => {
      const columns = new Set(RESULT_COLUMNS[docType].map((c) => c.name));
      return FIELD_NAMES[docType].filter(
        (f) =>
          !columns.has(f) &&
          !RECORD_ONLY_FIELDS[docType].includes(f) &&
          !(f === 'totalValue' && columns.has('totalValueAmount')),
      );
    });

    // Assess
    expect(uncovered).toEqual([]);
  });
});
