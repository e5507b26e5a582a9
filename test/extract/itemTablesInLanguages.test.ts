import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Item tables headed in each language with a vocabulary (the headings are the vocabularies'
 * `itemTable` words), and the two-column table of a service invoice ("Description  Amount").
 */
const extractor = new HeuristicExtractor();

describe('an item table headed in the document language', () => {
  it.each([
    [
      'Pos.  Bezeichnung          Menge   Einzelpreis   Gesamt',
      '1     Dachreparatur        2       1.000,00      2.000,00',
    ],
    [
      'Désignation                 Qté    PU HT         Montant HT',
      'Peinture                    2      1 000,00      2 000,00',
    ],
    [
      'Omschrijving               Aantal    Prijs      Bedrag',
      'Schilderwerk               2         1.000,00   2.000,00',
    ],
    [
      'Descripción              Cantidad    Precio     Importe',
      'Pintura                  2           1.000,00   2.000,00',
    ],
    [
      'Descrizione              Quantità    Prezzo     Importo',
      'Pittura                  2           1.000,00   2.000,00',
    ],
  ])('%s', async (header, row) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Muster GmbH', 'Rechnung 4711', header, row, 'Gesamtbetrag   2.000,00 EUR']),
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toEqual([
      { description: expect.any(String), quantity: '2', unitPrice: '1000.00', amount: '2000.00' },
    ]);
  });
});

describe('the VAT base that ends a Czech item table', () => {
  it('reads "Základ DPH 21 %" as the net, not as an item', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'FAKTURA - DAŇOVÝ DOKLAD č. 2025030',
        'Dodavatel: Tiskárna Novák s.r.o.',
        'Označení dodávky                          Množství   Cena za m.j.     Celkem',
        'Tisk jídelních lístků                       500 ks         50,00   25 000,00',
        'Základ DPH 21 %                                                   25 000,00 Kč',
        'DPH 21 %                                                           5 250,00 Kč',
        'Celkem k úhradě                                                   30 250,00 Kč',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toHaveLength(1);
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('25000.00');
  });
});

describe('a Dutch VAT specification under the items', () => {
  it('ends the item table at "Btw-specificatie  Grondslag  Btw", the headings of a breakdown', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'FACTUUR',
        'Factuurnummer      2025-10871',
        'Artikel                              Aantal   Prijs      Btw    Bedrag',
        'Verse groenten (kist)                    12    18,50      9%    222,00',
        'Schoonmaakmiddelen                        5    31,90     21%    159,50',
        'Btw-specificatie     Grondslag     Btw',
        '9%                     222,00     19,98',
        '21%                    159,50     33,50',
        'Totaal excl. btw                               381,50',
        'Totaal btw                                      53,48',
        'Totaal incl. btw                               434,98',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toHaveLength(2);
    expect(fieldOf(extraction, 'total')?.value).toBe('434.98');
  });
});

describe('a two-column item table', () => {
  it('reads "Description  Amount", and its rows corroborate a total with no tax', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Jones Consulting',
        'Invoice Number: 0042',
        'Description                                  Amount',
        'Strategy consulting, February 2024       $4,500.00',
        'Workshop, 1 March 2024                   $1,500.00',
        'Total Due                                $6,000.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toEqual([
      { description: 'Strategy consulting, February 2024', amount: '4500.00' },
      { description: 'Workshop, 1 March 2024', amount: '1500.00' },
    ]);
  });
});

describe("an amount column headed with its currency's sign or code", () => {
  it.each([
    ['en', 'Particulars                              Amount (₹)', '50,000.00', '50000.00'],
    ['en', 'Description                              Amount $', '500.00', '500.00'],
    ['de', 'Bezeichnung                              Betrag €', '500,00', '500.00'],
    ['fr', 'Désignation                              Montant (€)', '500,00', '500.00'],
    ['de', 'Bezeichnung                              Betrag CHF', "1'142.00", '1142.00'],
    ['en', 'Description                              Amount (in USD)', '500.00', '500.00'],
    ['de', 'Leistung                                 CHF', "1'142.00", '1142.00'],
    ['en', 'Description                              (EUR)', '500.00', '500.00'],
  ])('reads the rows under it (%s): %s', async (_, heading, printed, amount) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Kaveri Logistics Pvt Ltd',
        'Invoice No. 2024-0917',
        heading,
        `Freight charges     ${printed}`,
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toEqual([{ description: 'Freight charges', amount }]);
  });
});

