import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Statements of account and utility invoices carry a balance from earlier invoices ("Previous
 * balance", "Balance forward", "Vorheriger Saldo"): it is no total and no amount due of this
 * invoice, whose own charges are its total.
 */
const extractor = new HeuristicExtractor();

describe('a balance carried from earlier invoices', () => {
  it.each([
    [
      'English',
      [
        'Cascade Water Services Inc.',
        'INVOICE',
        'Invoice Number: 0087712',
        'Invoice Date: May 1, 2024',
        'Previous Balance                                     $298.15',
        'Payment Received 04/18/2024 - Thank You             -$298.15',
        'Balance Forward                                        $0.00',
        'Water service 04/01/2024 - 04/30/2024                 $214.40',
        'Cooler rental (2 units)                               $110.00',
        'Current Charges                                      $342.60',
        'Total Amount Due                                     $342.60',
      ],
      '342.60',
    ],
    [
      'German',
      [
        'Stadtwerke Beispiel GmbH',
        'Rechnung Nr. 2024-55812',
        'Rechnungsdatum: 02.05.2024',
        'Vorheriger Saldo                                   0,00 €',
        'Nettobetrag                                      100,00 €',
        'USt. 19 %                                         19,00 €',
        'Rechnungsbetrag                                  119,00 €',
      ],
      '119.00',
    ],
  ])('does not contradict the total (%s)', async (_language, lines, total) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess: the total stands, sure, with nothing read against it
    expect(fieldOf(extraction, 'total')?.value).toBe(total);
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
    expect(fieldOf(extraction, 'total')?.confidence).toBeGreaterThanOrEqual(0.8);
  });
});

describe("a multi-page item table's running total", () => {
  it.each([
    [
      'English',
      [
        'Northwind Catering Ltd',
        'INVOICE NC-8812',
        'Date        Description                          Amount',
        '03/06/2024  Conference lunch                     600.00',
        '12/06/2024  Awards dinner                      1,200.00',
        'Carried forward                                1,800.00',
      ],
      [
        'Brought forward                                1,800.00',
        '18/06/2024  Coffee service                       600.00',
        'Subtotal                                       2,400.00',
        'VAT 20%                                          480.00',
        'Total                                          2,880.00',
      ],
    ],
    [
      'German',
      [
        'Partyservice Lindner GmbH',
        'Rechnung Nr. 2024-118',
        'Datum       Leistung                             Betrag',
        '03.06.2024  Conference lunch                     600,00',
        '12.06.2024  Awards dinner                      1.200,00',
        'Übertrag                                       1.800,00',
      ],
      [
        'Übertrag                                       1.800,00',
        '18.06.2024  Coffee service                       600,00',
        'Nettobetrag                                    2.400,00',
        'USt. 19 %                                        456,00',
        'Gesamtbetrag                                   2.856,00',
      ],
    ],
    [
      'English, after a note and another word',
      [
        'Northwind Catering Ltd',
        'INVOICE NC-8812',
        'Date        Description                          Amount',
        '03/06/2024  Conference lunch                     600.00',
        '12/06/2024  Awards dinner                      1,200.00',
        'Continued on next page    Subtotal carried forward   1,800.00',
      ],
      [
        'Brought forward                                1,800.00',
        '18/06/2024  Coffee service                       600.00',
        'Subtotal                                       2,400.00',
        'VAT 20%                                          480.00',
        'Total                                          2,880.00',
      ],
    ],
  ])('is no item (%s), so the items add up to the net', async (_, first, second) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(first, second));

    // Assess
    const items = fieldOf(extraction, 'lineItems')?.value as { description: string }[] | undefined;
    expect(items?.map((i) => i.description)).toEqual(['Conference lunch', 'Awards dinner', 'Coffee service']);
  });
});

describe('an item that mentions a carried balance in passing', () => {
  it('stays an item ("Storage of goods carried forward from May")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Northwind Catering Ltd',
        'INVOICE NC-8813',
        'Date        Description                                   Amount',
        '03/06/2024  Conference lunch                              600.00',
        '18/06/2024  Storage of goods carried forward from May     150.00',
        'Subtotal                                                  750.00',
        'VAT 20%                                                   150.00',
        'Total                                                     900.00',
      ]),
    );

    // Assess
    const items = fieldOf(extraction, 'lineItems')?.value as { description: string }[] | undefined;
    expect(items).toHaveLength(2);
  });
});

