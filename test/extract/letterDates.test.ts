import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Dates without a label: a letter's place and date ("Freiburg, 14.03.2024"), as European letters
 * and invoices date themselves, and a date alone at the top of a receipt. Slash dates of a UK
 * invoice, settled by its VAT registration.
 */
const extractor = new HeuristicExtractor();

const invoice = (...top: string[]) =>
  extractor.extract(
    pdfTextOf([
      'Muster GmbH',
      'Hauptstraße 1, 10115 Berlin',
      'Rechnung Nr. 10455',
      ...top,
      'Leistung                       Betrag',
      'Beratung                       100,00 €',
      'Gesamtbetrag                   100,00 €',
    ]),
  );

describe("a letter's place and date", () => {
  it.each([
    ['Freiburg, 14.03.2024', '2024-03-14'],
    ['Berlin, den 14. März 2024', '2024-03-14'],
    ['Paris, le 14 mars 2024', '2024-03-14'],
    ['Madrid, 14 de marzo de 2024', '2024-03-14'],
    ['Bad Homburg v. d. Höhe, 14.03.2024', '2024-03-14'],
  ])('"%s" dates the invoice as surely as a label', async (line, iso) => {
    // Act
    const extraction = await invoice(line);
    const labelled = await invoice('Datum: 14.03.2024');

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe(iso);
    expect(fieldOf(extraction, 'invoiceDate')?.confidence).toBe(fieldOf(labelled, 'invoiceDate')?.confidence);
  });

  it('reads it in the right column, beside the address', async () => {
    // Act
    const extraction = await invoice('10115 Berlin                         Freiburg, 14.03.2024');

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2024-03-14');
  });

  it('takes no date that words follow ("Freiburg, 12.03.2024 bis 14.03.2024" is a stay)', async () => {
    // Act
    const extraction = await invoice('Freiburg, 12.03.2024 bis 14.03.2024');

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')).toBeUndefined();
  });

  it('lets a labelled invoice date decide over it, with no conflict below the floor', async () => {
    // Act
    const extraction = await invoice('Rechnungsdatum: 15.03.2024', 'Freiburg, 15.03.2024');

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2024-03-15');
    expect(fieldOf(extraction, 'invoiceDate')?.confidence).toBeGreaterThan(0.9);
  });
});

describe('a label that names the place and the date', () => {
  it.each([
    ['Kraj in datum izdaje: Sežana, 14.03.2024', '2024-03-14'],
    ['Mjesto i datum izdavanja: Zagreb, 14.03.2024.', '2024-03-14'],
  ])('"%s" dates the invoice after the place, as surely as without it', async (line, iso) => {
    // Act
    const extraction = await invoice(line);
    const withoutPlace = await invoice(line.replace(/: \p{Lu}\p{Ll}+, /u, ': '));

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe(iso);
    expect(fieldOf(extraction, 'invoiceDate')?.confidence).toBe(
      fieldOf(withoutPlace, 'invoiceDate')?.confidence,
    );
  });
});

describe('a date alone at the top', () => {
  it("is a guess under the doubt floor (a receipt's date and time)", async () => {
    // Act
    const extraction = await invoice('12.03.2024 08:14');

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2024-03-12');
    expect(fieldOf(extraction, 'invoiceDate')?.confidence).toBeLessThan(0.6);
  });

  it.each([['11.04.2025  20:41  Tisch 7'], ['11.04.2025  20:41:05  Kasse 2  Bon 4471']])(
    "is a receipt's date and time that open a line with more after them (%s)",
    async (line) => {
      // Act
      const extraction = await invoice(line);

      // Assess
      expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2025-04-11');
      expect(fieldOf(extraction, 'invoiceDate')?.confidence).toBeLessThan(0.6);
    },
  );

  it("is a receipt's stamp of date and time in a cell of its own, also at the foot beside its number", async () => {
    // Act: thirty item lines push the stamp past the top of the page
    const items = Array.from({ length: 30 }, (_, i) => `Artikel ${i + 1}                 1,00 €`);
    const extraction = await extractor.extract(
      pdfTextOf([
        'Baumarkt Lindner',
        ...items,
        'Summe                  30,00 €',
        'Beleg-Nr. 8842   28.05.2025 16:21',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2025-05-28');
    expect(fieldOf(extraction, 'invoiceDate')?.confidence).toBeLessThan(0.6);
  });

  it("is a US check's stamp with its time of day in AM/PM", async () => {
    // Act
    const extraction = await invoice('Check #4471         05/30/2025 7:42 PM');

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2025-05-30');
  });

  it('is not read from a row with a time that ends in an amount (a call, an item)', async () => {
    // Act
    const extraction = await invoice('11.04.2025  20:41  0171 2345678  0,09 €');

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')).toBeUndefined();
  });

  it("is not read from a label's value beside it", async () => {
    // Act
    const extraction = await invoice('Fälligkeitsdatum:          05.04.2024');

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')).toBeUndefined();
  });

  it('is not read from the first cell of an item row', async () => {
    // Act
    const extraction = await invoice('12.03.2024   Übernachtung   110,00 €');

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')).toBeUndefined();
  });
});

describe('slash dates of an invoice in pounds', () => {
  const uk = (...extra: string[]) =>
    extractor.extract(
      pdfTextOf([
        'Harbour Joinery Ltd',
        'INVOICE',
        'Invoice No: HJ-2031',
        'Date: 12/03/2024',
        'Oak staircase                  £1,000.00',
        'Total                          £1,000.00',
        ...extra,
      ]),
    );

  it('read day first without doubt when the issuer is registered for VAT in Europe', async () => {
    // Act
    const extraction = await uk('VAT Registration No. GB 123 4567 89');

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2024-03-12');
    expect(fieldOf(extraction, 'invoiceDate')?.alternatives).toBeUndefined();
  });

  it('stay two-way on the currency alone', async () => {
    // Act
    const extraction = await uk();

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.alternatives).toEqual(['2024-12-03']);
  });

  it('stay two-way when the VAT id is of the scheme for sellers outside the Union', async () => {
    // Act
    const extraction = await uk('VAT No. EU372000041');

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.alternatives).toEqual(['2024-12-03']);
  });
});