describe('the currency an amount heading names', () => {
  it.each([
    ['Bezeichnung                              Betrag CHF', 'CHF'],
    ['Description                              Amount (GBP)', 'GBP'],
    ['Beskrivning                              Belopp SEK', 'SEK'],
  ])('is the currency of an invoice whose amounts print none: %s', async (heading, currency) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Kaveri Logistics Ltd',
        'Invoice No. 2024-0917',
        heading,
        'Freight charges     500.00',
        'Total   500.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe(currency);
    expect(fieldOf(extraction, 'currency')?.evidence?.[0]?.detail).toContain('table-heading-currency');
  });

  it.each([
    ['Übersicht                                Betrag (EUR)', 'Monatliche Grundgebühren     29,40', 'EUR'],
    ['Account summary                          GBP', 'Electricity charges     118.40', 'GBP'],
  ])(
    'is the currency of the charges under a heading that heads no item table: %s',
    async (heading, row, currency) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf(['Kaveri Logistics Ltd', 'Invoice No. 2024-0917', heading, row, 'Total   500.00']),
      );

      // Assess
      expect(fieldOf(extraction, 'currency')?.value).toBe(currency);
      expect(fieldOf(extraction, 'currency')?.evidence?.[0]?.detail).toContain('column-heading-currency');
    },
  );

  it('takes no currency from a heading over no amounts ("Bank details  EUR" over an address)', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Kaveri Logistics Ltd',
        'Invoice No. 2024-0917',
        'Bank account                             EUR',
        'Kaveri Bank, Mumbai     Branch 12',
        'Total   500.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBeUndefined();
  });

  it('takes no currency from a heading that only goes on in capitals ("AMOUNT DUE")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Kaveri Logistics Ltd',
        'Invoice No. 2024-0917',
        'DESCRIPTION       AMOUNT DUE',
        'Freight charges     500.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBeUndefined();
  });
});

describe('a unit price of three decimals', () => {
  it.each([
    ['127.275', '2', '254.55', '127.275'],
    ['1,456', '3', '4,37', '1.456'],
    ['1.250', '2', '2500.00', '1250'],
  ])('reads "%s" as the row multiplies out: %s x it = %s', async (price, quantity, amount, unitPrice) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Alpenblick Informatik AG',
        'Rechnung R-2024-0193',
        'Pos.  Bezeichnung                 Menge    Preis     Total',
        `1     Support-Stunden             ${quantity}        ${price}     ${amount}`,
      ]),
    );

    // Assess
    const rows = (fieldOf(extraction, 'lineItems')?.value ?? []) as { unitPrice?: string }[];
    expect(rows[0]?.unitPrice).toBe(unitPrice);
  });
});

describe("a shop's receipt whose last column is the price", () => {
  it.each([
    [
      'Item                           Qty     Price',
      'A4 Copier Paper (box)          2      £25.98',
      'Stapler heavy duty             1      £14.50',
    ],
    [
      'Artikel                        Menge   Preis',
      'Kopierpapier A4 (Karton)       2     25,98 €',
      'Heftgerät                      1     14,50 €',
    ],
  ])('%s: each row is an item and its price its amount', async (header, ...rows) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Acme Office Supplies Ltd',
        'Invoice No: 004512',
        header,
        ...rows,
        'Total (inc. VAT)   40.48',
        'VAT @ 20% included   6.75',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toEqual([
      { description: expect.any(String), quantity: '2', amount: '25.98' },
      { description: expect.any(String), quantity: '1', amount: '14.50' },
    ]);
  });
});

describe('an item with details under it', () => {
  const read = (...after: string[]) =>
    extractor.extract(
      pdfTextOf([
        'Muster GmbH',
        'Rechnung 4711',
        'Pos   Beschreibung          Menge    Einzelpreis    Betrag',
        '1     Miettage              2        86,55          173,10',
        'Weitere Eigenschaften:',
        ...after,
        'Nettobetrag                                         183,18',
      ]),
    );

  it('returns no items rather than the ones above the details', async () => {
    // Act: the second row follows the first one's details.
    const extraction = await read(
      'Fahrzeug-Kennzeichen: M-MM 0000',
      '2     Navigationssystem     2        5,04           10,08',
    );

    // Assess: "173,10" alone would not add up to the net, and no row is missing from it.
    expect(fieldOf(extraction, 'lineItems')).toBeUndefined();
  });

  it('keeps the rows when the totals follow the note', async () => {
    // Act
    const extraction = await read('Alle Beträge in EUR');

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toHaveLength(1);
  });
});

