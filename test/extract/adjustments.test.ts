import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { providerLookupFrom } from '../../lambdas/shared/documents/index.js';
import { validateDocument } from '../../lambdas/validate/index.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Discounts and charges between the net amount and the total (shipping, freight, a discount on the
 * whole order, amounts passed on outside VAT: stamp duty, a tourist tax, a lawyer's disbursements): the sum that settles the totals includes them, in the document's language. The
 * subtotal is the net after them, as EN 16931's "total without VAT" is: what tax is charged on.
 */
const extractor = new HeuristicExtractor();

const invoice = (vendor: string, totals: string[]) =>
  extractor.extract(pdfTextOf([vendor, 'Invoice No: 10442', 'Invoice Date: 2024-03-18', ...totals]));

const CASES = [
  [
    'en',
    'Evergreen Outdoor Supply Co.',
    [
      'Subtotal              $3,480.00',
      'Discount (10%)         -$348.00',
      'Shipping                $120.00',
      'Sales Tax                 $0.00',
      'Total                 $3,252.00',
    ],
    { subtotal: '3252.00', adjustments: '-228.00', tax: '0.00', total: '3252.00' },
  ],
  [
    'de',
    'Müller & Söhne GmbH',
    [
      'Nettobetrag           1.000,00 EUR',
      'Rabatt 5 %               50,00 EUR',
      'Versandkosten             9,90 EUR',
      'MwSt. 19 %              182,38 EUR',
      'Gesamtbetrag          1.142,28 EUR',
    ],
    { subtotal: '959.90', adjustments: '-40.10', tax: '182.38', total: '1142.28' },
  ],
  [
    'fr',
    'Au bon moulin SARL',
    [
      'Total HT                 200,00 €',
      'Frais de port             15,00 €',
      'TVA 20 %                  43,00 €',
      'Total TTC                258,00 €',
    ],
    { subtotal: '215.00', adjustments: '15.00', tax: '43.00', total: '258.00' },
  ],
  [
    'en (no tax: an export)',
    'Hanseatic Trading Co., Ltd.',
    [
      'Sub Total                   5,000.00',
      'Freight                       250.00',
      'Total Amount (USD)          5,250.00',
    ],
    { subtotal: '5250.00', adjustments: '250.00', total: '5250.00' },
  ],
  [
    'it (stamp duty outside VAT)',
    'Giulia Conti - Traduzioni',
    [
      'Imponibile                800,00 €',
      'Marca da bollo              2,00 €',
      'Totale                    802,00 €',
    ],
    { subtotal: '802.00', adjustments: '2.00', total: '802.00' },
  ],
  [
    'es (a tourist tax exempt from VAT, after the tax)',
    'Hotel Mirador de Palma S.L.',
    [
      'Base imponible                                 300,00',
      'IVA 10%                                         30,00',
      'Impuesto de turismo sostenible (exento)         18,00',
      'Total factura                                  348,00 €',
    ],
    { subtotal: '318.00', adjustments: '18.00', tax: '30.00', total: '348.00' },
  ],
  [
    'fr (disbursements after a total of the fees)',
    'Cabinet Moreau Avocats',
    [
      'Total honoraires HT                          1 000,00 €',
      'TVA 20 %                                       200,00 €',
      'Total honoraires TTC                         1 200,00 €',
      'Débours (frais de greffe, non soumis à TVA)    135,00 €',
      'Total à payer                                1 335,00 €',
    ],
    { subtotal: '1135.00', adjustments: '135.00', tax: '200.00', total: '1335.00' },
  ],
  [
    'es (the items\' "Suma" before them)',
    'Suministros Hosteleros Levante S.L.',
    [
      'Suma                   457,40',
      'Descuento 8%           -36,59',
      'Portes                  15,00',
      'Base imponible         435,81',
      'IVA 21%                 91,52',
      'Total factura          527,33 €',
    ],
    { subtotal: '435.81', adjustments: '-21.59', tax: '91.52', total: '527.33' },
  ],
] as const;

describe('discounts and charges between net and total', () => {
  it.each(CASES)('settle the totals of a %s invoice', async (_, vendor, totals, expected) => {
    // Act
    const extraction = await invoice(vendor, [...totals]);

    // Assess
    for (const [name, value] of Object.entries(expected)) {
      expect(fieldOf(extraction, name)?.value).toBe(value);
      expect(fieldOf(extraction, name)?.evidence?.map((e) => e.kind)).toContain('arithmetic');
    }
  });

  it.each(CASES)('let validation confirm the sum of a %s invoice', async (_, vendor, totals) => {
    // Prepare
    const extraction = await invoice(vendor, [...totals]);

    // Act
    const result = await validateDocument(extraction, {
      lookupProvider: providerLookupFrom([{ id: 'v1', name: vendor }]),
      now: new Date('2024-04-01T00:00:00Z'),
    });

    // Assess
    expect(result.reasons.map((r) => r.code)).not.toContain('totals_mismatch');
    expect(result.evidence.total?.map((e) => e.kind)).toContain('arithmetic');
    expect(result.fieldConfidence.subtotal).toBeGreaterThanOrEqual(0.8);
  });

  it('settle nothing when the sum does not hold with them either', async () => {
    // Act: 3,480.00 - 348.00 + 120.00 is 3,252.00, not 3,300.00.
    const extraction = await invoice('Evergreen Outdoor Supply Co.', [
      'Subtotal              $3,480.00',
      'Discount (10%)         -$348.00',
      'Shipping                $120.00',
      'Sales Tax                 $0.00',
      'Total                 $3,300.00',
    ]);

    // Assess
    expect(fieldOf(extraction, 'adjustments')).toBeUndefined();
    expect(fieldOf(extraction, 'total')?.confidence).toBeLessThan(0.8);
  });
});

