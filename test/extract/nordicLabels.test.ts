import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/** How Swedish, Danish and Norwegian invoicing programs label what the vocabularies' tests do not. */
const extractor = new HeuristicExtractor();

describe('Nordic invoices', () => {
  it.each([
    ['Belopp före moms', 'Moms 25 %', 'Totalt att betala'],
    ['Beløb før moms', 'Moms 25%', 'I alt'],
    ['Beløb i alt ekskl. moms', 'Moms 25%', 'I alt DKK'],
    ['Beløp før mva', 'Mva 25 %', 'Å betale'],
  ])('read "%s" as the net that the sum settles', async (net, tax, total) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Faktura 5521', `${net}    6 000,00`, `${tax}    1 500,00`, `${total}    7 500,00`]),
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('6000.00');
    expect(fieldOf(extraction, 'subtotal')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('read a Norwegian organisation number followed by "MVA" as the VAT registration it is', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Nordlys Rørlegger AS',
        'Org.nr 998 877 665 MVA',
        'FAKTURA',
        'Fakturanr: 10045',
        'Å betale   5 000,00',
      ]),
    );

    // Assess: the same id as "NO 998 877 665 MVA", and so Norway's currency as a guess
    expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe('NO998877665');
    expect(fieldOf(extraction, 'currency')?.value).toBe('NOK');
    expect(fieldOf(extraction, 'currency')?.confidence).toBeLessThan(0.75);
  });

  it('keep a nine-digit number without "MVA" a bare registration number', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Nordlys Rørlegger AS',
        'Org.nr 998 877 665',
        'FAKTURA',
        'Fakturanr: 10045',
        'Å betale   5 000,00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe('998877665');
  });

  it.each([
    ['Fakturamottaker:', 'FAKTURA', 'Å betale'],
    ['Fakturamodtager:', 'Faktura', 'I alt'],
    ['Faktureres til:', 'Faktura', 'I alt'],
    ['Faktureres til:', 'FAKTURA', 'Å betale'],
    ['Faktureras till:', 'FAKTURA', 'Att betala'],
  ])('name the customer in the block under "%s", the invoice\'s recipient', async (label, title, total) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        title,
        'Bergen Regnskap AS',
        'Strandkaien 2, 5013 Bergen',
        label,
        'Fjordhytta Utleie AS',
        'Postboks 77, 5804 Bergen',
        'Fakturanummer: 2025-0331',
        `${total}   11 875,00`,
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Fjordhytta Utleie AS');
  });

  it.each([
    ['Betalingsdato:', 'Faktura', 'I alt'],
    ['Betalingsdato:', 'FAKTURA', 'Å betale'],
    ['Betalningsdatum:', 'FAKTURA', 'Att betala'],
  ])(
    'read "%s", the payment date, as the due date, as English "Payment date"',
    async (label, title, total) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf([
          'Kystens Tømrer ApS',
          `${title} nr. 2025-0219`,
          'Fakturadato: 08-04-2025',
          `${label} 22-04-2025`,
          `${total}   34.462,50`,
        ]),
      );

      // Assess
      expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2025-04-08');
      expect(fieldOf(extraction, 'dueDate')?.value).toBe('2025-04-22');
    },
  );
});
