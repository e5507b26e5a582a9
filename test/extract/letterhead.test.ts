import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A scanned letter whose logo OCR read as stray letters above the letterhead, and whose
 * return-address separators ("●") it read as letters too: the sender heads the page still, and is
 * never the recipient.
 */
const extractor = new HeuristicExtractor();

const letter = (...logo: string[]) =>
  pdfTextOf([
    '2019-06-10',
    ...logo,
    'Bei Spiel GmbH',
    'Ecke 12',
    'Bei Spiel GmbH e Ecke12 © 12345 Stadthausen e Germany  12345 Stadthausen',
    'Theodor Est  HRA 12345',
    'Bahnstr. 42',
    '88802 Spielkreis',
    'Invoice # RE-507 issued at 2019-06-10',
    'Net total: 496.00 €',
    'VAT total: 75.04 €',
    'Due payable: 571.04 €',
  ]);

describe('a letterhead under a logo OCR read as stray letters', () => {
  it.each([[[]], [['4', 'g-', 'an']], [['|', 'i']]])('logo read as %j', async (logo) => {
    // Act
    const extraction = await extractor.extract(letter(...logo));

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Bei Spiel GmbH');
    expect(fieldOf(extraction, 'customer')?.value).not.toBe('Bei Spiel GmbH');
  });
});

describe('a return address whose middle dots OCR read as colons', () => {
  it.each([
    ['Anna Schmidt · Grafikdesign · Lindenweg 2 · 04109 Leipzig'],
    ['Anna Schmidt - Grafikdesign : Lindenweg 2 : 04109 Leipzig'],
  ])('%s names the sender', async (line) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        line,
        'Musterfirma GmbH',
        'Bahnhofstr. 1',
        'Rechnung Nr. 2024-007',
        'Rechnungsbetrag  2.380,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Anna Schmidt');
  });
});