describe('a net printed both before and after the discount', () => {
  it('returns the discount between them, which the line items then add up with', async () => {
    // Prepare
    const extraction = await extractor.extract(
      pdfTextOf([
        'Summit Signs & Graphics Inc.',
        'INVOICE',
        'Invoice #: SSG-5521',
        'Date: May 9, 2024',
        'Description                          Qty    Unit Price    Amount',
        'Vinyl window graphics                1      1,000.00      1,000.00',
        'Subtotal                                                  1,000.00',
        'Discount (10%)                                             -100.00',
        'Taxable amount                                              900.00',
        'Sales tax (8%)                                               72.00',
        'Total                                                   $   972.00',
      ]),
    );

    // Act
    const validation = await validateDocument(extraction, {
      lookupProvider: providerLookupFrom([]),
      now: new Date('2024-06-01'),
    });

    // Assess: the net is the one tax was charged on; the items add up to it before the discount
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('900.00');
    expect(fieldOf(extraction, 'adjustments')?.value).toBe('-100.00');
    expect(validation.reasons.map((r) => r.code)).not.toContain('line_items_mismatch');
  });
});

describe('a German discount after "abzgl." with its rate ("abzgl. 10 % Rabatt")', () => {
  it("is the discount between the items' sum and the net", async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Kontor Möbel GmbH · Speicherstadt 5 · 20457 Hamburg',
        'Rechnung KM-88120',
        'Pos.  Artikel  Menge  Einzelpreis  Gesamt',
        '1  Schreibtisch höhenverstellbar  4  800,00 €  3.200,00 €',
        '2  Bürostuhl ergonomisch  4  200,00 €  800,00 €',
        'Summe  4.000,00 €',
        'abzgl. 10 % Rabatt  -400,00 €',
        'Nettobetrag  3.600,00 €',
        'zzgl. 19 % MwSt.  684,00 €',
        'Gesamtbetrag  4.284,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'adjustments')?.value).toBe('-400.00');
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('3600.00');
  });
});

describe('the goods\' total of a US order ("Merchandise Total")', () => {
  it('is the net that shipping and tax add up from', async () => {
    // Act
    const extraction = await invoice('Northwind Outdoor Gear Inc.', [
      'Merchandise Total  $1,225.00',
      'Shipping & Handling  $97.50',
      'Sales Tax  $0.00',
      'Invoice Total  $1,322.50',
    ]);

    // Assess
    const total = fieldOf(extraction, 'total');
    expect(total?.value).toBe('1322.50');
    expect(total?.evidence?.some((e) => e.kind === 'arithmetic')).toBe(true);
    expect(fieldOf(extraction, 'adjustments')?.value).toBe('97.50');
  });
});

describe('a discount or charge whose label a word qualifies', () => {
  const riverbend = (discount: string, tax: string, total: string) =>
    invoice('Riverbend Outdoor Co.', [
      'Subtotal                                         1,250.00',
      `${discount}                               -187.50`,
      'Express freight                                     42.50',
      `Sales tax 8%                                       ${tax}`,
      `Invoice total                                  $ ${total}`,
    ]);

  it.each([['Dealer discount 15%'], ['Volume rebate 15%  ']])(
    'reads "%s" and "Express freight" into the sum that settles the totals',
    async (discount) => {
      // Act
      const extraction = await riverbend(discount, '88.40', '1,193.40');

      // Assess
      expect(fieldOf(extraction, 'adjustments')?.value).toBe('-145.00');
      expect(fieldOf(extraction, 'subtotal')?.value).toBe('1105.00');
      expect(fieldOf(extraction, 'total')?.value).toBe('1193.40');
    },
  );

  it('takes no offer for paying early as a discount on the invoice', async () => {
    // Act
    const extraction = await riverbend('Early payment discount 15%', '100.00', '1,392.50');

    // Assess
    expect(fieldOf(extraction, 'adjustments')?.value).toBe('42.50');
    expect(fieldOf(extraction, 'total')?.value).toBe('1392.50');
  });
});

describe('a trade discount in brackets and carriage, as British invoices print them', () => {
  it('bridge the goods total to the net', async () => {
    // Act
    const extraction = await invoice('Pennine Tools Ltd', [
      'Goods total                                  500.00',
      'Less 10% trade discount                      (50.00)',
      'Carriage                                      15.00',
      'Net                                          465.00',
      'VAT @ 20%                                     93.00',
      'Invoice total                           £    558.00',
    ]);

    // Assess
    expect(fieldOf(extraction, 'adjustments')?.value).toBe('-35.00');
    expect(fieldOf(extraction, 'total')?.value).toBe('558.00');
  });
});
