import { describe, expect, it } from 'vitest';
import { finderContext } from '../../lambdas/extract/text/context.js';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { moneyIn } from '../../lambdas/extract/text/invoice/money.js';
import { indexText } from '../../lambdas/extract/text/textIndex.js';
import type { PdfText } from '../../lambdas/shared/pdfText.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * What a scan does to an amount's cents. It may lose the decimal mark ("21848 €" for "218,48 €")
 * while OCR is sure of the word: a document that writes cents everywhere else cannot vouch for
 * such a reading. It may set a space after the mark ("18310, 63"): the cents are still the
 * amount's.
 */
const contextOf = (lines: string[]) => finderContext(indexText(pdfTextOf(lines)));
const extractor = new HeuristicExtractor();

describe('money without cents in a document that writes them', () => {
  it.each([
    [['Biscuits  48,00 €', 'Café  12,50 €', 'Thé  9,90 €'], 'Total TTC  21848 €', false],
    [['Widgets  48.00 USD', 'Gadgets  12.50 USD', 'Bolts  9.90 USD'], 'Total  21848 USD', false],
    [['Biscuits  48 €', 'Café  12 €', 'Thé  10 €'], 'Total TTC  21848 €', true],
    [['Biscuits  48,00 €', 'Café  12,50 €', 'Thé  9,90 €'], 'Total TTC  218,48 €', true],
    [['Rice  ¥1,200', 'Tea  ¥3,400'], 'Total  ¥120,000', true],
  ])('%j then "%s": certain = %s', (rows, total, certain) => {
    // Prepare
    const ctx = contextOf(['Facture FA-7', 'Muster SARL', ...rows, total]);

    // Act
    const [amount] = moneyIn(ctx, total);

    // Assess
    expect(amount?.certain).toBe(certain);
  });

  it('an extracted total without cents among cents is less sure than the same total in a document without cents', async () => {
    // Prepare
    const page = (rows: string[]) => pdfTextOf(['Invoice 7', 'Muster Ltd', ...rows, 'Total  21848 EUR']);

    // Act
    const amongCents = await extractor.extract(
      page(['Widgets  48.00 EUR', 'Gadgets  12.50 EUR', 'Bolts  9.90 EUR']),
    );
    const amongWhole = await extractor.extract(page(['Widgets  48 EUR', 'Gadgets  12 EUR', 'Bolts  10 EUR']));

    // Assess: the value is kept, its confidence is not
    expect(fieldOf(amongCents, 'total')?.value).toBe('21848');
    expect(fieldOf(amongWhole, 'total')?.value).toBe('21848');
    expect(fieldOf(amongCents, 'total')?.confidence ?? 1).toBeLessThan(
      fieldOf(amongWhole, 'total')?.confidence ?? 0,
    );
  });
});

describe('a space OCR set after a decimal mark', () => {
  /** The lines as OCR gives them: each with its confidence and words. */
  const ocrPage = (lines: string[]): PdfText => {
    const box = { x: 0.1, y: 0.1, width: 0.5, height: 0.02 };
    return {
      pageCount: 1,
      origin: 'ocr',
      pages: [
        {
          page: 1,
          lines,
          geometry: lines.map((line) => ({
            box,
            confidence: 0.9,
            words: line.split(/\s+/).map((text) => ({ text, box, confidence: 0.9 })),
          })),
        },
      ],
    };
  };
  const page = ['Rechnung Nr. 7', 'Muster GmbH', 'Nettobetrag  100,00 €', 'USt. 19 %  19,00 €'];

  it.each([['Bruttosumme  119, 00 €'], ['Bruttosumme  119, 00'], ['Bruttosumme  119. 00€']])(
    'joins the cents on a scan: %s',
    async (total) => {
      // Act
      const extraction = await extractor.extract(ocrPage([...page, total]));

      // Assess: the sum holds again
      expect(fieldOf(extraction, 'total')?.value).toBe('119.00');
      expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
    },
  );

  it('leaves a text layer as its producer wrote it', async () => {
    // Act
    const extraction = await extractor.extract(pdfTextOf([...page, 'Bruttosumme  119, 00 €']));

    // Assess
    expect(fieldOf(extraction, 'total')?.value).not.toBe('119.00');
  });
});
