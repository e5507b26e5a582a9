import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * VAT summaries that print every rate the law knows, the unused ones at zero ("12 %  0,00  0,00
 * 0,00"), as Czech, Slovak and other central European accounting programs do. Zeros add up
 * whatever they are, so a sum of them settles nothing.
 */
const extractor = new HeuristicExtractor();
const read = async (...lines: string[]) => extractor.extract(pdfTextOf(['Muster s.r.o.', ...lines]));

describe('a VAT summary with rows for unused rates', () => {
  it('reads the used row of a credit note, not a sum of zeros (a dobropis)', async () => {
    // Act
    const extraction = await read(
      'DOBROPIS č. DB-77',
      'Rekapitulácia DPH v EUR',
      'Sadzba DPH          Základ dane             DPH             Spolu',
      '23 %                    -220,60          -50,74           -271,34',
      '19 %                       0,00            0,00              0,00',
      '5 %                        0,00            0,00              0,00',
      '                                     Spolu na úhradu:            -271,34 EUR',
    );

    // Assess: "0.00 + 0.00 = 0.00" had made net and tax sure at 0.97
    expect(fieldOf(extraction, 'subtotal')?.value).not.toBe('0.00');
    expect(fieldOf(extraction, 'tax')?.value).not.toBe('0.00');
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('-220.60');
    expect(fieldOf(extraction, 'tax')?.value).toBe('-50.74');
    expect(fieldOf(extraction, 'total')?.value).toBe('-271.34');
  });

  it('reads the summary row of an invoice whose first rates are unused (a faktura)', async () => {
    // Act
    const extraction = await read(
      'FAKTURA - DAŇOVÝ DOKLAD č. 2025100234',
      'Rekapitulace DPH v Kč:',
      'Sazba             Základ v Kč          DPH v Kč       Celkem s DPH v Kč',
      ' 0 %                     0,00',
      '12 %                     0,00              0,00                    0,00',
      '21 %                16 566,00          3 478,86               20 044,86',
      'Celkem              16 566,00          3 478,86               20 044,86',
      '                                   Celkem k úhradě:        20 044,86 Kč',
    );

    // Assess: the net had been the unused 0 % row's "0,00"
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('16566.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('3478.86');
    expect(fieldOf(extraction, 'total')?.value).toBe('20044.86');
  });

  it('leaves a sum of zeros uncorroborated (an invoice of nothing)', async () => {
    // Act
    const extraction = await read('Invoice INV-9', 'Subtotal  0.00', 'VAT 20%  0.00', 'Total  0.00');

    // Assess: zeros add up whatever they are, so no value is sure
    for (const name of ['subtotal', 'tax', 'total'] as const) {
      expect(fieldOf(extraction, name)?.confidence ?? 0).toBeLessThan(0.8);
    }
  });
});
