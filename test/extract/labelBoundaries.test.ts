import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Words that look like labels and are not: a weak label (a generic word, "Date", "Datum") that
 * starts a longer label OCR garbled ("Date d'échéancetepe" for "Date d'échéance"), and the tail of
 * a compound word ("Lieferschein-Datum", "Art-Nr-" over "Lieferant"). The value beside them is
 * another field's, and must not contradict the one a real label gives.
 */
const extractor = new HeuristicExtractor();

describe('a weak label followed by other words', () => {
  it.each([
    ['Facture FA-7', 'Date de facture  05/11/2017', "Date d'échéancetepe  05/12/2017", 'Total TTC  119,00 €'],
    ['Rechnung 7', 'Rechnungsdatum  05.11.2017', 'Datum Liefermngx  05.12.2017', 'Gesamtbetrag  119,00 €'],
    ['Factuur 7', 'Factuurdatum  05-11-2017', 'Datum leveringq  05-12-2017', 'Totaal  119,00 €'],
    ['Invoice 7', 'Invoice date  5 November 2017', 'Date shippedq  5 December 2017', 'Total  119.00 EUR'],
  ])('%s: the date beside it is not the invoice date', async (...lines) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(['Muster GmbH', ...lines]));

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2017-11-05');
    expect(fieldOf(extraction, 'invoiceDate')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });

  it.each([['Date  05/11/2017'], ['Date: 05/11/2017'], ['Datum  05.11.2017']])(
    'a weak label alone still gives its value: %s',
    async (line) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf(['Muster GmbH', 'Facture FA-7', line, 'Total TTC  119,00 €']),
      );

      // Assess
      expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2017-11-05');
    },
  );
});

describe('the tail of a compound word is not a label', () => {
  it.each([
    ['Lieferschein-Datum : 05.12.2017'],
    ['Bestell-Datum : 05.12.2017'],
    ['Liefer-Datum: 05.12.2017'],
  ])('on its line: %s', async (compound) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Muster GmbH',
        'Rechnung Nr. 7',
        'Rechnungsdatum: 05.11.2017',
        compound,
        'Gesamtbetrag  119,00 €',
      ]),
    );

    // Assess: "Datum" there is the other document's date, and contradicts nothing
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2017-11-05');
    expect(fieldOf(extraction, 'invoiceDate')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });

  it.each([
    ['de', ['Rechnung Nr. 7', 'Verkäufer:', 'Muster GmbH', 'Pos  Art-Nr-', '1  Lieferant', '2  ZS9997']],
    ['en', ['Invoice 7', 'Seller:', 'Muster Ltd', 'Item  Spare-', '1  Supplier', '2  ZS9997']],
  ])('broken over two lines (%s)', async (_, lines) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf([...lines, 'Total  119,00 €']));

    // Assess: the article code under the compound's tail is no second seller
    expect(fieldOf(extraction, 'vendor')?.value).toMatch(/^Muster/);
    expect(fieldOf(extraction, 'vendor')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });
});

describe('a label inside a sentence', () => {
  const extractor = new HeuristicExtractor();

  it('refers to a number, and weighs less than the title that states it', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Handelsrechnung Nr. E2018092011804 vom 20.09.2018',
        'Verkehrsbetriebe GmbH',
        'Bei Schriftwechsel bitte Ihre Kundennummer 35040727 und Belegnummer 2018092011804 angeben',
        'Gesamtbetrag    9,00 EUR',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('E2018092011804');
    expect(fieldOf(extraction, 'invoiceNumber')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });

  it('is still read after a list of registration numbers ("SIRET ... - N° TVA ...")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Au bon moulin SARL',
        'Facture',
        'SIRET 123 456 789 00012 - Facture N° F-2018-77',
        'Total TTC    120,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('F-2018-77');
  });
});

describe('two labels joined by a slash over one value', () => {
  it.each([
    ['Rechnung', 'Rechnungsdatum / Lieferdatum: 12.04.2024', 'Gesamtbetrag  119,00 €'],
    ['Rechnung', 'Rechnungsdatum/Leistungsdatum  12.04.2024', 'Gesamtbetrag  119,00 €'],
    ['Invoice', 'Invoice date / Tax point: 12 April 2024', 'Total  119.00 EUR'],
    ['Facture', 'Date de facture / de livraison : 12/04/2024', 'Total TTC  119,00 €'],
  ])('%s: %s gives the value to the first label too', async (...lines) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(['Muster GmbH', ...lines]));

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2024-04-12');
  });
});

describe('a short number after a label that says "number"', () => {
  it.each([
    ['en', 'Invoice Number:   42', '42'],
    ['en', 'Invoice #    7', '7'],
    ['de', 'Rechnungsnummer:  42', '42'],
    ['fr', 'N° de facture : 42', '42'],
  ])('is the invoice number (%s): %s', async (_, line, number) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Maple Leaf Bookkeeping', line, 'Total   $500.00']),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe(number);
  });
});

describe("a Mexican invoice's folio", () => {
  it.each([['Serie y Folio: A-1187'], ['Folio: A-1187']])('is its number: %s', async (line) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Distribuidora del Bajío S.A. de C.V.', 'FACTURA', line, 'Total   $11,600.00 MXN']),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('A-1187');
  });

  it('is not the fiscal folio, a UUID ("Folio fiscal: 5FB2822E-…")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Distribuidora del Bajío S.A. de C.V.',
        'FACTURA',
        'Folio: A-1187',
        'Folio fiscal: 5FB2822E-396D-4725-8521-CDC4BDD20CCF',
        'Total   $11,600.00 MXN',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('A-1187');
  });
});

describe('a weak label that ends another inside a cell', () => {
  it.each([
    ['Order Date: 10.06.2024', 'Invoice Date : 11.06.2024'],
    ['Delivery Date: 10.06.2024', 'Invoice Date : 11.06.2024'],
  ])('"%s" is not the invoice date beside "%s"', async (other, own) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Cloudtail India Private Limited',
        'Invoice Number : BLR7-1234567',
        `${other}          ${own}`,
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2024-06-11');
    expect(fieldOf(extraction, 'invoiceDate')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });
});

describe('two labels joined by a slash over two values', () => {
  it.each([
    ['Rechnungsnr./Datum  9000012345 / 03.05.2025', '9000012345', '2025-05-03'],
    ['Invoice No. / Date  INV-4711 / 3 May 2025', 'INV-4711', '2025-05-03'],
  ])('gives each label its part ("%s")', async (line, number, date) => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf(['Rheinische Armaturen AG', 'Rechnung', line, 'Gesamtbetrag  5.057,50 €']),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe(number);
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe(date);
  });
});
