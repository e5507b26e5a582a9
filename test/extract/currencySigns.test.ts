import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Invoices from countries whose currency has a sign of its own (₱, ₪, ₦, ₺ or "TL", "RM", "HK$"):
 * the sign names the currency, and the tax and legal form are those countries' own ("SST",
 * "Sdn. Bhd.").
 */
const extractor = new HeuristicExtractor();

describe("a currency's own sign", () => {
  it.each([
    ['PHP', 'Total Amount Due                 \u20b156,000.00'],
    ['ILS', 'Total                            \u20aa11,800.00'],
    ['NGN', 'Total                        \u20a61,075,000.00'],
    ['TRY', 'Total                            24.000,00 TL'],
    ['HKD', 'TOTAL                          HK$18,600.00'],
  ])('names the currency %s', async (currency, totalLine) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Harbour Light Printing Limited', 'INVOICE', 'Invoice No.: HL-25-0331', totalLine]),
    );

    // Assess
    expect(fieldOf(extraction, 'currency')).toMatchObject({ value: currency });
    expect(fieldOf(extraction, 'total')?.value).toBeDefined();
  });
});

describe('a Malaysian invoice', () => {
  it('reads "Sdn. Bhd." as a legal form, "SST 8%" as the tax and "RM" as the ringgit', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Sinar Jaya Trading Sdn. Bhd.',
        'No. 8, Jalan Perusahaan 3, 47100 Puchong, Selangor',
        'INVOICE',
        'Invoice No: INV-25-1107',
        'Coffee beans 1 kg                    40           RM 50.00         RM 2,000.00',
        'Sub Total                                                      RM 2,000.00',
        'SST 8%                                                           RM 160.00',
        'Total                                                          RM 2,160.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')).toMatchObject({
      value: 'Sinar Jaya Trading Sdn. Bhd.',
      confidence: 0.6,
    });
    expect(fieldOf(extraction, 'tax')?.value).toBe('160.00');
    expect(fieldOf(extraction, 'currency')?.value).toBe('MYR');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe('an invoice that prints no currency at all', () => {
  const invoice = (...registrations: string[]) =>
    extractor.extract(
      pdfTextOf([
        'Coastal Irrigation Pty Ltd',
        ...registrations,
        'TAX INVOICE',
        'Invoice No.: 00000123                      Date: 14/04/2025',
        'Subtotal:        2,050.00',
        'GST:               205.00',
        'Total Inc. GST:  2,255.00',
      ]),
    );

  it('takes the currency of the one dollar country whose registration it prints, as a guess (0.6)', async () => {
    // Act
    const extraction = await invoice('ABN 12 345 678 901');

    // Assess
    expect(fieldOf(extraction, 'currency')).toMatchObject({ value: 'AUD', confidence: 0.6 });
  });

  it("takes none where registrations of two countries are printed (one may be the customer's)", async () => {
    // Act
    const extraction = await invoice('ABN 12 345 678 901', 'Customer NZBN 9429041234567');

    // Assess
    expect(fieldOf(extraction, 'currency')).toBeUndefined();
  });
});

describe('an amount in words', () => {
  it.each([
    ['THB', '(Seventy-one thousand one hundred fifty-five baht only)      Paid by cheque'],
    ['NGN', 'Amount in words: Six Million, Eight Hundred and Ninety Thousand Naira and Fifty Kobo Only.'],
    ['MYR', 'Ringgit Malaysia: One Thousand Two Hundred Only'],
  ])('names the currency %s where nothing else does, as a guess (0.6)', async (currency, words) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Siam Precision Engineering Co., Ltd.',
        'TAX INVOICE',
        'Invoice No.: IV6805-0042',
        'Total            66,500.00',
        'VAT 7%            4,655.00',
        'Grand Total      71,155.00',
        words,
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'currency')).toMatchObject({ value: currency, confidence: 0.6 });
  });

  it('names none with a word several currencies are called by ("Rupees … Only")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Lanka Tea Exports (Pvt) Ltd',
        'INVOICE',
        'Total      71,155.00',
        'Rupees Seventy-one Thousand Only',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'currency')).toBeUndefined();
  });
});
