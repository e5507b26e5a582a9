import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { sentences } from '../../lambdas/extract/text/prose.js';
import { indexText } from '../../lambdas/extract/text/textIndex.js';
import { wordsToNumber } from '../../lambdas/extract/text/values.js';
import { termMonthsBetween } from '../../lambdas/shared/documents/index.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A contract that states a fee per month or per year, its term and its total checks the total
 * by itself: the fee times the whole periods of the term is the total, to the cent. Nothing else
 * on a contract's page checks its value.
 */
const extractor = new HeuristicExtractor();
const evidenceOf = async (lines: readonly string[]) =>
  fieldOf(await extractor.extract(pdfTextOf([...lines])), 'totalValue')?.evidence?.map((e) => e.kind);

const opening = (title: string, parties: string) => [title, parties];
const ENGLISH = opening(
  'MASTER SERVICES AGREEMENT',
  'This Agreement is entered into as of March 15, 2024 by and between Sterling Facility Partners, LLC ("Service Provider") and Northgate Medical Group, P.C. ("Client").',
);
const GERMAN = opening(
  'Dienstleistungsvertrag Nr. DL-2024-07',
  'zwischen Praxisgemeinschaft Dr. Weber – nachfolgend „Auftraggeber“ genannt – und Reinigungsservice Sauber GmbH – nachfolgend „Auftragnehmer“ genannt –',
);

describe('a total that a fee per period and the term check', () => {
  it.each([
    [
      'a monthly fee, the term in months (English)',
      [
        ...ENGLISH,
        '1. Term. This Agreement shall continue for a period of twenty-four (24) months.',
        '2. Compensation. Client shall pay Service Provider $10,000.00 per month, for a total contract value of $240,000.00 over the Initial Term.',
      ],
    ],
    [
      'an annual fee, the term between two dates (English)',
      [
        'SOFTWARE SUBSCRIPTION AGREEMENT',
        'This Agreement is entered into as of July 1, 2024 by and between Cloudnine Software, Inc. ("Provider") and Harbor Freight Logistics LLC ("Customer").',
        '1. Term. The initial term of this Agreement ends on June 30, 2027.',
        '2. Fees. Customer shall pay an annual subscription fee of $36,000.00, for total fees of $108,000.00 over the initial term.',
      ],
    ],
    [
      'a monthly fee before "zzgl." and the total after it (German)',
      [
        ...GERMAN,
        '§ 2 Laufzeit: Der Vertrag beginnt am 01.08.2024 und wird für 24 Monate geschlossen.',
        '§ 3 Vergütung: Die monatliche Vergütung beträgt 900,00 € zzgl. USt., für die Laufzeit insgesamt 21.600,00 € netto.',
      ],
    ],
    [
      'a monthly retainer over the engagement (English)',
      [
        'CONSULTING AGREEMENT',
        'This Agreement is made by and between Apex Analytics LLC ("Consultant") and Brightway Foods, Inc. (the "Company").',
        '2. Term. The engagement shall commence on August 1, 2024 and continue for six (6) months.',
        '3. Compensation. Company shall pay Consultant a monthly retainer of $8,500.00, for a total of $51,000.00 over the term.',
      ],
    ],
    [
      'a monthly fee and the term from a day (Polish)',
      [
        'UMOWA O ŚWIADCZENIE USŁUG nr 12/2024',
        'pomiędzy: Biuro Rachunkowe Nowak Sp. z o.o., zwaną dalej „Wykonawcą”, a Sklep Internetowy Zielony Sp. z o.o., zwaną dalej „Zleceniodawcą”.',
        '§ 2. Umowa zostaje zawarta na okres 12 miesięcy od dnia 1 lipca 2024 r.',
        '§ 3. Wynagrodzenie miesięczne wynosi 1 500,00 zł netto, łącznie 18 000,00 zł netto.',
      ],
    ],
    [
      'monthly rent "for total rent of" the whole, over "the term of this Lease" (English)',
      [
        'COMMERCIAL LEASE AGREEMENT',
        'This Lease is entered into as of September 1, 2024 by and between Greenfield Properties LLC ("Landlord") and Northside Yoga Studio LLC ("Tenant").',
        '2. Term. The term of this Lease shall be thirty-six (36) months, commencing on September 1, 2024.',
        '3. Rent. Tenant shall pay monthly rent of $2,400.00, for total rent of $86,400.00 over the term.',
      ],
    ],
    [
      'a monthly rent over "tres años" (Spanish)',
      [
        'CONTRATO DE ARRENDAMIENTO DE LOCAL DE NEGOCIO',
        'De una parte, Inmobiliaria Costa Azul, S.L. (en adelante, "el Arrendador"). De otra parte, Panadería Hermanos Gil, S.L. (en adelante, "el Arrendatario").',
        'Primera. El contrato entrará en vigor el 1 de julio de 2024 y tendrá una duración de tres años.',
        'Segunda. La renta mensual es de 1.200,00 € más IVA, en total 43.200,00 € por la duración del contrato.',
      ],
    ],
  ])('is checked by arithmetic: %s', async (_case, lines) => {
    // Act
    const kinds = await evidenceOf(lines);

    // Assess
    expect(kinds).toContain('arithmetic');
  });

  it.each([
    [
      'a fee that does not multiply to the total',
      'twenty-four (24) months',
      '$10,000.00 per month, for a total contract value of $250,000.00 over the Initial Term.',
    ],
    [
      "one period's fee restated as the total",
      'twelve (12) months',
      'an annual fee of $120,000.00, for a total contract value of $120,000.00.',
    ],
  ])('is not checked by %s', async (_case, term, fees) => {
    // Act
    const kinds = await evidenceOf([
      ...ENGLISH,
      `1. Term. This Agreement shall continue for a period of ${term}.`,
      `2. Compensation. Client shall pay Service Provider ${fees}`,
    ]);

    // Assess: the total is read, but only as printed
    expect(kinds).toContain('label');
    expect(kinds).not.toContain('arithmetic');
  });
});