describe('a last column that prices one unit (no amount column)', () => {
  it.each([
    [
      'en',
      'Item                           Quantity      Price',
      '$30.00',
      '$25.00',
      'Subtotal   $85.00',
      '30.00',
    ],
    [
      'nl',
      'Artikel                        Aantal        Prijs',
      '€ 30,00',
      '€ 25,00',
      'Subtotaal   € 85,00',
      '30.00',
    ],
    [
      'es',
      'Artículo                       Cantidad      Precio',
      '30,00 €',
      '25,00 €',
      'Subtotal   85,00 €',
      '30.00',
    ],
  ])(
    'reads quantity x price as the amount where the net says so (%s)',
    async (_, heading, p1, p2, net, unit) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf([
          'Lumen & Loom Co.',
          'Invoice 1042',
          heading,
          `Linen throw pillow                2       ${p1}`,
          `Soy candle                        1       ${p2}`,
          net,
        ]),
      );

      // Assess
      expect(fieldOf(extraction, 'lineItems')?.value).toEqual([
        { description: 'Linen throw pillow', quantity: '2', unitPrice: unit, amount: '60.00' },
        { description: 'Soy candle', quantity: '1', unitPrice: '25.00', amount: '25.00' },
      ]);
    },
  );

  it.each([
    ['it adds up to the net itself (2 pillows for 60.00)', '$60.00', '$85.00', '60.00'],
    ['neither reading adds up (the mismatch stays for validation)', '$30.00', '$99.00', '30.00'],
  ])('keeps the last column as the amount where %s', async (_, pillows, net, amount) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Lumen & Loom Co.',
        'Invoice 1042',
        'Item                           Quantity      Price',
        `Linen throw pillow                2       ${pillows}`,
        'Soy candle                        1       $25.00',
        `Subtotal                                  ${net}`,
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toEqual([
      { description: 'Linen throw pillow', quantity: '2', amount },
      { description: 'Soy candle', quantity: '1', amount: '25.00' },
    ]);
  });
});

describe('an amount in brackets in the amount column', () => {
  it('is negative, as accountants write a discount ("($150.00)"), and the rows add up', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Keystone IT Services Inc.',
        'Invoice #: KIT-5590',
        'Description                                   Amount',
        'Managed IT services, June                  $1,500.00',
        'Loyalty discount                            ($150.00)',
        'Total                                      $1,350.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toEqual([
      { description: 'Managed IT services, June', amount: '1500.00' },
      { description: 'Loyalty discount', amount: '-150.00' },
    ]);
  });
});

describe('a Polish item table numbered "Lp."', () => {
  it('reads its rows, and ends at the breakdown\'s sum row "Razem:"', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Faktura VAT nr FV/2024/05/0312',
        'Lp.  Nazwa towaru lub usługi        Ilość  J.m.  Cena netto  Wartość netto  VAT   Wartość brutto',
        '1    Ulotki A5, druk dwustronny     5000   szt.  0,24        1 200,00       23%   1 476,00',
        '2    Wizytówki                      500    szt.  0,90        450,00         23%   553,50',
        'Razem:                                                       1 650,00             379,50   2 029,50',
        'Do zapłaty: 2 029,50 zł',
      ]),
    );

    // Assess
    const items = fieldOf(extraction, 'lineItems')?.value as { description: string }[] | undefined;
    expect(items?.map((i) => i.description)).toEqual(['Ulotki A5, druk dwustronny', 'Wizytówki']);
  });
});

describe('an item table over a tax breakdown', () => {
  it("ends at the breakdown's headings, whose rows are no items", async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Faktura VAT FV 112/05/2024',
        'Lp.  Nazwa                    Ilość   J.m.   Cena netto   Wartość netto',
        '1    Cement portlandzki 25kg  40      szt.   25,00        1 000,00',
        'Stawka VAT    Wartość netto    Kwota VAT    Wartość brutto',
        '23%           1 000,00         230,00       1 230,00',
        'Razem         1 000,00         230,00       1 230,00',
        'Razem do zapłaty: 1 230,00 PLN',
      ]),
    );

    // Assess: the one item, which adds up to the net
    const items = fieldOf(extraction, 'lineItems')?.value as { description: string }[] | undefined;
    expect(items?.map((i) => i.description)).toEqual(['Cement portlandzki 25kg']);
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('1000.00');
  });
});

