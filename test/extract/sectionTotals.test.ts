import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * UK VAT invoices set out the total of each kind of supply ("Total VAT-exempt sales", "Total
 * zero-rated sales", "Total standard-rated sales"), then the VAT and the invoice's total. Every
 * one of those rows starts with "Total": the sum says which is the invoice's.
 */
const extractor = new HeuristicExtractor();

const pharmacy = (zeroRated: string, total: string) =>
  pdfTextOf([
    'Greenleaf Pharmacy Ltd',
    'INVOICE GP-77120',
    'Invoice date: 30 May 2025',
    'Description                         VAT      Amount',
    `Medicines (zero-rated)               0%      ${zeroRated}`,
    'Dressings (exempt)                   E        40.00',
    'Skin care products                  20%      150.00',
    'Total VAT-exempt sales                        40.00',
    `Total zero-rated sales                       ${zeroRated}`,
    'Total standard-rated sales                   150.00',
    'VAT at 20%                                    30.00',
    `Invoice total                           £    ${total}`,
  ]);

describe('totals of each kind of supply, then the VAT and the total', () => {
  it('reads the total as the sum of the supplies and the VAT, and their sum as the net', async () => {
    // Act
    const extraction = await extractor.extract(pharmacy('100.00', '320.00'));

    // Assess
    const total = fieldOf(extraction, 'total');
    expect(total?.value).toBe('320.00');
    expect(total?.evidence?.map((e) => e.detail)).toContain(
      'sections 40.00 (p1 l8) + 100.00 (p1 l9) + 150.00 (p1 l10) + tax 30.00 (p1 l11) = total 320.00 (p1 l12)',
    );
    expect(fieldOf(extraction, 'tax')?.value).toBe('30.00');
    expect(fieldOf(extraction, 'tax')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('290.00');
  });

  it('does not take a supply total for the net of a later one that the VAT row happens to fit', async () => {
    // Prepare: zero-rated 120.00 + VAT 30.00 = standard-rated 150.00, by chance
    const text = pharmacy('120.00', '340.00');

    // Act
    const extraction = await extractor.extract(text);

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe('340.00');
  });
});
