import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { findAmounts } from '../../lambdas/extract/text/parseAmount.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Amounts whose thousands are grouped by spaces and that print no currency ("2 400,00"), as
 * French, Nordic and Polish invoices print them. Read as "2" and "400,00" they made a sum that
 * held on wrong values: "2 000,00" + "400,00" = "2 400,00" became 0,00 + 400,00 = 400,00.
 */
describe('amounts grouped by spaces without a currency', () => {
  it.each([
    ['2 400,00', '2400.00'],
    ['1 234 567,89', '1234567.89'],
    ['12\u00a0345,00', '12345.00'],
    ['12\u202f345,00', '12345.00'],
    ['2 400.00', '2400.00'],
  ])('"%s" is one amount, %s', (text, amount) => {
    // Act
    const found = findAmounts(`Total  ${text}`);

    // Assess
    expect(found.map((a) => a.amount)).toEqual([amount]);
  });

  it('keeps a count and a number without cents apart ("2 400" may be two numbers)', () => {
    // Act
    const found = findAmounts('Widgets  2 400');

    // Assess
    expect(found.map((a) => a.amount)).toEqual(['2', '400']);
  });

  it('reads the totals of an invoice that prints no currency sign', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Durand SARL',
        'FACTURE F-12',
        'Total HT                  2 000,00',
        'TVA 20 %                    400,00',
        'Total TTC                 2 400,00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('2000.00');
    expect(fieldOf(extraction, 'total')?.value).toBe('2400.00');
  });
});

describe('a net of nothing', () => {
  it('settles no sum with a tax other than zero', async () => {
    // Act: a net misread as 0,00 plus the tax "adds up" to a total that is the tax.
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Durand SARL',
        'FACTURE F-12',
        'Total HT  0,00 €',
        'TVA 20 %  400,00 €',
        'Total TTC  400,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).not.toContain('arithmetic');
  });
});
