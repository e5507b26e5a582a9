import { describe, expect, it } from 'vitest';
import { classify } from '../../lambdas/extract/text/classify.js';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { findDates } from '../../lambdas/extract/text/parseDate.js';
import { cleanPartyName } from '../../lambdas/extract/text/partyNames.js';
import { indexText } from '../../lambdas/extract/text/textIndex.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Contracts of a named kind: a statement of work under a framework, a works contract, a public
 * procurement contract, a sale. Their titles, roles and price words are their own.
 */
const extractor = new HeuristicExtractor();
const read = (lines: string[]) => extractor.extract(pdfTextOf(lines));

describe('a title of several words with its number', () => {
  it('reads a Czech works contract "SMLOUVA O DÍLO č. …" as a contract, and when the work starts', async () => {
    // Act
    const extraction = await read([
      'SMLOUVA O DÍLO č. SOD-2025-03',
      'Objednatel: Pekárna Svoboda s.r.o., Masarykova 10, 602 00 Brno, IČO 12345678',
      'Zhotovitel: Stavby Dvořák s.r.o., Cejl 50, 602 00 Brno, IČO 87654321',
      'Čl. II Doba plnění: zahájení díla dne 22. 4. 2025, dokončení do 30. 6. 2025.',
      'Čl. III Cena díla: Cena díla se sjednává ve výši 850 000 Kč bez DPH.',
    ]);

    // Assess
    expect(extraction.docType).toBe('contract');
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('SOD-2025-03');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Stavby Dvořák s.r.o.');
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-04-22');
  });

  it('reads when a Czech work starts and must be completed, without "dne" ("zahájení prací 1. 4. 2025, dokončení díla nejpozději 30. 9. 2025")', async () => {
    // Act
    const extraction = await read([
      'SMLOUVA O DÍLO č. SOD-2025-12',
      'Objednatel: Obec Horní Lhota, Horní Lhota 1, 739 37 Horní Lhota, IČO 00296911',
      'Zhotovitel: Stavby Novák s.r.o., Průmyslová 12, 702 00 Ostrava, IČO 27812345',
      'Čl. II Doba plnění: zahájení prací 1. 4. 2025, dokončení díla nejpozději 30. 9. 2025.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-04-01');
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe('2025-09-30');
  });

  it.each([
    ['CONTRACT DE PRESTĂRI SERVICII nr. 87 din 20.02.2025', '87'],
    ['CONTRACT DE PRESTĂRI SERVICII nr. 2', undefined],
  ])('reads a one- or two-digit number only where the title dates it (%s)', async (title, number) => {
    // Act
    const extraction = await read([
      title,
      'SC Agro Banat SA, cu sediul în Timișoara, în calitate de beneficiar,',
      'și SC Digital Solutions SRL, cu sediul în Cluj-Napoca, în calitate de prestator,',
      'Art. 3 Valoarea totală a contractului este de 60.000 lei, fără TVA.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe(number);
  });

  it('reads a statement of work: its number, when it starts and its total fees', async () => {
    // Act
    const extraction = await read([
      'STATEMENT OF WORK No. SOW-03',
      'under the Master Services Agreement dated 12 January 2024',
      'between Kestrel Analytics Ltd, 9 Albion Place, Leeds LS1 6JL ("Supplier")',
      'and Fenwick Retail Group plc, 1 Market Street, Newcastle NE1 6JQ ("Customer").',
      '2. Term. This SOW starts on 1 April 2025 and ends on 30 September 2025.',
      '3. Fees. The total fees for this SOW are £45,000 (excluding VAT), invoiced in three milestones.',
    ]);

    // Assess
    expect(extraction.docType).toBe('contract');
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('SOW-03');
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-04-01');
    expect(fieldOf(extraction, 'totalValue')?.value).toEqual({ amount: '45000', currency: 'GBP' });
  });
});

describe('roles and labels of public and building contracts', () => {
  it('reads a French public contract: "Marché n°", the public buyer, a town hall without a house number', async () => {
    // Act
    const extraction = await read([
      "CONTRAT D'ENTRETIEN DES ESPACES VERTS",
      'Marché n° 2025-MAPA-012',
      'Entre la Commune de Figeac, Place Vival, 46100 Figeac, représentée par son Maire, ci-après « le Pouvoir adjudicateur »,',
      'et Espaces Verts du Lot SARL, 12 route de Cahors, 46100 Figeac, ci-après « le Titulaire ».',
    ]);

    // Assess
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('2025-MAPA-012');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Commune de Figeac');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Espaces Verts du Lot SARL');
  });

  it('reads a Spanish works contract: "el Promotor" and when the works "comenzarán"', async () => {
    // Act
    const extraction = await read([
      'CONTRATO DE EJECUCIÓN DE OBRA Nº CO-2025/09',
      'De una parte, Clínica Dental Sonrisa S.L., con domicilio en Avenida Maisonnave 20, 03003 Alicante (en adelante, "el Promotor").',
      'De otra parte, Reformas Levante S.L., con domicilio en Calle Pintor Aparicio 15, 03003 Alicante (en adelante, "el Contratista").',
      'SEGUNDA.- Plazo: las obras comenzarán el 7 de abril de 2025.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Clínica Dental Sonrisa S.L.');
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-04-07');
  });

  it('reads the date of an American standard form, "the 14th day of April in the year 2025"', () => {
    // Act
    const dates = findDates('AGREEMENT made as of the 14th day of April in the year 2025');

    // Assess
    expect(dates.map((d) => d.iso)).toEqual(['2025-04-14']);
  });
});

describe('the price of a sale', () => {
  it.each([
    ['Artikel 2. De koopsom bedraagt € 58.000,00 exclusief btw.', '58000.00'],
    ['§ 2 Der Kaufpreis beträgt 58.000,00 € netto.', '58000.00'],
  ])('reads "%s" as the value', async (clause, amount) => {
    // Act
    const extraction = await read([
      'KOOPOVEREENKOMST nr. KO-2025-14',
      'Bakkerijmachines Holland B.V., Frankrijkstraat 20, 6716 AD Ede, hierna "Verkoper";',
      'Bakkerij Van Dam V.O.F., Diezerstraat 44, 8011 RK Zwolle, hierna "Koper";',
      clause,
    ]);

    // Assess
    expect(fieldOf(extraction, 'totalValue')?.value).toEqual({ amount, currency: 'EUR' });
  });
});

describe('where a name ends before an address without a house number', () => {
  it.each([
    ['Commune de Figeac, Place Vival, 46100 Figeac', 'Commune de Figeac'],
    ['Jean Dupont, Le Moulin Neuf, 46100 Figeac', 'Jean Dupont'],
    ['Müller, Schmidt & Partner, 10115 Berlin', 'Müller, Schmidt & Partner'],
    ['Meyer, Lang und Kollegen, 80331 München', 'Meyer, Lang und Kollegen'],
  ])('reads "%s" as "%s"', (text, name) => {
    // Act
    const got = cleanPartyName(text);

    // Assess
    expect(got).toBe(name);
  });
});

describe('a name with an elided article or preposition', () => {
  it.each([["Cabinet Vétérinaire des Monts d'Or"], ["Bottega dell'Arte S.r.l."], ["L'Atelier de l'Arbre"]])(
    'keeps "%s" whole',
    (text) => {
      // Act
      const got = cleanPartyName(text);

      // Assess
      expect(got).toBe(text);
    },
  );

  it('is no name where other words are in lower case ("veuillez régler l\'Addition")', () => {
    // Act
    const got = cleanPartyName("Veuillez régler l'Addition");

    // Assess
    expect(got).toBeUndefined();
  });
});

describe("a contract form's role labels", () => {
  const classified = (lines: string[]) => classify(indexText(pdfTextOf(lines)));

  it.each([
    ['Lessor: Northern Asset Finance Ltd', 'Lessee: Dales Dairy Farm Ltd'],
    ['Vermieter: Immobilien Schulte GmbH', 'Mieter: Café Krone GmbH'],
  ])('make it surely a contract when both sides are labelled: "%s", "%s"', (provider, customer) => {
    // Act
    const got = classified([
      'EQUIPMENT LEASE AGREEMENT',
      provider,
      customer,
      'Rentals: 36 monthly rentals of £1,200.00 plus VAT, total rentals £43,200.00.',
    ]);

    // Assess
    expect(got).toMatchObject({ docType: 'contract' });
    expect(got.docType !== 'unclassified' && got.confidence).toBeGreaterThanOrEqual(0.75);
  });

  it('take no labels an invoice uses for its parties for a contract\'s ("Supplier:", "Customer:")', () => {
    // Act
    const got = classified([
      'INVOICE',
      'Supplier: Northern Asset Finance Ltd',
      'Customer: Dales Dairy Farm Ltd',
      'Total   £43,200.00',
    ]);

    // Assess
    expect(got).toMatchObject({ docType: 'invoice', scores: { contract: 0 } });
  });
});

describe('a name written in quotes', () => {
  it.each([
    ['«Ψηφιακές Λύσεις Ι.Κ.Ε.», εφεξής καλούμενη «ο Πάροχος»', 'Ψηφιακές Λύσεις Ι.Κ.Ε.'],
    ['«Atelier Dupont SARL»', 'Atelier Dupont SARL'],
    ['"Acme Ltd"', 'Acme Ltd'],
    ['„Дигитални Решения“ ЕООД', 'Дигитални Решения ЕООД'],
    ['"Kowalski" Sp. z o.o., ul. Długa 5', 'Kowalski Sp. z o.o.'],
  ])('reads "%s" as "%s", without its quotes', (text, name) => {
    // Act
    const got = cleanPartyName(text);

    // Assess
    expect(got).toBe(name);
  });
});

describe('a name followed by a label and its value', () => {
  it.each([
    ['Καφέ Ολύμπια Ο.Ε. ΑΦΜ: 998765435', 'Καφέ Ολύμπια Ο.Ε.'],
    ['Хотел Родина АД ЕИК: 121987654', 'Хотел Родина АД'],
    ['Acme Ltd VAT No: GB123456789', 'Acme Ltd'],
    ['Kafé Ølstue ApS CVR: 12345678', 'Kafé Ølstue ApS'],
  ])('reads "%s" as "%s": the label is cut, the legal form kept', (text, name) => {
    // Act
    const got = cleanPartyName(text);

    // Assess
    expect(got).toBe(name);
  });
});