describe('payments already received, after "Less:"', () => {
  it.each([
    ['Less: Payments Received', '-$1,000.00'],
    ['Less amount paid', '($1,000.00)'],
    ['Less: Deposit', '-$1,000.00'],
  ])('"%s" leaves the total and the balance due apart', async (label, paid) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Cardinal Janitorial Services, Inc.',
        'INVOICE',
        'Invoice #: 88213          Invoice Date: 07/31/2024',
        'Nightly cleaning, July 2024                       $2,150.00',
        'Invoice Total                                     $2,150.00',
        `${label}                                 ${paid}`,
        'Balance Due                                       $1,150.00',
      ]),
    );

    // Assess
    const total = fieldOf(extraction, 'total');
    expect(total?.value).toBe('2150.00');
    expect(total?.evidence?.map((e) => e.kind)).not.toContain('conflict');
    expect(fieldOf(extraction, 'amountDue')?.value).toBe('1150.00');
  });
});

describe('a tax-inclusive total', () => {
  it('gives the tax it states it includes ("Includes GST of")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Kiwi Garden Design Ltd',
        'TAX INVOICE',
        'Invoice: KG-1045',
        'Date: 24/05/2024',
        'Total (GST inclusive)                                  $1,150.00',
        'Includes GST of                                          $150.00',
      ]),
    );

    // Assess: with no net printed, nothing checks the total
    expect(fieldOf(extraction, 'tax')?.value).toBe('150.00');
    expect(fieldOf(extraction, 'total')?.value).toBe('1150.00');
  });
});

describe('an amount due over this invoice, a previous balance and payments since', () => {
  const LAW_FIRM = [
    'Whitfield & Crane LLP',
    'Invoice No. 104882',
    'Date: May 5, 2025',
    'Review lease and correspondence                    2,450.00',
    'Draft motion to dismiss                            6,600.00',
    'Total fees                                         9,050.00',
    'Court filing fees                                    450.00',
    'Transcript                                           342.75',
    'Total disbursements                                  792.75',
    'Total this invoice                                 9,842.75',
    'Previous balance                                   7,500.00',
    'Payments received                                 -3,000.00',
    'Total balance due                                 14,342.75',
  ];

  it('reads the grand total over its sections, and the balance due it explains', async () => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(LAW_FIRM));

    // Assess
    const total = fieldOf(extraction, 'total');
    expect(total?.value).toBe('9842.75');
    expect(total?.evidence?.map((e) => e.detail)).toContain(
      'sections 9050.00 (p1 l6) + 792.75 (p1 l9) = total 9842.75 (p1 l10)',
    );
    expect(total?.evidence?.map((e) => e.kind)).not.toContain('conflict');
    const due = fieldOf(extraction, 'amountDue');
    expect(due?.value).toBe('14342.75');
    expect(due?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('leaves every total in doubt where the sections do not add up', async () => {
    // Prepare: the grand total is 100.00 more than its sections, and nothing else checks it
    const lines = LAW_FIRM.slice(0, 10).map((l) => l.replace('9,842.75', '9,942.75'));

    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess
    expect(fieldOf(extraction, 'total')?.confidence).toBeLessThan(0.8);
  });

  it('checks an amount due against a payment printed with its minus ("Amount paid -400.00")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Acme Ltd',
        'INVOICE',
        'Invoice No: 12',
        'Subtotal                     1,000.00',
        'VAT 20%                        200.00',
        'Total                        1,200.00',
        'Amount paid                   -400.00',
        'Amount due                     800.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'amountDue')?.evidence?.map((e) => e.detail)).toContain(
      'total 1200.00 - prepaid 400.00 (p1 l7) = 800.00',
    );
  });
});

describe("a final invoice that deducts the interim invoices paid before it (VOB 'Schlussrechnung')", () => {
  it('reads the whole work net and gross as net and total, and what remains as the amount due', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Bauunternehmung Wolf GmbH',
        'Schlussrechnung Nr. SR-2025-014',
        'Rechnungsdatum: 28.05.2025',
        'Gesamtleistung netto lt. Aufmaß                        86.400,00 €',
        'zzgl. 19 % USt.                                        16.416,00 €',
        'Gesamtleistung brutto                                 102.816,00 €',
        'abzgl. Abschlagsrechnung Nr. AR-2025-006 vom 14.03.2025   -47.600,00 €',
        'abzgl. Abschlagsrechnung Nr. AR-2025-009 vom 22.04.2025   -35.700,00 €',
        'Restbetrag zur Zahlung                                 19.516,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('86400.00');
    const total = fieldOf(extraction, 'total');
    expect(total?.value).toBe('102816.00');
    expect(total?.evidence?.map((e) => e.kind)).toContain('arithmetic');
    const due = fieldOf(extraction, 'amountDue');
    expect(due?.value).toBe('19516.00');
    expect(due?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});
