import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Layouts of Serbian invoices the vocabulary alone did not read: a company name written in lower
 * case after its first word with its dotted form ("Војвођанска пекара а.д."), a registered name
 * that ends with its seat ("DUNAV SOFT d.o.o. Beograd"), and the Cyrillic number mark "бр." on the
 * line under a title ("РАЧУН-ОТПРЕМНИЦА" / "бр. 318/25").
 */
const extractor = new HeuristicExtractor();

const bakery = (name: string, title: string, number: string) =>
  pdfTextOf([
    name,
    'Футошка 22, 21000 Нови Сад, ПИБ 100712345',
    title,
    number,
    'Датум: 09.04.2025.',
    'Купац: Маркет Лепа д.о.о.',
    'Основица ПДВ 10%                                         16.363,64',
    'ПДВ 10%                                                   1.636,36',
    'Укупно                                                   18.000,00 дин.',
  ]);

describe('a Serbian invoice in Cyrillic', () => {
  it.each([['бр. 318/25'], ['Број: 318/25']])(
    'reads the number under its title after "%s"',
    async (number) => {
      // Act
      const extraction = await extractor.extract(
        bakery('Војвођанска пекара а.д.', 'РАЧУН-ОТПРЕМНИЦА', number),
      );

      // Assess
      expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('318/25');
    },
  );

  it.each([['Војвођанска пекара а.д.'], ['Пекара Жито д.о.о.'], ['Графичка радња Јовић о.д.']])(
    'reads the vendor %s, its words after the first and its form in lower case',
    async (name) => {
      // Act
      const extraction = await extractor.extract(bakery(name, 'РАЧУН бр. 318/25', ''));

      // Assess
      expect(fieldOf(extraction, 'vendor')?.value).toBe(name);
      expect(fieldOf(extraction, 'customer')?.value).toBe('Маркет Лепа д.о.о.');
      expect(fieldOf(extraction, 'currency')?.value).toBe('RSD');
    },
  );
});

describe('a Serbian registered name that ends with its seat', () => {
  it('is the vendor, seat and all', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'DUNAV SOFT d.o.o. Beograd',
        'Bulevar Mihajla Pupina 10, 11070 Novi Beograd',
        'PIB 101234569 | MB 21123454',
        'RAČUN br. 2025-0311',
        'Datum izdavanja: 16.06.2025.',
        'Kupac: Pekara Zora, Novi Sad',
        'Ukupno bez PDV-a        35.000,00',
        'PDV 20%                  7.000,00',
        'UKUPNO ZA UPLATU        42.000,00 din.',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('DUNAV SOFT d.o.o. Beograd');
    expect(fieldOf(extraction, 'total')?.value).toBe('42000.00');
  });
});
