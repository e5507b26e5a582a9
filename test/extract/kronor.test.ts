import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { findAmounts } from '../../lambdas/extract/text/parseAmount.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * "kr" is the krona of Sweden, Denmark, Norway and Iceland: the issuer's registration says which.
 * A registration alone is a guess of 0.6 (a business may bill in another currency); with the
 * totals printed in "kr" it is that country's krona, as sure as a "$" the registration settles.
 */
const extractor = new HeuristicExtractor();
const read = (registration: string) =>
  extractor.extract(
    pdfTextOf([
      'Ljusdesign AB',
      'Faktura 2024-0417',
      registration,
      'Netto                                     5 000,00 kr',
      'Moms 25%                                  1 250,00 kr',
      'Att betala                                6 250,00 kr',
    ]),
  );

describe('amounts in "kr"', () => {
  it.each([
    ['Momsreg.nr SE559012345601', 'SEK'],
    ['CVR/VAT: DK12345674', 'DKK'],
    ['Org.nr. NO 987 654 321 MVA', 'NOK'],
  ])('are the krona of the issuer registered as %s', async (registration, currency) => {
    // Act
    const extraction = await read(registration);

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe(currency);
    expect(fieldOf(extraction, 'currency')?.confidence).toBe(0.75);
  });

  it.each([
    ['Org.nr 556123-4567', 'SEK'],
    ['CVR 12345678', 'DKK'],
    ['Org.nr. 912 345 678', 'NOK'],
  ])(
    'are the krona of a business registration alone, without a VAT id (%s)',
    async (registration, currency) => {
      // Act
      const extraction = await read(registration);

      // Assess
      expect(fieldOf(extraction, 'currency')?.value).toBe(currency);
      expect(fieldOf(extraction, 'currency')?.confidence).toBe(0.75);
    },
  );

  it('stay a guess of the country where it has no krona', async () => {
    // Act: a German VAT id and "kr" contradict each other; the registration stays a guess
    const extraction = await read('USt-IdNr. DE123456789');

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe('EUR');
    expect(fieldOf(extraction, 'currency')?.confidence).toBeLessThan(0.75);
  });

  it('name no krona without a registration', async () => {
    // Act
    const extraction = await read('Storgatan 5, 111 51 Stockholm');

    // Assess
    expect(fieldOf(extraction, 'currency')).toBeUndefined();
  });
});

describe('amounts with no sign at all', () => {
  it.each([
    ['Org.nr 556712-3456 · Godkänd för F-skatt', 'SEK'],
    ['CVR 31 24 55 19', 'DKK'],
  ])(
    'are probably the krona of a business registration alone (%s), as a guess',
    async (registration, currency) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf([
          'Lindqvist Bygg AB',
          registration,
          'Faktura 30418',
          'Summa exkl. moms                                   84 000,00',
          'Moms 25 %                                          21 000,00',
          'Att betala                                        105 000,00',
        ]),
      );

      // Assess
      expect(fieldOf(extraction, 'currency')?.value).toBe(currency);
      expect(fieldOf(extraction, 'currency')?.confidence).toBeLessThan(0.75);
    },
  );
});

describe('whole kronor without öre', () => {
  it.each([
    ['Att betala                                12 500 kr', '12500'],
    ['Att betala                                12 500:-', '12500'],
  ])('are one amount in "%s", the sum settling the total', async (line, total) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Norrlands Måleri AB',
        'Faktura 3381',
        'Netto                                     10 000,00',
        'Moms 25 %                                  2 500,00',
        line,
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe(total);
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it.each([
    ['432 000 kronor', '432000'],
    ['54 000 kroner', '54000'],
    ['kr 15 000', '15000'],
    ['kr. 2 400', '2400'],
  ])('are one amount in "%s", with the krona\'s word or its sign before', (text, amount) => {
    // Act
    const amounts = findAmounts(text);

    // Assess
    expect(amounts.map((a) => a.amount)).toEqual([amount]);
  });

  it('leave "2 400" without a sign two numbers, a quantity and a price', () => {
    // Act
    const amounts = findAmounts('2 400 st');

    // Assess
    expect(amounts.map((a) => a.amount)).toEqual(['2', '400']);
  });
});

describe('a contract priced in "kr"', () => {
  const contract = (registrations: [string, string], price: string) =>
    extractor.extract(
      pdfTextOf([
        'SERVICEAFTALE nr. SA-2025-02',
        `mellem Rengøring Syd ApS, ${registrations[0]} (herefter "Leverandøren") og Tandklinikken Vest I/S, ${registrations[1]} (herefter "Kunden")`,
        '1. Aftalen træder i kraft den 1. marts 2025 og løber i 12 måneder.',
        `2. Vederlaget udgør ${price}`,
      ]),
    );

  it.each([
    [['CVR 12345678', 'CVR 87654321'], '4.500,00 kr. pr. måned ekskl. moms, i alt 54.000,00 kr.', 'DKK'],
    [['org.nr. 912 345 678', 'org.nr. 998 765 432'], 'kr 4 500 per måned, totalt kr 54 000.', 'NOK'],
    [['org.nr 556111-2222', 'org.nr 559333-4444'], '4 500 kronor per månad, totalt 54 000 kronor.', 'SEK'],
  ])(
    'is in the krona of the country its parties are registered in (%s)',
    async (registrations, price, currency) => {
      // Act
      const value = fieldOf(await contract(registrations as [string, string], price), 'totalValue');

      // Assess: the fee times the term checks it
      expect(value?.value).toEqual({ amount: expect.stringMatching(/^54000/), currency });
      expect(value?.evidence?.map((e) => e.kind)).toContain('arithmetic');
    },
  );

  it("names no currency when no registration, or two countries' registrations, say whose krona", async () => {
    // Act
    const none = await contract(
      ['Havnegade 4', 'Bispensgade 20'],
      '4.500,00 kr. pr. måned, i alt 54.000,00 kr.',
    );
    const two = await contract(
      ['CVR 12345678', 'org.nr 556111-2222'],
      '4.500,00 kr. pr. måned, i alt 54.000,00 kr.',
    );

    // Assess
    expect(fieldOf(none, 'totalValue')).toBeUndefined();
    expect(fieldOf(two, 'totalValue')).toBeUndefined();
  });
});
