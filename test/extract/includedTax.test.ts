import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A shop's receipt prints its prices with tax and no net, and states the tax they include in a
 * sentence or a line of its own: the rate's share of the total checks that tax to the cent. Taxed
 * at two rates, each line's tax is its rate's share of part of the total, and the parts add up.
 */
const extractor = new HeuristicExtractor();

const GERMAN_SHOP = [
  'Fahrradhaus Klein e.K. · Lindenallee 4 · 50968 Köln',
  'Rechnung Nr. 2025-0412',
  'Datum: 16.05.2025',
  'Fahrradhelm Urban M                   89,95 €',
  'Inspektion Standard                  160,00 €',
];
const ENGLISH_SHOP = [
  'Greenfield Garden Centre Ltd',
  'SALES INVOICE',
  'Invoice: 118822',
  'Date: 24 May 2025',
  'Olive tree 1.2m                        £130.00',
  'Terracotta pot 40cm                     £56.00',
];

describe('the tax a price includes', () => {
  it.each([
    [
      'German, in a sentence',
      [...GERMAN_SHOP, 'Gesamtbetrag  249,95 €', 'Im Gesamtbetrag sind 19 % MwSt. (39,91 €) enthalten.'],
      '39.91',
    ],
    [
      'English, on a line of its own',
      [...ENGLISH_SHOP, 'Total (inc. VAT)  £186.00', 'Included VAT at 20%: £31.00'],
      '31.00',
    ],
    [
      'English, in brackets after the rate',
      [...ENGLISH_SHOP, 'Total  £186.00', 'Prices include VAT at 20% (£31.00)'],
      '31.00',
    ],
    [
      'German, two rates each on part of the total',
      [
        ...GERMAN_SHOP,
        'Gesamtbetrag  249,95 €',
        'enthaltene MwSt. 19 %: 14,36 €',
        'enthaltene MwSt. 7 %: 10,47 €',
      ],
      '24.83',
    ],
    [
      "Austrian, a café's receipt with two rates after the sum",
      [
        'Café Landtmann',
        'Rechnung Nr. 0048213        20.05.2025 12:41',
        '2 x Melange                 9,80',
        '1 x Wiener Schnitzel       31,40',
        '1 x Almdudler 0,35           4,80',
        'Summe EUR                  46,00',
        'enthaltene USt. 10 %:       3,75',
        'enthaltene USt. 20 %:       0,80',
      ],
      '4.55',
    ],
  ])('is read where the rate makes it (%s)', async (_case, lines, tax) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess
    const field = fieldOf(extraction, 'tax');
    expect(field?.value).toBe(tax);
    expect(field?.evidence?.some((e) => e.kind === 'arithmetic')).toBe(true);
  });

  it.each([
    [
      'an amount the rate does not make',
      [...GERMAN_SHOP, 'Gesamtbetrag  249,95 €', 'Im Gesamtbetrag sind 19 % MwSt. (38,91 €) enthalten.'],
    ],
    [
      "two rates whose taxes are no shares of the total's parts",
      [
        ...GERMAN_SHOP,
        'Gesamtbetrag  249,95 €',
        'enthaltene MwSt. 19 %: 14,36 €',
        'enthaltene MwSt. 7 %: 11,47 €',
      ],
    ],
  ])('is not checked by %s', async (_case, lines) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess
    expect(fieldOf(extraction, 'tax')?.evidence?.some((e) => e.kind === 'arithmetic') ?? false).toBe(false);
  });
});
