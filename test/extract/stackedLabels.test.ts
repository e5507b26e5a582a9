import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A form's labels one under another and its values after them, one under another: the order in
 * which a text layer or OCR reads two columns, the first and then the second. The i-th label's
 * value is the i-th value; the value right under the last label is the first label's.
 */
const extractor = new HeuristicExtractor();

const HEAD = ['Brightwater Plumbing Ltd', '22 Mill Lane, Bristol BS1 4DJ', 'INVOICE'];
const ITEMS = [
  'Description                         Qty     Price      Amount',
  'Replace kitchen mixer tap             1    145.00      145.00',
  'Labour (hours)                        2     55.00      110.00',
];

describe('labels stacked over their stacked values', () => {
  it.each([
    ['English', ['Invoice Number', 'Invoice Date', 'Due Date'], ['BWP-2291', '28/05/2025', '27/06/2025']],
    ['with colons', ['Invoice No:', 'Date:', 'Due Date:'], ['BWP-2291', '28/05/2025', '27/06/2025']],
  ])('give each header label its own value (%s)', async (_, labels, values) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        ...HEAD,
        ...labels,
        ...values,
        '',
        'Bill To',
        'Clifton Lettings Ltd',
        ...ITEMS,
        'Total   £306.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('BWP-2291');
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2025-05-28');
    expect(fieldOf(extraction, 'dueDate')?.value).toBe('2025-06-27');
  });

  /** The totals' three labels stacked over the amounts given. */
  const stackedTotals = (...amounts: string[]) =>
    extractor.extract(
      pdfTextOf([...HEAD, 'Invoice No: BWP-2291', ...ITEMS, 'Subtotal', 'VAT @ 20%', 'Total', ...amounts]),
    );

  it('give each total label its own amount, so that they add up', async () => {
    // Act
    const extraction = await stackedTotals('£255.00', '£51.00', '£306.00');

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('255.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('51.00');
    const total = fieldOf(extraction, 'total');
    expect(total?.value).toBe('306.00');
    expect(total?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('read no label a value it cannot pair: three labels over two amounts', async () => {
    // Act
    const extraction = await stackedTotals('£255.00', '£306.00');

    // Assess: before, "Total" took the amount under it, the net, and the items' sum made it sure
    expect(fieldOf(extraction, 'total')?.value).not.toBe('255.00');
  });

  it('still read a label over its value, one pair under another', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        ...HEAD,
        'Invoice Number',
        'BWP-2291',
        'Invoice Date',
        '28/05/2025',
        ...ITEMS,
        'Total',
        '£255.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('BWP-2291');
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2025-05-28');
    expect(fieldOf(extraction, 'total')?.value).toBe('255.00');
  });
});
