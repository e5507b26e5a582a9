import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { findAmounts } from '../../lambdas/extract/text/parseAmount.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * SAP and other ERPs print a negative amount with its minus after the number ("200,00-"), and
 * hyphenate their labels ("Gutschrift-Nr."): a credit note printed so is read with its signs.
 */
describe('a minus after the number', () => {
  it.each([
    ['200,00-', '-200.00'],
    ['Nettowert      200,00-   ', '-200.00'],
    ['EUR 238,00-', '-238.00'],
  ])('makes "%s" negative', (text, amount) => {
    // Act
    const [found] = findAmounts(text);

    // Assess
    expect(found?.amount).toBe(amount);
  });

  it.each([
    ['10-20', '10'],
    ['12,50-15,00', '12.50'],
  ])('is a range\'s dash in "%s", not a sign', (text, first) => {
    // Act
    const [found] = findAmounts(text);

    // Assess
    expect(found?.amount).toBe(first);
  });

  it('reads an SAP credit note with its number, net, tax and total', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Chemiehandel Rhein-Main AG · Hafenstraße 2 · 65203 Wiesbaden',
        'Gutschrift',
        'Gutschrift-Nr.      95000187',
        'Datum               16.05.2024',
        'Pos  Material     Bezeichnung                Menge   Preis/Einh.     Wert',
        '10   CH-5520      Ethanol 99,8 % 25 l        4 KAN   50,00           200,00-',
        'Nettowert                                                            200,00-',
        'MwSt 19 %                                                             38,00-',
        'Endbetrag EUR                                                        238,00-',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('95000187');
    expect(fieldOf(extraction, 'kind')?.value).toBe('credit_note');
    expect(fieldOf(extraction, 'total')?.value).toBe('-238.00');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe("a minus before the currency's sign", () => {
  it.each([
    ['-£45.16', '-45.16'],
    ['Applied balance   -£1,000.00', '-1000.00'],
    ['Rabatt   -€ 12,50', '-12.50'],
  ])('makes "%s" negative', (text, amount) => {
    // Act
    const [found] = findAmounts(text);

    // Assess
    expect(found?.amount).toBe(amount);
  });

  it('is a range\'s dash after a number ("£10-£20")', () => {
    // Act
    const found = findAmounts('£10-£20');

    // Assess
    expect(found.map((f) => f.amount)).toEqual(['10', '20']);
  });

  it('reads a proration credit as an item, so the items add up to the net', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Pixelforge Software Ltd.',
        'Invoice PF-2025-33817',
        'Description                                   Qty   Amount',
        'Unused time on Pro plan                         1   -£45.16',
        'Remaining time on Business plan                 1   £120.97',
        'Subtotal                                            £75.81',
        'VAT (20%)                                           £15.16',
        'Total                                               £90.97',
      ]),
    );

    // Assess
    const items = fieldOf(extraction, 'lineItems')?.value as { amount: string }[] | undefined;
    expect(items?.map((i) => i.amount)).toEqual(['-45.16', '120.97']);
  });
});

describe('an amount in brackets', () => {
  it("reads an accountant's credit note, every amount in brackets, as negative", async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Meridian Office Supplies Ltd',
        'CREDIT NOTE',
        'Credit Note No: CM-10877',
        'Description                      Qty      Unit       Net',
        'Toner cartridge HP 26A             1   (45.16)   (45.16)',
        'Net total                                       (£45.16)',
        'VAT @ 20%                                        (£9.03)',
        'Total credit                                    (£54.19)',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('-45.16');
    expect(fieldOf(extraction, 'tax')?.value).toBe('-9.03');
    expect(fieldOf(extraction, 'total')?.value).toBe('-54.19');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('keeps an amount that running text repeats in brackets positive ("… pounds (£54.19)")', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Meridian Office Supplies Ltd',
        'INVOICE',
        'Invoice No: INV-55012',
        'Total: Fifty-four pounds and nineteen pence (£54.19)',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe('54.19');
  });
});
