import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Languages that put the verb last write the date a contract takes effect on before the words
 * that say so: "İşbu sözleşme 01.04.2025 tarihinde yürürlüğe girer", "A szerződés 2025. április
 * 1-jén lép hatályba". The vocabularies' `effectiveAfterDate` words are read after their date.
 */
const extractor = new HeuristicExtractor();

const TURKISH = [
  'HİZMET SÖZLEŞMESİ',
  'Sözleşme No: HS-2025/050',
  'İşbu sözleşme, bir tarafta Dijital Çözümler Yazılım A.Ş. (bundan böyle "HİZMET VEREN" olarak anılacaktır) ile diğer tarafta Anadolu Lojistik A.Ş. (bundan böyle "MÜŞTERİ" olarak anılacaktır) arasında akdedilmiştir.',
];
const HUNGARIAN = [
  'VÁLLALKOZÁSI SZERZŐDÉS',
  'Szerződésszám: VSZ-2025/11',
  'amely létrejött egyrészről a Példa Építő Kft. (a továbbiakban: Vállalkozó), másrészről a Minta Kereskedelmi Kft. (a továbbiakban: Megrendelő) között.',
];

describe('the date a contract takes effect on, before the words that say so', () => {
  it.each([
    ['Turkish', TURKISH, 'İşbu sözleşme 01.04.2025 tarihinde yürürlüğe girer ve 12 ay süreyle geçerlidir.'],
    ['Turkish, from the date on', TURKISH, 'Sözleşme 1 Nisan 2025 tarihinden itibaren yürürlüğe girer.'],
    [
      'Hungarian, a day with its suffix',
      HUNGARIAN,
      'A szerződés 2025. április 1-jén lép hatályba, és 12 hónapig tart.',
    ],
    ['Hungarian, a dotted day', HUNGARIAN, 'A szerződés 2025. április 1. napján lép hatályba.'],
  ])('is read (%s)', async (_, head, sentence) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf([...head, sentence]));

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-04-01');
  });

  it('is not a date the sentence names before other words', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        ...TURKISH,
        '28.03.2025 tarihli teklif esas alınmıştır; sözleşme imza tarihinde yürürlüğe girer.',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).not.toBe('2025-03-28');
  });
});

describe("a contract's term, before the words that say so", () => {
  it.each([
    ['Turkish', TURKISH, 'Sözleşme 24 (yirmi dört) ay süreyle akdedilmiştir.', 24],
    [
      'Turkish, after its start date',
      TURKISH,
      'İşbu sözleşme 01.04.2025 tarihinde yürürlüğe girer ve 12 ay süreyle geçerlidir.',
      12,
    ],
    ['Hungarian, "hónapig tart"', HUNGARIAN, 'A szerződés 12 hónapig tart.', 12],
    ['Hungarian, "időtartamra"', HUNGARIAN, 'A szerződés határozott időre, 2 év időtartamra jön létre.', 24],
  ])('is read (%s)', async (_, head, sentence, months) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf([...head, sentence]));

    // Assess
    expect(fieldOf(extraction, 'termMonths')?.value).toBe(months);
  });

  it('is not a duration the words do not follow', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        ...TURKISH,
        'Sözleşme, 12 ay önce verilen teklif esas alınarak süreyle ilgili hükümler saklıdır.',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'termMonths')).toBeUndefined();
  });
});
