import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Currencies counted in thousandths (the dinars of Kuwait, Bahrain, Tunisia, Jordan, the Omani
 * rial): amounts read with two decimals come out a thousand times too large or cut short, and
 * their sums still hold. The currency is read; the amounts are left to a person.
 */
const extractor = new HeuristicExtractor();
const invoice = (...totals: string[]) =>
  extractor.extract(
    pdfTextOf(['Carthage Emballages S.A.R.L.', 'FACTURE N° FV-2025/0386', 'Date : 22/05/2025', ...totals]),
  );

describe('an invoice counted in thousandths', () => {
  it.each([
    [
      'TND',
      [
        'Total H.T.             1 513,000 DT',
        'Montant TVA 19 %         287,470 DT',
        'NET À PAYER T.T.C.     1 801,470 DT',
      ],
    ],
    ['KWD', ['Sub Total        KD     1,250.500', 'NET TOTAL        KD     1,250.500']],
    [
      'BHD',
      [
        'Amount (BHD)',
        'Sub Total              2,700.000',
        'VAT 10%                  270.000',
        'Total                  2,970.000',
      ],
    ],
  ])('reads its currency %s and no amount that two decimals would misread', async (currency, totals) => {
    // Act
    const extraction = await invoice(...totals);

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe(currency);
    expect(fieldOf(extraction, 'subtotal')).toBeUndefined();
    expect(fieldOf(extraction, 'total')).toBeUndefined();
  });

  it('is not what a Malaysian company\'s "Sdn. Bhd." or a Romanian VAT id "RO 123456" makes an invoice (guard)', async () => {
    // Act
    const extraction = await invoice(
      'KEDAI ELEKTRIK LIM SDN. BHD.',
      'CIF RO 18547290',
      'Total    RM 4,914.00',
    );

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe('4914.00');
    expect(fieldOf(extraction, 'currency')?.value).toBe('MYR');
  });
});
