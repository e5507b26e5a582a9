import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A credit note's last line says what the buyer gets back, not what it pays ("Att få tillbaka",
 * "Amount to be refunded", "Montant à rembourser"): that amount states its total.
 */
const extractor = new HeuristicExtractor();

describe("a credit note's amount to be refunded", () => {
  it.each([
    [
      'Swedish',
      'KREDITFAKTURA',
      'Summa exkl. moms  -1 000,00',
      'Moms 25 %  -250,00',
      'Att få tillbaka  -1 250,00 kr',
    ],
    [
      'Swedish, "to receive"',
      'KREDITFAKTURA',
      'Summa exkl. moms  -1 000,00',
      'Moms 25 %  -250,00',
      'Att erhålla SEK  -1 250,00',
    ],
    ['English', 'CREDIT NOTE', 'Net  -1,000.00', 'VAT 25%  -250.00', 'Amount to be refunded  -1,250.00'],
    ['French', 'AVOIR', 'Total HT  -1 000,00', 'TVA 25 %  -250,00', 'Montant à rembourser  -1 250,00 €'],
    ['Polish', 'FAKTURA KORYGUJĄCA', 'Razem netto  -1 000,00', 'VAT 25%  -250,00', 'Do zwrotu  -1 250,00 zł'],
  ])('is its total (%s)', async (_language, title, net, tax, refund) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Kontorsbolaget AB', title, 'Nr K-2025-031', net, tax, refund]),
    );

    // Assess
    const total = fieldOf(extraction, 'total');
    expect(total?.value).toBe('-1250.00');
    expect(total?.evidence?.some((e) => e.kind === 'arithmetic')).toBe(true);
  });
});
