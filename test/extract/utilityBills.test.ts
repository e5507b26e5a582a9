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

describe('a bill paid by direct debit', () => {
  const bill = (...terms: string[]) =>
    extractor.extract(
      pdfTextOf([
        'Northway Energy Ltd',
        'PO Box 4421, Leeds LS1 9XX',
        'Bill number: 88120455',
        'Bill date: 3 April 2025',
        'Electricity charges                      £ 412.30',
        'VAT at 20%                                £ 82.46',
        'Amount to pay                            £ 494.76',
        ...terms,
      ]),
    );

  it.each([
    ['We will collect £494.76 by Direct Debit on or around 17 April 2025.', '2025-04-17'],
    ['Der Betrag wird am 17.04.2025 von Ihrem Konto abgebucht (SEPA-Lastschrift).', '2025-04-17'],
    ['Le montant sera prélevé le 17/04/2025 sur votre compte.', '2025-04-17'],
  ])('takes the day the amount is collected as the due date: %s', async (terms, due) => {
    // Act
    const extraction = await bill(terms);

    // Assess
    const dueDate = fieldOf(extraction, 'dueDate');
    expect(dueDate?.value).toBe(due);
    expect(dueDate?.confidence).toBeLessThan(0.8);
  });

  it.each([
    ['Direct Debit mandate ABC-123 signed on 2 February 2020.'],
    ['Collected amounts for 1 March 2025 and 1 April 2025 are shown overleaf.'],
  ])("reads no due date from a mandate's date or from two dates: %s", async (terms) => {
    // Act
    const extraction = await bill(terms);

    // Assess
    expect(fieldOf(extraction, 'dueDate')).toBeUndefined();
  });
});

describe('an amount due and a customer under the labels of other documents', () => {
  it('reads a final invoice\'s "Restforderung" (the total less the partial invoices paid) as the amount due', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Köhler Bau GmbH · Industriestraße 9 · 89073 Ulm',
        'Schlussrechnung Nr. SR-2025-031',
        'Gesamtleistung netto                                 100.000,00 €',
        'zzgl. 19 % USt.                                       19.000,00 €',
        'Gesamtbetrag brutto                                  119.000,00 €',
        'Restforderung                                         35.700,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe('119000.00');
    expect(fieldOf(extraction, 'amountDue')?.value).toBe('35700.00');
  });

  it('names the customer of a credit note after "Credit to"', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Brightpath Learning Ltd',
        'Credit Note',
        'Credit note number   BPL-CN-0042',
        'Credit to',
        'Oakridge Academy Trust',
        'Total                                     -£240.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Oakridge Academy Trust');
  });
});

describe("an insurer's premium invoice", () => {
  it.each([
    [
      'German (Beitragsrechnung)',
      [
        'Rheinische Versicherung AG',
        'Beitragsrechnung Nr. BR-2025-771204',
        'Datum: 02.06.2025',
        'Versicherungsnehmer:',
        'Schreinerei Brandt GmbH',
        'Industriestraße 8, 51063 Köln',
        'Betriebshaftpflichtversicherung, Vertrag 44-112233',
        'Nettobeitrag                                      1.240,00 €',
        'Versicherungsteuer 19 %                             235,60 €',
        'Zu zahlender Beitrag                              1.475,60 €',
      ],
      'Schreinerei Brandt GmbH',
    ],
    [
      'English (premium and Insurance Premium Tax)',
      [
        'Northern Mutual Insurance plc',
        'Premium Invoice No. PI-2025-771204',
        'Date: 02/06/2025',
        'Policyholder:',
        'Brandt Joinery Ltd',
        '8 Mill Road, Leeds LS10 1AA',
        'Net premium                                      £1,240.00',
        'Insurance Premium Tax 19%                          £235.60',
        'Total premium payable                            £1,475.60',
      ],
      'Brandt Joinery Ltd',
    ],
  ])(
    '%s: reads the net premium, the insurance tax and the premium to pay as net, tax and total',
    async (_, lines, customer) => {
      // Act
      const extraction = await extractor.extract(pdfTextOf(lines));

      // Assess
      expect(fieldOf(extraction, 'subtotal')?.value).toBe('1240.00');
      expect(fieldOf(extraction, 'tax')?.value).toBe('235.60');
      const total = fieldOf(extraction, 'total');
      expect(total?.value).toBe('1475.60');
      expect(total?.evidence?.map((e) => e.kind)).toContain('arithmetic');
      expect(fieldOf(extraction, 'customer')?.value).toBe(customer);
    },
  );
});

describe("a utility bill's contract holder", () => {
  it.each([
    ['Titulaire du contrat : SCI Les Tilleuls', 'SCI Les Tilleuls'],
    ['Titular: Clínica Dental Ruzafa S.L.', 'Clínica Dental Ruzafa S.L.'],
  ])('is the customer ("%s")', async (line, customer) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Énergie Rhône-Alpes SA',
        'FACTURE',
        'N° de facture : 10 2025 0531 7788',
        line,
        'Montant TTC   132,43 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe(customer);
  });

  it.each([
    ['Titulaire du compte : Énergie Rhône-Alpes SA'],
    ['Titular de la cuenta: Eléctrica del Mediterráneo, S.A.U.'],
  ])('is not the holder of the bank account the bill is paid to ("%s")', async (line) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Énergie Rhône-Alpes SA',
        'FACTURE',
        'N° de facture : 10 2025 0531 7788',
        'Montant TTC   132,43 €',
        line,
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')).toBeUndefined();
  });
});