describe('an amount that a fee per period times the term makes', () => {
  it.each([
    [
      'after a ";" with no total word Docket knows (German)',
      [
        ...GERMAN,
        '§ 2 Laufzeit: Der Vertrag tritt am 01.01.2025 in Kraft und hat eine Laufzeit von 36 Monaten.',
        '§ 3 Vergütung: Die jährliche Pauschale beträgt 5.200,00 € netto; über die Laufzeit somit 15.600,00 € netto.',
      ],
      { amount: '15600.00', currency: 'EUR' },
    ],
    [
      'over "the initial term is three (3) years" (English)',
      [
        ...ENGLISH,
        '1. Term. The initial term is three (3) years from the Effective Date.',
        '2. Fees. Client shall pay an annual fee of $22,000, for a total of $66,000 over the initial term.',
      ],
      { amount: '66000', currency: 'USD' },
    ],
    [
      'a quarterly fee over one year (English)',
      [
        ...ENGLISH,
        '1. Term. This Agreement shall continue for a period of one (1) year.',
        '2. Fees. Client shall pay Service Provider $9,000 per quarter, for a total of $36,000.',
      ],
      { amount: '36000', currency: 'USD' },
    ],
    [
      'a quarterly fee over 24 months (German)',
      [
        ...GERMAN,
        '§ 2 Laufzeit: Der Vertrag tritt am 01.01.2025 in Kraft und hat eine Laufzeit von 24 Monaten.',
        '§ 3 Vergütung: Die Pauschale beträgt vierteljährlich 1.500,00 € netto, insgesamt 12.000,00 € netto.',
      ],
      { amount: '12000.00', currency: 'EUR' },
    ],
    [
      'a period word after "netto" (Polish)',
      [
        'UMOWA NAJMU LOKALU nr 9/2025',
        'pomiędzy: Nieruchomości Zielona Sp. z o.o., zwaną dalej „Wynajmującym”, a Kwiaciarnia Róża Sp. z o.o., zwaną dalej „Najemcą”.',
        '§ 1. Umowa zostaje zawarta na okres 24 miesięcy od dnia 1 marca 2025 r.',
        '§ 2. Czynsz najmu wynosi 2 500,00 zł netto miesięcznie, łącznie 60 000,00 zł netto.',
      ],
      { amount: '60000.00', currency: 'PLN' },
    ],
    [
      '"tem a duração de 12 meses" (Portuguese)',
      [
        'CONTRATO DE PRESTAÇÃO DE SERVIÇOS N.º CPS-2025/003',
        'Entre Limpezas Atlântico, Lda., doravante designada por "Prestador", e Hotel Mar Azul, S.A., doravante designada por "Cliente".',
        'Cláusula 2.ª O contrato entra em vigor em 1 de março de 2025 e tem a duração de 12 meses.',
        'Cláusula 3.ª O preço mensal é de 1.500,00 €, acrescido de IVA, no total de 18.000,00 €.',
      ],
      { amount: '18000.00', currency: 'EUR' },
    ],
    [
      '"the licence shall run for 24 months" (English)',
      [
        ...ENGLISH,
        '1. Term. The licence shall run for 24 months from the date of this agreement.',
        '2. Fees. Client shall pay a licence fee of €250 per month, being €6,000 in total, plus VAT.',
      ],
      { amount: '6000', currency: 'EUR' },
    ],
    [
      'in a clause headed "Charges." (English)',
      [
        ...ENGLISH,
        '1. Term. This Agreement continues for a period of 12 months.',
        '2. Charges. The Client shall pay the Service Provider $3,500 per month, a total of $42,000 excluding taxes.',
      ],
      { amount: '42000', currency: 'USD' },
    ],
  ])('is the total, checked by arithmetic: %s', async (_case, lines, total) => {
    // Act
    const field = fieldOf(await extractor.extract(pdfTextOf([...lines])), 'totalValue');

    // Assess
    expect(field?.value).toEqual(total);
    expect(field?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('is not made of a fee whose period does not divide the term', async () => {
    // Act
    const field = fieldOf(
      await extractor.extract(
        pdfTextOf([
          ...GERMAN,
          '§ 2 Laufzeit: Der Vertrag tritt am 01.01.2025 in Kraft und hat eine Laufzeit von 18 Monaten.',
          '§ 3 Vergütung: Die jährliche Pauschale beträgt 5.200,00 € netto; über die Laufzeit somit 7.800,00 € netto.',
        ]),
      ),
      'totalValue',
    );

    // Assess: 18 months are no whole number of years, so nothing checks 7.800,00
    expect(field?.value).not.toEqual({ amount: '7800.00', currency: 'EUR' });
    expect(field?.evidence?.map((e) => e.kind) ?? []).not.toContain('arithmetic');
  });
});

describe('termMonthsBetween', () => {
  it.each([
    ['2024-07-01', '2027-06-30', 36],
    ['2024-06-03', '2025-06-03', 12],
    ['2024-01-31', '2024-02-28', 1],
    ['2024-07-01', '2024-07-20', undefined],
  ])('from %s to %s is %s months', (from, to, months) => {
    // Act
    const got = termMonthsBetween(from, to);

    // Assess
    expect(got).toBe(months);
  });
});

describe('sentences', () => {
  it('go on after an abbreviation ("zzgl.", "approx.") and end at a full stop', () => {
    // Act
    const found = sentences(
      indexText(
        pdfTextOf([
          'Die Vergütung beträgt 900,00 € zzgl. USt., insgesamt 21.600,00 €. Der Vertrag endet am 31.07.2026.',
          'The fee is approx. $500 per visit. Invoices are due in 30 days.',
        ]),
      ),
    ).map((s) => s.text.trim());

    // Assess
    expect(found).toEqual([
      'Die Vergütung beträgt 900,00 € zzgl. USt., insgesamt 21.600,00 €.',
      'Der Vertrag endet am 31.07.2026.',
      'The fee is approx. $500 per visit.',
      'Invoices are due in 30 days.',
    ]);
  });
});

describe('a Polish contract that runs from a day', () => {
  it('takes effect on that day ("na okres 12 miesięcy od dnia 1 lipca 2024 r.")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'UMOWA O ŚWIADCZENIE USŁUG nr 12/2024',
        'pomiędzy: Biuro Rachunkowe Nowak Sp. z o.o., zwaną dalej „Wykonawcą”, a Sklep Internetowy Zielony Sp. z o.o., zwaną dalej „Zleceniodawcą”.',
        '§ 2. Umowa zostaje zawarta na okres 12 miesięcy od dnia 1 lipca 2024 r.',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2024-07-01');
  });
});

describe('wordsToNumber', () => {
  it.each([
    ['tres', 'es', 3],
    ['tres', 'da', 60],
    ['tres', undefined, undefined],
    ['zwölf', undefined, 12],
  ])('reads "%s" in %s as %s: a word of two values is the document language\'s', (word, language, n) => {
    // Act
    const got = wordsToNumber(word, language);

    // Assess
    expect(got).toBe(n);
  });
});

describe('a fee in a compound word, or in a word the vocabulary only now knows', () => {
  it.each([
    [
      'German, a compound that ends in a fee word ("Wartungspauschale")',
      [
        'Wartungsvertrag Nr. WV-2025-08',
        'zwischen der Schreinerei Holz & Form GmbH, Werkstraße 3, 90402 Nürnberg (Auftragnehmer)',
        'und der Praxis Müller GmbH, Königstraße 50, 90402 Nürnberg (Auftraggeber)',
        '1. Der Vertrag beginnt am 01.09.2025 und läuft 24 Monate.',
        '2. Die jährliche Wartungspauschale beträgt 2.400,00 € netto; für die gesamte Laufzeit somit 4.800,00 € netto.',
      ],
      '4800.00',
    ],
    [
      'Finnish, a monthly charge ("Kuukausimaksu") over a labelled period',
      [
        'Huoltosopimus 2025-07',
        'Palveluntuottaja: Tekniikkapalvelu Virtanen Oy',
        'Tilaaja: Asunto Oy Koivula',
        'Sopimuskausi: 1.6.2025–31.5.2027',
        'Kuukausimaksu 800,00 € (alv 0 %), sopimuskaudelta yhteensä 19 200,00 €.',
      ],
      '19200.00',
    ],
  ])('reads the total the fee times the term makes (%s)', async (_case, lines, total) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess
    expect(extraction.docType).toBe('contract');
    expect(fieldOf(extraction, 'totalValue')?.value).toMatchObject({ amount: total, currency: 'EUR' });
    expect(fieldOf(extraction, 'totalValue')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('reads the parties of lines that open with "zwischen der" and "und der", and "läuft 24 Monate" as the term', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Wartungsvertrag Nr. WV-2025-08',
        'zwischen der Schreinerei Holz & Form GmbH, Werkstraße 3, 90402 Nürnberg (Auftragnehmer)',
        'und der Praxis Müller GmbH, Königstraße 50, 90402 Nürnberg (Auftraggeber)',
        '1. Der Vertrag beginnt am 01.09.2025 und läuft 24 Monate.',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Schreinerei Holz & Form GmbH');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Praxis Müller GmbH');
    expect(fieldOf(extraction, 'termMonths')?.value).toBe(24);
  });
});