describe('an item table whose description column is not among the first two', () => {
  it.each([
    [
      'codes and a unit column before the prices',
      [
        'Pos.  Art.-Nr.   Bezeichnung               Menge   Einheit   Einzelpreis   Gesamtpreis',
        '1     EK-200     Einbauküche Eiche         1       Stk       2.450,00      2.450,00',
        '2     MT-01      Montage                   8       Std          60,00        480,00',
        'Nettobetrag                                                       EUR 2.930,00',
      ],
      [
        { description: 'Einbauküche Eiche', quantity: '1', unitPrice: '2450.00', amount: '2450.00' },
        { description: 'Montage', quantity: '8', unitPrice: '60.00', amount: '480.00' },
      ],
    ],
    [
      "a date and a fee schedule's number, and a factor that is no quantity",
      [
        'Datum        GOÄ-Nr.   Leistung                          Faktor    Betrag',
        '21.05.2024   1         Beratung                          2,3       10,72',
        '21.05.2024   750       Auflichtmikroskopie               2,3       65,03',
        'Rechnungsbetrag                                                    75,75 €',
      ],
      [
        { description: 'Beratung', amount: '10.72' },
        { description: 'Auflichtmikroskopie', amount: '65.03' },
      ],
    ],
    [
      'an item code before the description, a VAT rate between price and amount',
      [
        'Item #     Description              Qty    Unit Price    VAT    Ext. Price',
        'GL-1001    Nitrile gloves (case)    50     40.00         20%    2,000.00',
        'GL-3300    Sanitizer 1 gal          20     30.00         20%      600.00',
        'Subtotal                                                        2,600.00',
      ],
      [
        { description: 'Nitrile gloves (case)', quantity: '50', unitPrice: '40.00', amount: '2000.00' },
        { description: 'Sanitizer 1 gal', quantity: '20', unitPrice: '30.00', amount: '600.00' },
      ],
    ],
    [
      'a quantity column first under a heading that does not say so, which the price confirms',
      [
        'Amount  Product                     VAT  Price     Total',
        '1.00    Design (hours)              7%   160.00 €  160.00 €',
        '400.00  Ballons: various colors     19%  0.79 €    316.00 €',
        '3.00    Folding chairs              19%  12.00 €   35.00 €',
        'Net total: 511.00 €',
      ],
      [
        { description: 'Design (hours)', quantity: '1.00', unitPrice: '160.00', amount: '160.00' },
        { description: 'Ballons: various colors', quantity: '400.00', unitPrice: '0.79', amount: '316.00' },
        { description: 'Folding chairs', unitPrice: '12.00', amount: '35.00' },
      ],
    ],
    [
      "a date column and no column between the description and the amount (a hotel's bill)",
      [
        'Datum          Leistung                          Betrag',
        '20.06.2024     Übernachtung DZ                   142,00',
        '20.06.-21.06.  Frühstück 2 Pers.                  24,00',
        'Gesamtbetrag EUR                                 166,00',
      ],
      [
        { description: 'Übernachtung DZ', amount: '142.00' },
        { description: 'Frühstück 2 Pers.', amount: '24.00' },
      ],
    ],
    [
      'a net and a tax between the description and the gross, and no quantity column',
      [
        'Lp.  Nazwa usługi                    Wartość netto   VAT   Kwota VAT   Wartość brutto',
        '1    Przewóz osób Warszawa–Łódź         200,00        8%      16,00       216,00',
        'Razem do zapłaty: 216,00 zł',
      ],
      [{ description: 'Przewóz osób Warszawa-Łódź', amount: '216.00' }],
    ],
    [
      "a row that leaves the code's column empty keeps its description",
      [
        'Pos.  Art.-Nr.   Bezeichnung               Menge   Einzelpreis   Gesamtpreis',
        '1     EK-200     Einbauküche Eiche         1       2.450,00      2.450,00',
        '2                Montage                   8          60,00        480,00',
        'Nettobetrag                                                 EUR 2.930,00',
      ],
      [
        { description: 'Einbauküche Eiche', quantity: '1', unitPrice: '2450.00', amount: '2450.00' },
        { description: 'Montage', quantity: '8', unitPrice: '60.00', amount: '480.00' },
      ],
    ],
  ])('%s', async (_case, table, items) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(['Rechnung Nr. 2024-1187', ...table]));

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toEqual(items);
  });
});

