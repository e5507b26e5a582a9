import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * An amount to pay rounded to the currency's smallest coin (Swedish "Öresavrundning", Swiss
 * "Rundungsdifferenz" to 5 Rappen; EN 16931's rounding amount, BT-114): the total stays net + tax,
 * and the rounded amount is the amount due, whether the invoice prints the total before it or
 * only the net, the tax and the rounded amount.
 */
const extractor = new HeuristicExtractor();
const read = async (...lines: string[]) => extractor.extract(pdfTextOf(['Faktura 7781', ...lines]));
const values = (extraction: Awaited<ReturnType<typeof read>>) =>
  Object.fromEntries(
    ['subtotal', 'tax', 'total', 'amountDue'].map((f) => [f, fieldOf(extraction, f)?.value]),
  );

describe('an amount to pay rounded to the smallest coin', () => {
  it.each([
    {
      name: 'rounded down, no total printed before it (Swedish)',
      lines: [
        'Summa exkl moms  1 234,56',
        'Moms 25 %  308,64',
        'Öresavrundning  -0,20',
        'Att betala SEK  1 543,00',
      ],
      want: { subtotal: '1234.56', tax: '308.64', total: '1543.20', amountDue: '1543.00' },
    },
    {
      name: 'rounded up, printed without a sign',
      lines: ['Summa exkl moms  99,84', 'Moms 25 %  24,96', 'Öresavrundning  0,20', 'Att betala  125,00'],
      want: { subtotal: '99.84', tax: '24.96', total: '124.80', amountDue: '125.00' },
    },
    {
      name: 'after the printed total (Swiss, to 5 Rappen)',
      lines: [
        "Total exkl. MWST  1'142.00",
        'MWST 8.1 %  92.57',
        "Total inkl. MWST  1'234.57",
        'Rundungsdifferenz  -0.02',
        "Zahlbetrag  1'234.55",
      ],
      want: { subtotal: '1142.00', tax: '92.57', total: '1234.57', amountDue: '1234.55' },
    },
    {
      name: 'a totals block printed as one row under its headings',
      lines: [
        'Exkl. moms              Moms              Öresavrundning            Att betala',
        '8 000,40                2 000,10          -0,50                     SEK 10 000,00',
      ],
      want: { subtotal: '8000.40', tax: '2000.10', total: '10000.50', amountDue: '10000.00' },
    },
  ])('$name', async ({ lines, want }) => {
    // Act
    const extraction = await read(...lines);

    // Assess: the sum with the rounding settles every amount
    expect(values(extraction)).toEqual(want);
    for (const field of ['subtotal', 'tax', 'total', 'amountDue'])
      expect(fieldOf(extraction, field)?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('lets a rounding of nothing explain no amount due', async () => {
    // Act: the amount to pay is the gross; the total is read from the same cell
    const extraction = await read(
      'Exkl. moms              Moms              Öresavrundning            Att betala',
      '8 000,00                2 000,00          0,00                      SEK 10 000,00',
    );

    // Assess: the sum settles the totals, but "- rounding 0.00" corroborates nothing
    expect(values(extraction)).toMatchObject({ total: '10000.00', amountDue: '10000.00' });
    const details = fieldOf(extraction, 'amountDue')?.evidence?.map((e) => e.detail) ?? [];
    expect(details.join(' ')).not.toContain('rounding');
  });

  it('takes a rounding that explains nothing for no sum', async () => {
    // Act: 1 234,56 + 308,64 - 0,20 is not 1 540,00
    const extraction = await read(
      'Summa exkl moms  1 234,56',
      'Moms 25 %  308,64',
      'Öresavrundning  -0,20',
      'Att betala  1 540,00',
    );

    // Assess: nothing is corroborated, so a person looks
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind) ?? []).not.toContain('arithmetic');
    expect(fieldOf(extraction, 'amountDue')?.evidence?.map((e) => e.kind) ?? []).not.toContain('arithmetic');
  });
});

describe('a row of nothing between the total and the amount due', () => {
  it('lets a prepayment of nothing leave the amount due a second statement of the total', async () => {
    // Act: no sum settles these totals (the tax rows are missing), "Anzahlung 0,00" changes nothing
    const extraction = await read('Bruttosumme  -8,79', 'Anzahlung  0,00', 'Zahlbetrag  -8,79');

    // Assess: the two lines that print -8,79 agree on the total
    expect(fieldOf(extraction, 'total')?.value).toBe('-8.79');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('agreement');
  });
});
