import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Utility and telecom bills: a year's charges less the instalments already paid, or a month's
 * charges with the payment deadline printed inside the amount's own label.
 */
const extractor = new HeuristicExtractor();

describe('a utility bill', () => {
  it('reads a German annual bill\'s "Nachzahlung" (the charges less the instalments paid) as the amount due', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Stadtwerke Talheim GmbH · Postfach 1120 · 74388 Talheim',
        'Bäckerei Vogel',
        'Hauptstraße 5',
        '74388 Talheim',
        'Rechnungsnummer: 4100238871',
        'Datum: 10.02.2025',
        'Jahresabrechnung Strom 2024',
        'Arbeitspreis           3.250 kWh × 0,3120 €/kWh              1.014,00 €',
        'Grundpreis             12 Monate × 12,50 €/Monat               150,00 €',
        'Nettobetrag                                                   1.164,00 €',
        'Umsatzsteuer 19 %                                               221,16 €',
        'Rechnungsbetrag brutto                                        1.385,16 €',
        'abzüglich geleistete Abschläge (11 × 115,00 €)              - 1.265,00 €',
        'Nachzahlung                                                     120,16 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe('1385.16');
    expect(fieldOf(extraction, 'amountDue')?.value).toBe('120.16');
  });

  it('reads "Total Amount Due by 05/27/2025" as the amount due and its due date', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'PACIFIC COAST WIRELESS INC.',
        'Harborview Property Management LLC',
        'Invoice Number: 2025-05-771820',
        'Statement Date: 05/06/2025',
        'Previous Balance                                $ 402.18',
        'Payment Received 04/22 - Thank You             -$ 402.18',
        'Monthly Plan Charges (6 lines)                  $ 355.00',
        'Taxes, Fees & Surcharges                         $ 31.44',
        'Total Current Charges                           $ 386.44',
        'Total Amount Due by 05/27/2025                  $ 386.44',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'amountDue')?.value).toBe('386.44');
    expect(fieldOf(extraction, 'dueDate')?.value).toBe('2025-05-27');
  });
});
