import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * "$" is the dollar of a dozen countries, and two tax rows of the same amount may be two taxes: a
 * reading repeated on many lines is still one reading, and says no more than it knows.
 */
const extractor = new HeuristicExtractor();
const read = async (...lines: string[]) => extractor.extract(pdfTextOf(lines));

/** A Canadian invoice whose amounts carry a bare "$". */
const canadian = (totalLine: string) =>
  read(
    'Maple Leaf Printing Ltd.',
    'INVOICE',
    'Invoice #: 5521',
    'Invoice Date: 2024-05-06',
    'Subtotal                            $650.00',
    'HST 13%                              $84.50',
    totalLine,
  );

describe('amounts in "$"', () => {
  it.each([
    ['a code beside the total', 'Total CAD                           $734.50'],
    ['a code in brackets after the label', 'Total (CAD)                         $734.50'],
    ['a prefixed sign', 'Total                               C$734.50'],
  ])('are the dollars the document names by %s', async (_, totalLine) => {
    // Act
    const extraction = await canadian(totalLine);

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe('CAD');
  });

  it('are probably US dollars where the document names none, but never surely so', async () => {
    // Act: three lines print "$"; not one says which dollar.
    const extraction = await canadian('Total                               $734.50');
    const currency = fieldOf(extraction, 'currency');

    // Assess
    expect(currency?.value).toBe('USD');
    expect(currency?.confidence).toBeLessThan(0.8);
  });

  it.each([
    ['an Australian Business Number', 'ABN 12 345 678 901', 'AUD'],
    ['a Canadian GST/HST account', 'GST/HST No. 123456789 RT0001', 'CAD'],
    ['a New Zealand Business Number', 'NZBN 9429041234567', 'NZD'],
    ['a New Zealand GST number', 'GST No: 123-456-789', 'NZD'],
    ['a Singapore GST registration', 'GST Reg No: M2-0123456-7', 'SGD'],
    ['a Hong Kong business registration', 'BR No. 12345678', 'HKD'],
  ])(
    'are probably the dollars of the country whose registration the page prints: %s',
    async (_, registration, code) => {
      // Act: no line names the dollar; the registration says whose it probably is.
      const extraction = await read(
        'Harbour Supplies Ltd',
        registration,
        'TAX INVOICE',
        'Invoice: 10442',
        'Date: 14/03/2024',
        'Total                                $293.00',
      );

      // Assess: the registration may be the customer's, so it is a guess like the US dollar's.
      expect(fieldOf(extraction, 'currency')?.value).toBe(code);
      expect(fieldOf(extraction, 'currency')?.confidence).toBeLessThan(0.8);
    },
  );

  it('are the dollars a document names, whatever registration it prints', async () => {
    // Act: an Australian business invoicing in US dollars says so.
    const extraction = await read(
      'Harbour Supplies Ltd',
      'ABN 12 345 678 901',
      'TAX INVOICE',
      'Invoice: 10442',
      'Total                                $293.00 USD',
    );

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe('USD');
  });

  it('are US dollars surely where the document writes USD', async () => {
    // Act
    const extraction = await canadian('Total                               $734.50 USD');

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe('USD');
    expect(fieldOf(extraction, 'currency')?.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('do not take a code that is a word ("CAD drawings") for the currency', async () => {
    // Act
    const extraction = await read(
      'Blue Print Engineering LLC',
      'INVOICE',
      'Invoice #: 88',
      'Invoice Date: 2024-05-06',
      'Revisions to CAD drawings            $450.00',
      'Total                                $450.00',
      'Balance due                          $450.00',
    );

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe('USD');
  });
});

describe('a code stated on a totals line with no sign on the amount', () => {
  it.each([
    ['Grand Total (INR)        56,050.00', 'INR'],
    ['Grand Total INR:         56,050.00', 'INR'],
    ['Kopā apmaksai EUR:       56 050,00', 'EUR'],
  ])('is the currency ("%s")', async (totalLine, code) => {
    // Act
    const extraction = await read(
      'Sharma Electronics Pvt. Ltd.',
      'TAX INVOICE',
      'Invoice No: SE/0193',
      'Taxable Value            47,500.00',
      totalLine,
    );

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe(code);
    expect(fieldOf(extraction, 'currency')?.confidence).toBeGreaterThanOrEqual(0.75);
  });
});

describe('tax rows of the same amount', () => {
  const indian = (netLabel: string) =>
    read(
      'Sharma Electronics Pvt. Ltd.',
      'TAX INVOICE',
      'Invoice No: SE/0193',
      `${netLabel}              47,500.00`,
      'CGST @ 9%                 4,275.00',
      'SGST @ 9%                 4,275.00',
      'Grand Total (INR)        56,050.00',
    );

  it('add up to the tax when the net amount and total settle it', async () => {
    // Act
    const extraction = await indian('Taxable Value');

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('47500.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('8550.00');
  });

  it('do not corroborate each other when nothing settles the sum', async () => {
    // Act: a net label no vocabulary knows, so no sum holds.
    const extraction = await indian('Assessable amt');

    // Assess: one row's amount is at most a guess.
    const tax = fieldOf(extraction, 'tax');
    if (tax?.value === '4275.00') expect(tax.confidence).toBeLessThan(0.8);
    expect(tax?.evidence?.map((e) => e.kind)).not.toContain('agreement');
  });
});

describe('the item table', () => {
  it.each([
    ['en', 'Taxable Value', 'CGST @ 9%'],
    ['es', 'Base imponible', 'IVA 21%'],
    ['nl', 'Subtotaal', 'BTW 9%'],
    ['de', 'Nettobetrag', 'MwSt. 19 %'],
  ])('ends at the totals block of an %s invoice', async (_, net, tax) => {
    // Act
    const extraction = await read(
      'Alpha Beta Ltd',
      'Invoice No: 7',
      'Sl  Description            Qty     Rate       Amount',
      '1   Widget                 5       20.00      100.00',
      `${net}                                       100.00`,
      `${tax}                                        10.00`,
      'Total                                         110.00',
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toEqual([
      { description: 'Widget', quantity: '5', unitPrice: '20.00', amount: '100.00' },
    ]);
  });
});

describe('amounts that carry no currency at all', () => {
  /** A domestic invoice that prints its amounts bare, with the issuer's identifiers above. */
  const bare = (...identifiers: string[]) =>
    read(
      'Imprimerie Dubois SRL',
      ...identifiers,
      'Facture n° 24/0153',
      'Date de facture : 10/04/2024',
      'Total HTVA                     1.000,00',
      'TVA 21 %                         210,00',
      'Total TVAC                     1.210,00',
    );

  it.each([
    ['a Belgian VAT id', ['TVA BE0123.456.789'], 'EUR'],
    ['a Belgian IBAN', ['IBAN BE68 5390 0754 7034'], 'EUR'],
    ['a UK VAT number', ['VAT Reg No: GB 123 4567 89'], 'GBP'],
  ])("are the currency of the issuer's country, as a guess, by %s", async (_, identifiers, code) => {
    // Act
    const currency = fieldOf(await bare(...identifiers), 'currency');

    // Assess
    expect(currency?.value).toBe(code);
    expect(currency?.confidence).toBeLessThan(0.8);
  });

  it('cite the line of the identifier that names the country, not an earlier one that names none', async () => {
    // Act: a Croatian VAT id comes first (its euro is too recent to guess from); the Belgian one
    // below it gives the currency.
    const currency = fieldOf(await bare('TVA HR12345678901', 'TVA BE0123.456.789'), 'currency');

    // Assess
    expect(currency?.value).toBe('EUR');
    expect(currency?.source).toMatchObject({ text: 'TVA BE0123.456.789' });
  });

  it.each([
    ['agrees with it', 'TVA BE0123.456.789', 'EUR', true],
    ['names another currency', 'VAT Reg No: GB 123 4567 89', 'EUR', false],
  ])(
    'are corroborated by a currency printed elsewhere only where the issuer country %s',
    async (_, identifier, code, corroborated) => {
      // Act: the only currency printed is in the legal lines, away from the totals
      const currency = fieldOf(
        await bare(identifier, 'Indemnité forfaitaire pour frais de recouvrement : 40 €'),
        'currency',
      );

      // Assess
      expect(currency?.value).toBe(code);
      if (corroborated) expect(currency?.confidence).toBeGreaterThanOrEqual(0.8);
      else expect(currency?.confidence).toBeLessThan(0.8);
    },
  );

  it('take the currency the tax amount prints when no total prints one', async () => {
    // Act: a German invoice whose totals row is bare, with the tax it includes in a sentence
    const currency = fieldOf(
      await read(
        'Getränke Huber KG',
        'Rechnung 24-08-0412',
        'Datum: 08.08.2024',
        'Summe                                  200,00     238,00',
        'darin enthaltene USt. 19 %: 38,00 €',
      ),
      'currency',
    );

    // Assess
    expect(currency?.value).toBe('EUR');
    expect(currency?.evidence?.[0]?.detail).toContain('amount-currency:tax');
  });

  it("leave the tax amount's currency unasked where a total prints its own (VAT in an accounting currency)", async () => {
    // Act
    const currency = fieldOf(
      await read(
        'Brightline Software LLC',
        'Invoice No: 2024-118',
        'Date: 2024-08-08',
        'Subtotal                               USD 1,000.00',
        'VAT 19% (in accounting currency)       EUR 174.80',
        'Total                                  USD 1,190.00',
      ),
      'currency',
    );

    // Assess
    expect(currency?.value).toBe('USD');
  });

  it('have no currency when the identifiers name countries of different currencies', async () => {
    // Act: a UK VAT number and a German IBAN.
    const currency = fieldOf(
      await bare('VAT Reg No: GB 123 4567 89', 'IBAN DE89 3704 0044 0532 0130 00'),
      'currency',
    );

    // Assess
    expect(currency).toBeUndefined();
  });
});

describe('a US invoice that prints no currency at all', () => {
  const page = (...soldTo: string[]) =>
    read(
      'Lakeshore Industrial Supply Inc.',
      '2100 W Fulton St, Chicago, IL 60612',
      'INVOICE 778104',
      'Invoice Date: 06/12/2025',
      ...soldTo,
      'Merchandise                 895.50',
      'Invoice Total               937.50',
    );

  it('is in US dollars as a guess where both parties print US addresses', async () => {
    // Act
    const currency = fieldOf(
      await page('Sold To: Midwest Hydraulics Inc., 400 Elm St, Dayton, OH 45402'),
      'currency',
    );

    // Assess
    expect(currency?.value).toBe('USD');
    expect(currency?.confidence).toBeLessThan(0.8);
  });

  it('has no currency where the customer is in another dollar country', async () => {
    // Act
    const currency = fieldOf(
      await page('Sold To: Maple Hydraulics Ltd., 40 King St W, Toronto, ON M5H 1A1'),
      'currency',
    );

    // Assess
    expect(currency).toBeUndefined();
  });
});

describe('slash dates of a document in the money of a day-first country', () => {
  it.each([
    ['Singapore', 'GST Reg No: 201912345K', 'Total (S$)                  1,090.00', 'SGD'],
    ['Australia', 'ABN 12 345 678 901', 'Total                    AUD 1,090.00', 'AUD'],
    ['South Africa (VAT number)', 'VAT No. 4123456789', 'Total                    R 1 090.00', 'ZAR'],
    ['South Africa (company)', 'Reg No. 2015/123456/07', 'Total                    R 1 090.00', 'ZAR'],
    ['India', 'GSTIN: 27AABCS1234F1Z5', 'Total                    ₹ 1,090.00', 'INR'],
  ])("are read day first where the page prints %s's registration", async (_, registration, total, code) => {
    // Act
    const extraction = await read(
      'Lion City Logistics Pte. Ltd.',
      registration,
      'TAX INVOICE',
      'Invoice No: LCL-24-0311                          Date: 11/03/2024',
      total,
    );

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe(code);
    expect(fieldOf(extraction, 'invoiceDate')).toMatchObject({ value: '2024-03-11' });
    expect(fieldOf(extraction, 'invoiceDate')?.alternatives).toBeUndefined();
  });

  it("stay two-way where the dollar is only guessed from the registration (it may be the customer's)", async () => {
    // Act
    const extraction = await read(
      'Harbour Supplies Ltd',
      'GST Reg No: 201912345K',
      'INVOICE',
      'Invoice No: HS-10442                             Date: 11/03/2024',
      'Total                                $293.00',
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.alternatives).toHaveLength(1);
  });
});

describe('an Indian invoice that prints no currency', () => {
  it('is probably in rupees by the shape of its GSTIN, as a guess', async () => {
    // Act
    const extraction = await read(
      'Nilgiri Textiles Pvt. Ltd.',
      'GSTIN: 33AABCN1234F1Z5',
      'TAX INVOICE',
      'Invoice No: NT/24-25/0042',
      'IGST @ 18%               1,800.00',
      'Total                   11,800.00',
    );

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe('INR');
    expect(fieldOf(extraction, 'currency')?.confidence).toBeLessThan(0.8);
  });

  it('is probably dated day first, as India writes dates, but not surely', async () => {
    // Act
    const extraction = await read(
      'Nilgiri Textiles Pvt. Ltd.',
      'GSTIN: 33AABCN1234F1Z5',
      'TAX INVOICE',
      'Invoice No: NT/24-25/0042                 Date: 08-05-2025',
      'IGST @ 18%               1,800.00',
      'Total                   11,800.00',
    );

    // Assess: the other reading stays, for a person to rule out.
    expect(fieldOf(extraction, 'invoiceDate')).toMatchObject({ value: '2025-05-08' });
    expect(fieldOf(extraction, 'invoiceDate')?.alternatives).toEqual(['2025-08-05']);
  });

  it.each([
    ['six-digit', 'Buyer: Shree Engineering Works, Satara Road, Pune 411037 · GSTIN 27ABCPS5678D1Z2'],
    ['British', 'Buyer: Shree Engineering Works, Oak Lane, Reading RG4 5AA'],
  ])("ends a buyer's name before its town and %s postcode", async (_, buyer) => {
    // Act
    const extraction = await read(
      'Nilgiri Textiles Pvt. Ltd.',
      'GSTIN: 33AABCN1234F1Z5',
      'TAX INVOICE',
      'Invoice No: NT/24-25/0042',
      buyer,
      'Total                   11,800.00',
    );

    // Assess
    expect(fieldOf(extraction, 'customer')).toMatchObject({ value: 'Shree Engineering Works' });
  });
});

describe('nets and taxes as other countries label them', () => {
  it.each([
    [
      "Quebec's TPS and TVQ in French",
      [
        'Services Techniques Laurentides inc.',
        'FACTURE',
        'No de facture : F-2024-0153',
        'Sous-total                                    1 500,00 $',
        'TPS (5 %) 123456789 RT0001                       75,00 $',
        'TVQ (9,975 %) 1234567890 TQ0001                 149,63 $',
        'Total                                         1 724,63 $',
      ],
      { subtotal: '1500.00', tax: '224.63', total: '1724.63', currency: 'CAD' },
    ],
    [
      'a "Taxable base" in English',
      [
        'Atlantic Yacht Services SL',
        'INVOICE AYS-2024-088',
        'Taxable base                            2.000,00 €',
        'VAT 21%                                   420,00 €',
        'TOTAL                                   2.420,00 €',
      ],
      { subtotal: '2000.00', tax: '420.00', total: '2420.00', currency: 'EUR' },
    ],
    [
      'a Korean "Supply Amount" in won',
      [
        'Hanbit Electronics Co., Ltd.',
        'INVOICE',
        'Invoice No: HB-240311',
        'Supply Amount              \u20a93,000,000',
        'VAT (10%)                    \u20a9300,000',
        'Total                      \u20a93,300,000',
      ],
      { subtotal: '3000000', tax: '300000', total: '3300000', currency: 'KRW' },
    ],
  ])('add up: %s', async (_, lines, expected) => {
    // Act
    const extraction = await read(...lines);

    // Assess
    for (const [name, value] of Object.entries(expected))
      expect(fieldOf(extraction, name)?.value).toBe(value);
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe("a tax row that opens with its state's or province's code", () => {
  it.each([
    ['PA SALES TAX 6%                  103.50', '103.50'],
    ['ON HST 13%                       224.25', '224.25'],
  ])('reads "%s" as the tax', async (taxLine, tax) => {
    // Act
    const extraction = await read(
      'Keystone Print & Sign LLC',
      'INVOICE',
      'Invoice #: 912',
      'Invoice Date: 03/03/2025',
      'SUBTOTAL                       1,725.00',
      taxLine,
      `TOTAL                          ${(1725 + Number(tax)).toFixed(2).replace(/\B(?=(\d{3})+\.)/, ',')}`,
    );

    // Assess
    expect(fieldOf(extraction, 'tax')?.value).toBe(tax);
  });
});

describe("a US sale's taxes of state, county and district", () => {
  const receipt = (...taxRows: string[]) =>
    read(
      'Summit Office Interiors LLC',
      '2200 E 6th Ave, Denver, CO 80206',
      'Invoice #: SOI-2025-118',
      'Date: June 2, 2025',
      'Subtotal                                     2,584.00',
      ...taxRows,
      'Total Due                                   $2,693.82',
    );

  it.each([
    [
      'named by their jurisdictions',
      [
        'Colorado State Tax 2.9%     74.94',
        'Arapahoe County Tax 0.25%    6.46',
        'RTD/SCFD Tax 1.1%    28.42',
      ],
    ],
    ['under codes', ['CO State Tax 2.9%     74.94', 'County Tax 0.25%    6.46', 'RTD Tax 1.1%    28.42']],
  ])('add up to the tax when %s', async (_, rows) => {
    // Act
    const extraction = await receipt(...rows);

    // Assess
    const tax = fieldOf(extraction, 'tax');
    expect(tax?.value).toBe('109.82');
    expect(tax?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('leave a row whose words before "Tax" name no jurisdiction ("Amount Before Tax") no tax', async () => {
    // Act
    const extraction = await read(
      'Summit Office Interiors LLC',
      'Invoice #: SOI-2025-118',
      'Amount Before Tax 8%     2,584.00',
      'Sales Tax 8%              206.72',
      'Total Due               $2,790.72',
    );

    // Assess
    expect(fieldOf(extraction, 'tax')?.value).toBe('206.72');
  });
});

describe('a tip on a restaurant bill', () => {
  it.each([['Tip'], ['Gratuity'], ['Service charge']])(
    '("%s") comes between the tax and the total, and is neither',
    async (label) => {
      // Act
      const extraction = await read(
        'THE COPPER KETTLE',
        '412 Main St, Burlington, VT 05401',
        '2  Maple Glazed Salmon        58.00',
        '1  Braised Short Rib          85.00',
        'Subtotal                     143.00',
        'Meals Tax 10%                 14.30',
        `${label}                      28.60`,
        'Total                       $185.90',
      );

      // Assess
      // The tip is a charge without tax: in the total without tax, as EN 16931 counts charges.
      expect(fieldOf(extraction, 'subtotal')?.value).toBe('171.60');
      expect(fieldOf(extraction, 'adjustments')?.value).toBe('28.60');
      expect(fieldOf(extraction, 'tax')?.value).toBe('14.30');
      const total = fieldOf(extraction, 'total');
      expect(total?.value).toBe('185.90');
      expect(total?.evidence?.map((e) => e.kind)).toContain('arithmetic');
    },
  );
});
