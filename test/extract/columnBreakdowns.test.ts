import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Tax breakdowns whose labels head the columns ("USt. %  Zwischensumme (ohne USt.)  USt.") and
 * whose rows a rate or a sum word opens ("19%", "Gesamt"), as marketplaces and ERPs print them.
 */
const extractor = new HeuristicExtractor();
const read = async (...lines: string[]) =>
  extractor.extract(pdfTextOf(['Muster GmbH', 'Rechnung 4711', ...lines]));

describe('a breakdown with its labels over the columns', () => {
  it('reads net and tax from their columns, and the sum settles the total (a marketplace invoice)', async () => {
    // Act
    const extraction = await read(
      'Gesamtpreis                  39,99 €',
      'USt. %        Zwischensumme (ohne USt.)     USt.',
      '19%           33,61 €                       6,38 €',
      'Gesamt        33,61 €                       6,38 €',
      'Gesamt                                      39,99 €',
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('33.61');
    expect(fieldOf(extraction, 'tax')?.value).toBe('6.38');
    expect(fieldOf(extraction, 'total')?.value).toBe('39.99');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it.each([['A 19%'], ['19% A'], ['(A) 19 %']])(
    'reads a till receipt\'s one row whose rate has its category code ("%s")',
    async (rate) => {
      // Act
      const extraction = await read(
        'Summe                                  38,44',
        'Geg. EC-Karte                          38,44',
        'MwSt     Netto    Steuer    Brutto',
        `${rate}    32,30     6,14     38,44`,
      );

      // Assess
      expect(fieldOf(extraction, 'subtotal')?.value).toBe('32.30');
      expect(fieldOf(extraction, 'tax')?.value).toBe('6.14');
      expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
    },
  );

  it('adds up the tax column of two rates', async () => {
    // Act
    const extraction = await read(
      'Taux        Base HT        Montant TVA',
      '5,5 %       100,00         5,50',
      '20,00 %     200,00         40,00',
      'Total HT                   300,00',
      'Total TTC                  345,50',
    );

    // Assess
    expect(fieldOf(extraction, 'tax')?.value).toBe('45.50');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('lines cells up from the right when a row label splits in two', async () => {
    // Act
    const extraction = await read(
      'Art (Kategorie)  Warenwert  Zu-/Abschlag  Basisbetrag  USt. %  Steuerbetrag',
      'Umsatzsteuer  (S)  -5,00  0,15  -4,85  19  -0,92',
      'Umsatzsteuer  (S)  -2,90  0,08  -2,82  7  -0,20',
      'Positionssumme  -7,90',
      'Rechnungssumme ohne USt.  -7,67',
      'Bruttosumme  -8,79',
    );

    // Assess: by position alone, -0,92 stands nearer the basis than the tax heading.
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('-7.67');
    expect(fieldOf(extraction, 'tax')?.value).toBe('-1.12');
  });

  it('reads totals printed as a row under their headings', async () => {
    // Act
    const extraction = await read(
      'Net amount        VAT            Total',
      'EUR 1,000.00      EUR 190.00     EUR 1,190.00',
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('1000.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('190.00');
    expect(fieldOf(extraction, 'total')?.value).toBe('1190.00');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it.each([
    [
      'a hotel bill with a tax-free tourist tax',
      [
        'MwSt.-Satz    Netto      MwSt.     Brutto',
        '7 %          274,77      19,23     294,00',
        '19 %          45,38       8,62      54,00',
        'steuerfrei                          7,50',
        'Gesamtbetrag                      355,50 EUR',
      ],
      '355.50',
    ],
    [
      'an English breakdown with a zero-rated line',
      [
        'Rate      Net       VAT      Gross',
        '5%      200.00     10.00    210.00',
        '20%     100.00     20.00    120.00',
        'Zero rated                   40.00',
        'Total                       370.00',
      ],
      '370.00',
    ],
  ])('does not take one rate of several for the invoice: %s', async (_, lines, total) => {
    // Act: each rate's row adds up, but only to its own share of the invoice.
    const extraction = await read(...lines);

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe(total);
    for (const name of ['subtotal', 'tax', 'total']) {
      expect(fieldOf(extraction, name)?.evidence?.map((e) => e.kind) ?? []).not.toContain('arithmetic');
    }
  });

  it('does not read an item table under money headings as a breakdown', async () => {
    // Act: items open with their position, not with a rate or a label.
    const extraction = await read(
      'Pos   Artikel          Netto       MwSt.      Brutto',
      '1     Kabel            100,00      19,00      119,00',
      '2     Schalter          50,00       9,50       59,50',
      'Nettobetrag                                  150,00',
      'MwSt. 19 %                                    28,50',
      'Gesamtbetrag                                 178,50',
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('150.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('28.50');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });

  it('reads totals printed as a row under headings that state the rate ("BTW 9%")', async () => {
    // Act
    const extraction = await read(
      'Subtotaal              BTW 9%              Totaal',
      '412,00                 37,08               449,08',
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('412.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('37.08');
    expect(fieldOf(extraction, 'total')?.value).toBe('449.08');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe('an item table whose last columns are a net, a tax and a gross', () => {
  it.each([
    [
      'de',
      'Pos   Artikel          Menge     Netto       MwSt.      Brutto',
      [
        '1     Kabel              2      100,00      19,00      119,00',
        '2     Schalter           5       50,00       9,50       59,50',
      ],
      'Summe                            150,00      28,50      178,50',
    ],
    [
      'pl',
      'Lp  Nazwa towaru        Ilość   Wartość netto   VAT [%]   Kwota VAT   Wartość brutto',
      [
        '1   ON DIESEL           35,000         120,00        23       27,60           147,60',
        '2   Płyn do spryskiwaczy  2,000      30,00        23        6,90            36,90',
      ],
      '                         Razem:         150,00                  34,50           184,50',
    ],
    [
      'en',
      'No  Item               Qty        Net        VAT      Gross',
      [
        '1   Cable                2      100.00      20.00     120.00',
        '2   Switch               5       50.00      10.00      60.00',
      ],
      'Total                           150.00      30.00     180.00',
    ],
  ])('reads its sum row under the items as the totals (%s)', async (_, heading, items, sumRow) => {
    // Act
    const extraction = await read(heading, ...items, sumRow);

    // Assess: each amount of the sum row is its column's, and the three make a sum.
    const [net, tax, gross] = [...sumRow.matchAll(/\d+[.,]\d{2}/g)].map((m) => m[0].replace(',', '.'));
    expect(fieldOf(extraction, 'subtotal')?.value).toBe(net);
    expect(fieldOf(extraction, 'tax')?.value).toBe(tax);
    expect(fieldOf(extraction, 'total')?.value).toBe(gross);
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe("a marketplace's VAT summary under its items", () => {
  it('reads "Item subtotal (excl. VAT)" as the net and "VAT subtotal" as the tax, which settle the total', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Invoice',
        'Sold by: Brightline Electronics Ltd',
        'Invoice #: GB4-R7K2-0091',
        'Description        Qty   Unit price (excl. VAT)   VAT rate   Item subtotal (incl. VAT)',
        'USB-C Dock 8-in-1   1    £45.83                   20%        £55.00',
        'HDMI cable 2m       2    £6.66                    20%        £15.98',
        'Invoice total  £70.98',
        'VAT rate   Item subtotal (excl. VAT)   VAT subtotal',
        '20%        £59.15                      £11.83',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('59.15');
    expect(fieldOf(extraction, 'tax')?.value).toBe('11.83');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe('an item table whose last columns are the net, the VAT and the gross', () => {
  const invoice = (vatHeading: string, sumLabel: string) =>
    extractor.extract(
      pdfTextOf([
        'Oakfield Catering Equipment Ltd',
        'SALES INVOICE',
        `Qty  Description                        Net        ${vatHeading}     Gross`,
        '1    Combination oven 6-grid         2,200.00        440.00    2,640.00',
        '1    Installation & commissioning      220.00         44.00      264.00',
        `${sumLabel}                               2,420.00        484.00    2,904.00`,
        'Amount due: £2,904.00',
      ]),
    );

  it.each([
    ['VAT @ 20%', 'Totals'],
    ['VAT', 'Totals'],
    ['VAT @ 20%', 'Total '],
  ])('reads the sum row under "%s" opened by "%s"', async (vatHeading, sumLabel) => {
    // Act
    const extraction = await invoice(vatHeading, sumLabel);

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('2420.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('484.00');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe('a breakdown whose rows start with the tax key the item rows use', () => {
  // A wholesaler's VAT table, keyed 1 and 2 like its items' last column.
  const keyed = [
    'Summe netto EUR      2.358,33',
    'USt-Aufstellung',
    'St   USt-Satz        Nettobetrag        USt-Betrag       Bruttobetrag',
    ' 1     7,00 %           1.109,35             77,65           1.187,00',
    ' 2    19,00 %           1.248,98            237,31           1.486,29',
    '      Summe             2.358,33            314,96           2.673,29',
    'Rechnungsbetrag EUR      2.673,29',
  ];

  it('reads the key and rate as one rate row, so one rate is no sum of the invoice', async () => {
    // Act
    const extraction = await read(...keyed);

    // Assess: the first rate's row had made the invoice's net and tax at 0.98
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('2358.33');
    expect(fieldOf(extraction, 'tax')?.value).toBe('314.96');
    expect(fieldOf(extraction, 'total')?.value).toBe('2673.29');
  });

  it('reads no tax-free sum from the sum row where a text layer lost the columns', async () => {
    // Act: the same breakdown with its runs of spaces collapsed
    const extraction = await read(...keyed.map((line) => line.replace(/ {2,}/g, ' ')));

    // Assess: "Summe 2.358,33" had been the total at 0.99, the net's equal with no tax
    expect(fieldOf(extraction, 'total')?.value).toBe('2673.29');
  });
});
