import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * "Total" followed by a tax's own label totals the tax, not the invoice ("Total MWST 48.33" under
 * a hotel bill's breakdown by rate), and a payment row ("Bezahlt mit Visa") explains a balance of
 * nothing after it.
 */
const extractor = new HeuristicExtractor();
const read = async (...lines: string[]) => extractor.extract(pdfTextOf(lines));

describe('a total of the tax', () => {
  it.each([
    ['de', 'Nettobetrag   400,00', 'Total MWST   32,40', 'Total CHF   432,40', '32.40', '432.40'],
    ['en', 'Subtotal   400.00', 'Total VAT 20%   80.00', 'Invoice total   480.00', '80.00', '480.00'],
    ['it', 'Imponibile   400,00', 'Totale IVA   88,00', 'Totale documento   488,00', '88.00', '488.00'],
  ])(
    '%s: reads "%s / %s / %s" as net, tax and total that make a sum',
    async (_, net, tax, total, taxValue, totalValue) => {
      // Act
      const extraction = await read(
        'Hotel Bellevue AG',
        'Rechnung / Invoice / Fattura Nr. 887421',
        net,
        tax,
        total,
      );

      // Assess
      expect(fieldOf(extraction, 'tax')?.value).toBe(taxValue);
      expect(fieldOf(extraction, 'total')?.value).toBe(totalValue);
      expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
    },
  );

  it('is the gross where the label says how it stands to the tax ("Total inkl. MWST")', async () => {
    // Act
    const extraction = await read(
      'Schreinerei Imhof AG',
      'Rechnung Nr. 25-0412',
      "Total exkl. MWST   4'288.00",
      'MWST 8.1 %   347.33',
      "Total inkl. MWST   4'635.33",
    );

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe('4635.33');
    expect(fieldOf(extraction, 'tax')?.value).toBe('347.33');
  });

  it('is no tax where a word joins the tax label ("Total MWST-freie Umsätze")', async () => {
    // Act
    const extraction = await read(
      'Hotel Bellevue AG',
      'Rechnung Nr. 887421',
      'Total MWST-freie Umsätze   150,00',
      'Total CHF   150,00',
    );

    // Assess
    expect(fieldOf(extraction, 'tax')).toBeUndefined();
  });
});

describe('a payment printed under the total', () => {
  it.each([
    ['de', 'Bezahlt mit Visa', '1.148,00', 'Saldo'],
    ['fr', 'Payé par carte', '1 148,00', 'Solde'],
  ])(
    '%s: "%s" explains a balance of nothing, which reads against no total',
    async (_, paid, amount, balance) => {
      // Act
      const extraction = await read(
        'Hotel Bellevue AG',
        'Rechnung Nr. 887421',
        `Total   ${amount}`,
        `${paid}   ${amount}`,
        `${balance}   0,00`,
      );

      // Assess
      const total = fieldOf(extraction, 'total');
      expect(total?.value).toBe('1148.00');
      expect(total?.evidence?.map((e) => e.kind)).not.toContain('conflict');
    },
  );
});
