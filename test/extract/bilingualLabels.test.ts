import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { labelsAtStart } from '../../lambdas/extract/vocabulary/index.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Invoices from countries whose language Docket has no vocabulary for often print every label
 * twice, their own and an English one after a slash ("Celkem k úhradě / Total due"): the second
 * half is read as the label.
 */
describe('a bilingual label', () => {
  it.each([
    ['Celkem k úhradě / Total due', 'amountDue'],
    ['Základ DPH 21 % / VAT base 21%', 'subtotal'],
    ['DPH 21 % / VAT 21%', 'tax'],
  ])('"%s" is read by its second half', (text, field) => {
    // Act
    const [label] = labelsAtStart(text);

    // Assess
    expect(label?.field).toBe(field);
    expect(text.slice(0, label?.start)).toMatch(/\/ $/);
  });

  it.each([['Nr. 12 / Total'], ['Servis serverů / Server maintenance']])(
    'is no label in "%s" (a value before the slash, no label after it)',
    (text) => {
      // Act
      const labels = labelsAtStart(text);

      // Assess
      expect(labels).toEqual([]);
    },
  );

  it('reads a Czech invoice in korunas by its English labels', async () => {
    // Prepare
    const text = pdfTextOf([
      'TechnoServis s.r.o.',
      'Vinohradská 25, 120 00 Praha 2',
      'FAKTURA - DAŇOVÝ DOKLAD / INVOICE No. 2024050117',
      'Datum vystavení / Issue date: 15.05.2024',
      'Popis / Description                      Množství / Qty   Cena / Price    Celkem / Total',
      'Servis serverů / Server maintenance      10 h             1 200,00        12 000,00',
      'Základ DPH 21 % / VAT base 21%                                            12 000,00',
      'DPH 21 % / VAT 21%                                                         2 520,00',
      'Celkem k úhradě / Total due                                               14 520,00 Kč',
    ]);

    // Act
    const extraction = await new HeuristicExtractor().extract(text);

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe('14520.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('2520.00');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
    expect(fieldOf(extraction, 'currency')?.value).toBe('CZK');
  });
});
