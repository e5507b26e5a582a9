import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { labelsAtStart } from '../../lambdas/extract/vocabulary/index.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Tax labels with their rate inside or a word before them, as invoices print them: "zzgl. 19 %
 * USt.", "19% MwSt.", "+ 7 % MwSt.", "inkl. 19 % MwSt.", "plus VAT 20%", "dont TVA 20 %".
 */
const extractor = new HeuristicExtractor();

describe('a tax label with its rate inside', () => {
  it.each([
    ['zzgl. 19 % USt.', 15],
    ['19% MwSt.', 9],
    ['+ 7 % MwSt.', 11],
    ['inkl. 19 % MwSt.', 16],
    ['plus VAT 20%', 8],
    ['dont TVA 20 %', 8],
    ['zuzüglich 20 % USt', 18],
  ])('"%s" is a tax label ending at %i', (text, end) => {
    // Act
    const labels = labelsAtStart(text);

    // Assess
    expect(labels.map((m) => m.field)).toEqual(['tax']);
    expect(labels[0]?.end).toBeGreaterThanOrEqual(end - 1);
  });

  it.each([['100 % Anzahlung'], ['19 Stück Schrauben'], ['2024 Wartung']])(
    'leaves "%s" unlabelled: no rate, or none a label follows',
    (text) => {
      // Act
      const labels = labelsAtStart(text).filter((m) => m.field === 'tax');

      // Assess
      expect(labels).toEqual([]);
    },
  );

  it.each([['VAT-exempt sales'], ['Total VAT-exempt sales'], ['Tax-free amount'], ['MWST-freie Umsätze']])(
    'reads no tax label in "%s": a hyphen joins the tax\'s name to a word that names something else',
    (text) => {
      // Act
      const labels = labelsAtStart(text);

      // Assess
      expect(labels.map((m) => m.field)).not.toContain('tax');
    },
  );

  it.each([['PDV-a 25%'], ['MwSt-Betrag 19,00'], ['Mva-beløp 25 %']])(
    'still reads "%s" as a tax label: a case ending, or a compound that names the tax',
    (text) => {
      // Act
      const labels = labelsAtStart(text);

      // Assess
      expect(labels.map((m) => m.field)).toContain('tax');
    },
  );

  it('reads the tax of "zzgl. 19 % USt." and settles the totals with it', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Elektro Schmidt GmbH',
        'Rechnung RE-2024-311',
        'Nettobetrag                          1.500,00 EUR',
        'zzgl. 19 % USt.                        285,00 EUR',
        'Rechnungsbetrag                      1.785,00 EUR',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'tax')?.value).toBe('285.00');
    expect(fieldOf(extraction, 'total')?.confidence).toBeGreaterThan(0.9);
  });

  it("does not read a discount row's tax category as a tax amount", async () => {
    // Prepare: the rate-first cell is in the middle of a row that another label opens.
    const lines = [
      'Muster GmbH',
      'Rechnung 471102',
      'Abschlag 2,00%   Basisbetrag: 5,00   19 % USt.   0,10',
      'Nettobetrag                          100,00 EUR',
      'Bruttosumme                          119,00 EUR',
    ];

    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess
    expect(fieldOf(extraction, 'tax')?.value).not.toBe('0.10');
  });
});

describe('a tax name with its rate written onto it', () => {
  it('reads "CGST9 (9%)" and "SGST9 (9%)" as tax rows, as Zoho prints Indian GST', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Pinecrest Web Solutions LLP',
        'TAX INVOICE',
        '# INV-000211',
        'Invoice Date :  15/05/2024',
        '                                Sub Total                     2,000.00',
        '                                CGST9 (9%)                      180.00',
        '                                SGST9 (9%)                      180.00',
        '                                Total                        ₹2,360.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'tax')?.value).toBe('360.00');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it.each([['VAT 2024'], ['VAT123456789']])('is no rate in "%s"', (text) => {
    // Act
    const labels = labelsAtStart(text);

    // Assess: a year or an identifier after the name is no rate
    expect(labels.every((l) => l.end === 3 || l.end === 0)).toBe(true);
  });
});
