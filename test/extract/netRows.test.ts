import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Invoices of two VAT rates that print each rate's net and tax but no net for both, as hotels
 * and restaurants do (rooms at 7 %, breakfast at 19 %): the rows' nets and taxes make the total.
 */
const extractor = new HeuristicExtractor();

describe('a net and a tax per rate, and no net for both', () => {
  it.each([
    [
      'label rows',
      [
        'Netto 7 %        220,00 €      MwSt. 7 %     15,40 €',
        'Netto 19 %        60,00 €      MwSt. 19 %    11,40 €',
        'Gesamt brutto                               306,80 €',
      ],
    ],
    [
      'a breakdown headed by columns',
      [
        'USt. %        Netto          USt.',
        '7 %           220,00 €       15,40 €',
        '19 %           60,00 €       11,40 €',
        'Rechnungsbetrag              306,80 €',
      ],
    ],
  ])('settle the sum (%s)', async (_, block) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Hotel Adler GmbH', 'Rechnung Nr. 10455', ...block]),
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('280.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('26.80');
    expect(fieldOf(extraction, 'total')?.value).toBe('306.80');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('settles nothing when the rows do not add up to the total (a city tax on top)', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Hotel Adler GmbH',
        'Rechnung Nr. 10455',
        'Netto 7 %        220,00 €      MwSt. 7 %     15,40 €',
        'Netto 19 %        60,00 €      MwSt. 19 %    11,40 €',
        'Gesamt brutto                               310,70 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).not.toContain('arithmetic');
  });
});

describe('an English net row labelled "Net" alone', () => {
  it('is the subtotal, not a row of the item table, and the sums check the total', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Harbor Office Ltd',
        'INVOICE',
        'Invoice No: 2024-311',
        'Description                        Qty     Price     Amount',
        'Toner cartridges                     2     50.00     100.00',
        'Net                                                  100.00',
        'VAT 20%                                               20.00',
        'Total                                              £ 120.00',
        'Terms: Net 30',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('100.00');
    expect(fieldOf(extraction, 'lineItems')?.value).toHaveLength(1);
    expect(fieldOf(extraction, 'total')?.confidence).toBeGreaterThan(0.95);
    expect(fieldOf(extraction, 'paymentTerms')?.value).toBe('Net 30');
  });
});
