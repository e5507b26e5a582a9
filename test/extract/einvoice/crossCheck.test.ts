import { describe, expect, it } from 'vitest';
import { crossCheckPrinted } from '../../../lambdas/extract/einvoice/crossCheck.js';
import { einvoiceFields } from '../../../lambdas/extract/einvoice/fields.js';
import { readEInvoice } from '../../../lambdas/extract/einvoice/index.js';
import { finderContext } from '../../../lambdas/extract/text/context.js';
import { indexText } from '../../../lambdas/extract/text/textIndex.js';
import { confidenceFrom, EVIDENCE_WEIGHT } from '../../../lambdas/shared/documents/index.js';
import { localeAmount, pageWith, printedPage } from '../../fixtures/einvoicePages.js';
import { ciiXml, type InvoiceSpec, SAMPLE, spec } from '../../fixtures/einvoices.js';

/** The e-invoice fields of `s` checked against `lines` as its printed page. */
const check = (s: InvoiceSpec, lines: string[], printed: Record<string, unknown> = {}) => {
  const outcome = readEInvoice([{ name: 'factur-x.xml', xml: ciiXml(s) }]);
  if (outcome.kind !== 'einvoice') throw new Error(`expected an e-invoice, got ${outcome.kind}`);
  const { fields } = einvoiceFields(outcome.reading);
  const ctx = finderContext(indexText(pageWith(lines)));
  const checks = crossCheckPrinted(ctx, fields, printed);
  return { fields, checks, status: Object.fromEntries(checks.map((c) => [c.field, c.status])) };
};

/** An invoice whose total, 1234.56, needs digit grouping: 1153.79 net + 7 % (80.77). */
const THOUSANDS = spec({
  lines: [{ name: 'Beratung', quantity: '1.0000', price: '1153.7900', amount: '1153.79' }],
  taxRate: '7.00',
  lineTotal: '1153.79',
  taxBasis: '1153.79',
  tax: '80.77',
  grandTotal: '1234.56',
  duePayable: '1234.56',
});

describe('cross-check of e-invoice data with the printed page', () => {
  it('finds number, vendor, total and the other printed fields on a page that shows them', () => {
    // Prepare
    const lines = printedPage();

    // Act
    const { status } = check(SAMPLE, lines);

    // Assess
    expect(status).toEqual({
      invoiceNumber: 'agrees',
      vendor: 'agrees',
      total: 'agrees',
      subtotal: 'agrees',
      tax: 'agrees',
      invoiceDate: 'agrees',
      currency: 'agrees',
      iban: 'agrees',
      vendorTaxId: 'agrees',
    });
  });

  it('adds cross-source agreement evidence, which lifts a field past the uncorroborated cap', () => {
    // Prepare
    const lines = printedPage();

    // Act
    const { fields } = check(SAMPLE, lines);
    const number = fields.invoiceNumber;

    // Assess
    expect(number?.evidence?.map((e) => [e.kind, e.weight])).toEqual([
      ['structured', EVIDENCE_WEIGHT.structured],
      ['agreement', EVIDENCE_WEIGHT.crossSource],
    ]);
    expect(number?.evidence?.[1]?.detail).toBe('printed on the page at p1 l4');
    expect(confidenceFrom(number?.evidence ?? [])).toBeGreaterThan(0.9);
  });

  it('reports another number and total on the page as differing, with what the page says', () => {
    // Prepare: the page's own extraction read these values.
    const lines = printedPage(SAMPLE, { number: 'RE-2024-0999', total: '652,87' });
    const printed = { invoiceNumber: 'RE-2024-0999', total: '652.87' };

    // Act
    const { checks } = check(SAMPLE, lines, printed);

    // Assess
    expect(checks.filter((c) => c.status !== 'agrees')).toEqual([
      { field: 'invoiceNumber', status: 'differs', data: 'RE-2024-0815', printed: 'RE-2024-0999' },
      { field: 'total', status: 'differs', data: '562.87', printed: '652.87' },
    ]);
  });

  it('lowers a value the page contradicts below the threshold, though its own sums hold', () => {
    // Prepare: the page's own extraction read another total than the data states.
    const lines = printedPage(SAMPLE, { total: '652,87' });
    const printed = { total: '652.87' };

    // Act
    const { fields } = check(SAMPLE, lines, printed);
    const total = fields.total?.evidence ?? [];

    // Assess
    expect(total.find((e) => e.kind === 'conflict')).toMatchObject({
      weight: EVIDENCE_WEIGHT.pageDiffers,
      detail: 'the printed page reads 652.87',
    });
    expect(confidenceFrom([...total, { kind: 'arithmetic', weight: 0.9, detail: 'sums hold' }])).toBeLessThan(
      0.8,
    );
  });

  it('reports a vendor the page does not show as not printed, in doubt rather than agreed', () => {
    // Prepare
    const lines = printedPage(SAMPLE, { vendor: 'Ganz Andere Handels KG' });

    // Act
    const { status, fields } = check(SAMPLE, lines);

    // Assess
    expect(status.vendor).toBe('not_printed');
    expect(fields.vendor?.evidence?.map((e) => [e.kind, e.weight])).toEqual([
      ['structured', EVIDENCE_WEIGHT.structured],
      ['conflict', EVIDENCE_WEIGHT.notOnPage],
    ]);
    expect(confidenceFrom(fields.vendor?.evidence ?? [])).toBeLessThan(0.75);
  });

  it.each([
    ['German 1.234,56', (v: string) => localeAmount(v, '.', ',')],
    ['French 1 234,56', (v: string) => localeAmount(v, ' ', ',')],
    ['French with a narrow no-break space 1\u202f234,56', (v: string) => localeAmount(v, '\u202f', ',')],
    ['English 1,234.56', (v: string) => localeAmount(v, ',', '.')],
    ['Swiss 1’234.56', (v: string) => localeAmount(v, '’', '.')],
  ])('matches the total 1234.56 printed the %s way', (_, money) => {
    // Prepare
    const lines = printedPage(THOUSANDS, { money });

    // Act
    const { status } = check(THOUSANDS, lines);

    // Assess
    expect(status.total).toBe('agrees');
  });

  it('does not take 1.234,65 for 1234.56', () => {
    // Prepare
    const lines = printedPage(THOUSANDS, { total: '1.234,65' });

    // Act
    const { status } = check(THOUSANDS, lines);

    // Assess
    expect(status.total).toBe('not_printed');
  });
});
