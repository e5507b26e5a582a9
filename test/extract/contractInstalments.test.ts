import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A fixed price paid in parts checks itself: the parts a contract splits its total into ("three
 * instalments of £15,000") add up to the total it states, in any language Docket has words for.
 */
const extractor = new HeuristicExtractor();
const totalOf = async (lines: readonly string[]) =>
  fieldOf(await extractor.extract(pdfTextOf([...lines])), 'totalValue');

const ENGLISH = [
  'STATEMENT OF WORK No. SOW-03',
  'between Kestrel Analytics Ltd ("Supplier") and Fenwick Retail Group plc ("Customer").',
];

describe('a total that the parts it is paid in add up to', () => {
  it.each([
    [
      'English, the count in words',
      [
        ...ENGLISH,
        '3. Fees. The total fees for this SOW are £45,000, invoiced in three milestones of £15,000.',
      ],
      '45000',
    ],
    [
      'English, the count in words and digits, with a word between',
      [
        ...ENGLISH,
        '3. Fees. The total fees are £45,000, payable in three (3) equal instalments of £15,000 each.',
      ],
      '45000',
    ],
    [
      'German, "in drei Raten zu je"',
      [
        'Werkvertrag Nr. WV-2025-02',
        'zwischen Stadtwerke Nordheide GmbH – nachfolgend „Auftraggeber“ – und Datenwerk GmbH – nachfolgend „Auftragnehmer“ –',
        '§ 3 Vergütung: Die Gesamtvergütung beträgt 45.000,00 €, zahlbar in drei Raten zu je 15.000,00 €.',
      ],
      '45000.00',
    ],
    [
      'French, "en 12 mensualités de"',
      [
        'CONTRAT DE PRESTATION N° CP-2025-08',
        'Entre Alpha Conseil SARL, ci-après « le Prestataire », et Boulangerie Martin SAS, ci-après « le Client ».',
        "Article 3 – Prix : le montant total s'élève à 4 800,00 € HT, payable en 12 mensualités de 400,00 €.",
      ],
      '4800.00',
    ],
  ])('checks the total: %s', async (_, lines, amount) => {
    // Act
    const total = await totalOf(lines);

    // Assess
    expect(total?.value).toMatchObject({ amount });
    expect(total?.evidence?.map((e) => e.detail)).toContainEqual(expect.stringMatching(/^instalments: /));
  });

  it.each([
    [
      'parts that add up to another amount',
      'The total fees are £45,000, payable in three instalments of £20,000.',
    ],
    ['one part', 'The total fees are £45,000, payable in one instalment of £45,000.'],
    [
      'a penalty in parts',
      'The total fees are £45,000; a penalty of three payments of £15,000 applies to late delivery.',
    ],
  ])('does not check the total with %s', async (_, clause) => {
    // Act
    const total = await totalOf([...ENGLISH, `3. Fees. ${clause}`]);

    // Assess
    expect(total?.value).toMatchObject({ amount: '45000' });
    expect(total?.evidence?.map((e) => e.detail) ?? []).not.toContainEqual(
      expect.stringMatching(/^instalments: /),
    );
  });
});

describe('a rate for an hour, a day or a unit', () => {
  it.each([
    ['§ 3 Vergütung: Der Stundensatz beträgt 120,00 € zzgl. USt.'],
    ['§ 3 Vergütung: Die Vergütung beträgt 950,00 € pro Tag.'],
  ])('is no total: "%s"', async (clause) => {
    // Act
    const total = await totalOf([
      'Dienstleistungsvertrag Nr. DV-2025-11',
      'zwischen Stadtwerke Nordheide GmbH – nachfolgend „Auftraggeber“ – und Datenwerk GmbH – nachfolgend „Auftragnehmer“ –',
      clause,
    ]);

    // Assess
    expect(total).toBeUndefined();
  });
});
