import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { findAmounts } from '../../lambdas/extract/text/parseAmount.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * South African invoices write the rand as a bare "R" before the amount ("R 29 670,00"). A lone
 * letter is a sign only before money with its cents, and as sure as a shared sign, no surer.
 */
describe('the rand sign', () => {
  it.each([
    ['R 1 450,00', '1450.00'],
    ['R29,670.00', '29670.00'],
    ['Total (incl. VAT)   R 3 870,00', '3870.00'],
  ])('reads "%s" as rand', (text, amount) => {
    // Act
    const [found] = findAmounts(text);

    // Assess
    expect(found).toMatchObject({ amount, currency: 'ZAR' });
  });

  it.each([['R 2   12,00'], ['Rev R 3'], ['R1 Main hall 40.00'], ['R$ 1.000,00']])(
    'is no rand in "%s" (a row, a revision, the Brazilian real)',
    (text) => {
      // Act
      const currencies = findAmounts(text).map((a) => a.currency);

      // Assess
      expect(currencies).not.toContain('ZAR');
    },
  );

  it('gives an invoice in rand its currency as one guess, however many rows print the "R"', async () => {
    // Prepare
    const text = pdfTextOf([
      'Protea Office Supplies (Pty) Ltd',
      'VAT No. 4123456789',
      'TAX INVOICE',
      'Invoice Number: INV-2024-0588',
      'Invoice Date: 2024/05/22',
      '12    Office chair             R 1 450,00        R 17 400,00',
      ' 4    Filing cabinet           R 2 100,00        R 8 400,00',
      'Subtotal (excl. VAT)                             R 25 800,00',
      'VAT @ 15%                                        R 3 870,00',
      'Total (incl. VAT)                                R 29 670,00',
    ]);

    // Act
    const extraction = await new HeuristicExtractor().extract(text);

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe('ZAR');
    expect(fieldOf(extraction, 'currency')?.confidence).toBe(0.75);
    expect(fieldOf(extraction, 'total')?.value).toBe('29670.00');
  });
});
