import { describe, expect, it } from 'vitest';
import { finderContext } from '../../lambdas/extract/text/context.js';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { moneyIn } from '../../lambdas/extract/text/invoice/amounts.js';
import { indexText } from '../../lambdas/extract/text/textIndex.js';
import type { ExtractedField, Extraction } from '../../lambdas/shared/documents/index.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A scan may lose an amount's decimal mark ("21848 €" for "218,48 €") while OCR is sure of the
 * word. A document that writes cents everywhere else cannot vouch for such a reading.
 */
const contextOf = (lines: string[]) => finderContext(indexText(pdfTextOf(lines)));
const extractor = new HeuristicExtractor();
const field = (extraction: Extraction, name: string) =>
  (extraction.fields as Record<string, ExtractedField<unknown> | undefined>)[name];

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
    expect(field(amongCents, 'total')?.value).toBe('21848');
    expect(field(amongWhole, 'total')?.value).toBe('21848');
    expect(field(amongCents, 'total')?.confidence ?? 1).toBeLessThan(
      field(amongWhole, 'total')?.confidence ?? 0,
    );
  });
});