describe("a tax's name in a column of an item row", () => {
  it("is that item's tax type, not a label of the document's tax", async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Tax Invoice/Bill of Supply/Cash Memo',
        'Invoice Number : BLR7-1234567',
        'Sl.No  Description          Unit Price   Qty   Net Amount   Tax Rate   Tax Type   Tax Amount   Total Amount',
        '1      Headphones X200      ₹999.15      1     ₹999.15      18%        IGST       ₹179.85      ₹1,179.00',
        'TOTAL:                                                                            ₹179.85      ₹1,179.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'tax')?.value).toBe('179.85');
    expect(fieldOf(extraction, 'tax')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });
});

describe('the end of an item table', () => {
  it.each([
    [
      'a totals block in a column of its own',
      [
        'Cantidad  Unidad  Descripción                          Valor unitario     Importe',
        '1         E48     Desarrollo de aplicación móvil         50,000.00       50,000.00',
        'Moneda: MXN                                        Subtotal     $50,000.00',
        '                                                   IVA 16%       $8,000.00',
      ],
    ],
    [
      'a row of the sum whose label the vocabularies do not know',
      [
        'Code      Description                     Qty    Price     Net',
        'P-100     Desarrollo de aplicación móvil    1    50,000.00  50,000.00',
        'Goods total                                           50,000.00',
      ],
    ],
  ])('%s is no item', async (_case, table) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(['Factura A-1542', ...table]));

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toEqual([
      {
        description: 'Desarrollo de aplicación móvil',
        quantity: '1',
        unitPrice: '50000.00',
        amount: '50000.00',
      },
    ]);
  });

  const BOLTS = [
    'Item        Description                 Qty    Price      Ext. Price',
    'HX-220      Hex bolt M12 (box 100)       40    42.50       1,700.00',
    'WS-12       Washer M12 (box 500)         20    38.00         760.00',
  ];

  it('ends at a row with no quantity or price whose amount is the sum of the rows above it', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Invoice 900412', ...BOLTS, '                              Merchandise        2,460.00']),
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toHaveLength(2);
  });

  it('reads the quantity shipped under columns of quantities ordered and shipped, and ends at their sum', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Invoice 558120',
        'Item      Description                 Ordered  Shipped   Price   Ext. Price',
        'ANC-22    Galvanized anchor 22 lb          4        4    89.00       356.00',
        'FEND-8    Fender 8x20                     10        8   128.00     1,024.00',
        '                                          Merchandise              1,380.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toEqual([
      { description: 'Galvanized anchor 22 lb', quantity: '4', unitPrice: '89.00', amount: '356.00' },
      { description: 'Fender 8x20', quantity: '8', unitPrice: '128.00', amount: '1024.00' },
    ]);
  });

  it('reads on past a running sum carried over a page break, whatever word it is printed under', async () => {
    // Prepare: Dutch prints "Transport", a word that is also a freight charge, at the foot of a
    // page and again at the top of the next
    const first = [
      'Factuur 2025-3318',
      ...BOLTS,
      '                              Transport          2,460.00',
    ];
    const second = [
      'Factuur 2025-3318 - vervolg',
      BOLTS[0] as string,
      '                              Transport          2,460.00',
      'NT-12       Nut M12 (box 500)            10    21.00         210.00',
      'Total                                                        2,670.00',
    ];

    // Act
    const extraction = await extractor.extract(pdfTextOf(first, second));

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toEqual([
      { description: 'Hex bolt M12 (box 100)', quantity: '40', unitPrice: '42.50', amount: '1700.00' },
      { description: 'Washer M12 (box 500)', quantity: '20', unitPrice: '38.00', amount: '760.00' },
      { description: 'Nut M12 (box 500)', quantity: '10', unitPrice: '21.00', amount: '210.00' },
    ]);
  });

  it('keeps a row with no quantity or price whose amount is not that sum (a charge)', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Invoice 900412', ...BOLTS, 'Handling                                          35.00']),
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toHaveLength(3);
  });
});
