import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * What a real correction invoice's summary block taught (ZUGFeRD "Rechnungskorrektur"): a total
 * of surcharges is not the invoice's total, a VAT breakdown may print its rates without the sign,
 * and a seller's block may start with its identifiers rather than its name.
 */
const extractor = new HeuristicExtractor();
const read = async (...lines: string[]) => extractor.extract(pdfTextOf(lines));

describe('a total of something else is not the invoice total', () => {
  it.each([
    ['Gesamtbetrag der Zuschläge  0,00', 'Gesamtbetrag  119,00', '119.00'],
    ['Total of discounts  5.00', 'Total  119.00', '119.00'],
    ['Total des frais de port  12,00', 'Total TTC  119,00', '119.00'],
    ['Totaal van kortingen  5,00', 'Totaal  119,00', '119.00'],
  ])('%s', async (other, total, expected) => {
    // Act: the other total comes first, as it does in a summary block
    const extraction = await read('Rechnung Nr. 7', 'Muster GmbH', other, total);

    // Assess: read alone, it would have been a second, conflicting total
    expect(fieldOf(extraction, 'total')?.value).toBe(expected);
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });

  it.each([
    ['Montant total de la facture  119,00 €'],
    ['Gesamtbetrag der Rechnung  119,00 EUR'],
    ['Total of invoice  119.00'],
  ])('keeps the total of the document itself: %s', async (total) => {
    // Act
    const extraction = await read('Invoice 7', 'Muster GmbH', total);

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe('119.00');
  });

  it('keeps an amount that follows the link word at once ("Acompte de 201,00 €")', async () => {
    // Act
    const extraction = await read(
      'Facture FA-7',
      'Muster SARL',
      'Total HT  559,29 €',
      'TVA 20 %  111,86 €',
      'Total TTC  671,15 €',
      'Acompte de 201,00 €',
      'Net à payer  470,15 €',
    );

    // Assess: the deposit explains the amount due
    expect(fieldOf(extraction, 'amountDue')?.value).toBe('470.15');
    expect(fieldOf(extraction, 'amountDue')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe('a VAT breakdown whose rate column prints no percent sign', () => {
  it('sums the tax column, not the basis, and the sum settles net and gross', async () => {
    // Act
    const extraction = await read(
      'Rechnungskorrektur Nr. RK-7',
      'Muster GmbH',
      'Art (Kategorie)  Basisbetrag  USt. %  Steuerbetrag',
      'Umsatzsteuer (S)  -4,85  19  -0,92',
      'Umsatzsteuer (S)  -2,82  7  -0,20',
      'Positionssumme  -7,90',
      'Rechnungssumme ohne USt.  -7,67',
      'Bruttosumme  -8,79',
    );

    // Assess
    expect(fieldOf(extraction, 'tax')?.value).toBe('-1.12');
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('-7.67');
    expect(fieldOf(extraction, 'total')?.value).toBe('-8.79');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe("an identifier at the top of a party's block is not its name", () => {
  it.each([
    ['GLN 4333741000005'],
    ['DUNS 150483782'],
    ['Lief-Nr 549910'],
    // OCR read the colon of "Nummer : 549910" as a letter, a column away
    ['Nummer  i 549910'],
  ])('%s', async (identifier) => {
    // Act: a detail line between them, so the name is not the line after the identifier
    const extraction = await read(
      'Rechnung Nr. 7',
      'Verkäufer:',
      identifier,
      'Telefon: +49 932 431 0',
      'MUSTERLIEFERANT GMBH',
      'BAHNHOFSTRASSE 99',
      'Gesamtbetrag  119,00',
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('MUSTERLIEFERANT GMBH');
  });
});

describe('a total less than the net amount is not the gross total', () => {
  it.each([
    ['Total HT  624,90 €', 'Total  46,25 €', 'Total TTC  671,15 €', '671.15'],
    ['Net total  624.90 EUR', 'Total  46.25 EUR', 'Grand total  671.15 EUR', '671.15'],
    ['Nettobetrag  -624,90 €', 'Gesamt  -46,25 €', 'Bruttobetrag  -671,15 €', '-671.15'],
  ])('%s, %s, %s', async (net, garbled, gross, expected) => {
    // Act: the tax is unreadable (a damaged scan), so no sum settles the totals
    const extraction = await read('Facture FA-7', 'Muster SARL', net, 'TVA ## illisible', garbled, gross);

    // Assess: the smaller "total" comes first, yet tax only adds
    expect(fieldOf(extraction, 'total')?.value).toBe(expected);
  });
});
