import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A contract's period as two dates: in a clause that says from when it applies, after a term's
 * label, or after a clause's article number. The period's end is the contract's end.
 */
const extractor = new HeuristicExtractor();
const read = (title: string, parties: string[], clause: string) =>
  extractor.extract(pdfTextOf([title, ...parties, clause]));

const SWEDISH = ['Leverantör: Nordic Facility Partner AB', 'Beställare: Göteborgs Hamnfastigheter AB'];
const POLISH = [
  'zawarta w Krakowie pomiędzy:',
  'Wodociągi Miejskie S.A. z siedzibą w Krakowie, zwanym dalej „Zamawiającym”,',
  'a Softpol Sp. z o.o. z siedzibą w Warszawie, zwanym dalej „Wykonawcą”.',
];
const ITALIAN = ['Fornitore: Officine Ferraro S.p.A.', 'Committente: Costruzioni Adriatiche S.r.l.'];
const GERMAN = ['Auftragnehmer: Datenwerk GmbH', 'Auftraggeber: Stadtwerke Ulm GmbH'];
const SPANISH = [
  'De una parte, Hotel Marina Playa S.A., en adelante "el Cliente".',
  'De otra parte, Servicios Integrales Levante S.L., en adelante "el Prestador".',
];
const ENGLISH = ['Supplier: Kestrel Analytics Ltd', 'Customer: Harbour Foods Ltd'];
const DUTCH = ['Verhuurder: Vastgoed Maas B.V.', 'Huurder: Bakkerij Van den Berg V.O.F.'];

describe("a contract's period", () => {
  it.each([
    [
      'Swedish, after the clause that says it applies',
      'AVTAL OM FASTIGHETSSKÖTSEL',
      SWEDISH,
      'Avtalet gäller från och med 2025-10-01 till och med 2028-09-30.',
      ['2025-10-01', '2028-09-30'],
    ],
    [
      'Polish, the year marked "r."',
      'UMOWA NR 14/IT/2025',
      POLISH,
      '§ 1. Umowa zostaje zawarta na okres 12 miesięcy, od dnia 1 sierpnia 2025 r. do dnia 31 lipca 2026 r.',
      ['2025-08-01', '2026-07-31'],
    ],
    [
      "Italian, a term's label after an article number",
      'CONTRATTO DI FORNITURA N. 2025/087',
      ITALIAN,
      'Art. 2 – Durata: dal 1° settembre 2025 al 31 agosto 2026.',
      ['2025-09-01', '2026-08-31'],
    ],
    [
      "German, a term's label",
      'DIENSTLEISTUNGSVERTRAG Nr. DV-2025-07',
      GERMAN,
      'Laufzeit: 01.07.2025 – 30.06.2026',
      ['2025-07-01', '2026-06-30'],
    ],
    [
      "Spanish, after the term's duration",
      'CONTRATO DE PRESTACIÓN DE SERVICIOS',
      SPANISH,
      'Segunda. Duración. El presente contrato tendrá una duración de un año, desde el 1 de junio de 2025 hasta el 31 de mayo de 2026, prorrogándose tácitamente por periodos anuales.',
      ['2025-06-01', '2026-05-31'],
    ],
    [
      "English, after the term's duration",
      'SERVICES AGREEMENT',
      ENGLISH,
      'This Agreement shall have a term of twelve (12) months, from 1 July 2025 to 30 June 2026.',
      ['2025-07-01', '2026-06-30'],
    ],
    [
      'Dutch, the end after "lopende tot en met"',
      'HUUROVEREENKOMST BEDRIJFSRUIMTE',
      DUTCH,
      'Deze overeenkomst is aangegaan voor de duur van vijf jaar, ingaande op 1 september 2025 en lopende tot en met 31 augustus 2030.',
      ['2025-09-01', '2030-08-31'],
    ],
  ])('gives its start and end (%s)', async (_case, title, parties, clause, [start, end]) => {
    // Act
    const extraction = await read(title, parties, clause);

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe(start);
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe(end);
  });

  it('is not read from a period that no clause ties to the contract', async () => {
    // Act
    const extraction = await read(
      'DIENSTLEISTUNGSVERTRAG Nr. DV-2025-07',
      GERMAN,
      'Die Preise gelten vom 01.01.2026 bis 31.12.2026.',
    );

    // Assess
    expect(fieldOf(extraction, 'expirationDate')).toBeUndefined();
  });

  it.each([
    [
      'Spanish',
      'CONTRATO DE ARRENDAMIENTO DE LOCAL DE NEGOCIO',
      SPANISH,
      'Segunda. Duración. El contrato tendrá una duración de cinco (5) años a contar desde el 1 de abril de 2025.',
    ],
    [
      'Portuguese',
      'CONTRATO DE PRESTAÇÃO DE SERVIÇOS',
      ['Prestador: Serviços Atlântico, Lda.', 'Cliente: Hotel Ribeira, S.A.'],
      'Cláusula 2.ª O contrato tem a duração de cinco (5) anos a contar de 1 de abril de 2025.',
    ],
  ])('starts on the day its term is counted from (%s)', async (_language, title, parties, clause) => {
    // Act
    const extraction = await read(title, parties, clause);

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-04-01');
  });

  it('renews where a Spanish clause says it is extended tacitly ("prorrogándose tácitamente")', async () => {
    // Act
    const extraction = await read(
      'CONTRATO DE PRESTACIÓN DE SERVICIOS',
      SPANISH,
      'El contrato tendrá una duración de un año, prorrogándose tácitamente por periodos anuales.',
    );

    // Assess
    expect(fieldOf(extraction, 'autoRenewal')?.value).toBe(true);
  });
});

describe('the day a contract was concluded', () => {
  it.each([
    [
      'Polish',
      'UMOWA NR 14/IT/2025',
      'zawarta w dniu 15 lipca 2025 r. w Krakowie pomiędzy:',
      POLISH,
      '2025-07-15',
    ],
    ['Czech', 'SMLOUVA O DÍLO č. SOD-2025-03', 'uzavřená dne 15. 7. 2025 mezi:', [], '2025-07-15'],
    [
      'German',
      'DIENSTLEISTUNGSVERTRAG Nr. DV-2025-07',
      'geschlossen am 15.07.2025 zwischen',
      GERMAN,
      '2025-07-15',
    ],
  ])('is its signing date (%s)', async (_language, title, line, parties, signed) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf([title, line, ...parties]));

    // Assess
    expect(fieldOf(extraction, 'signedDate')?.value).toBe(signed);
  });
});

describe('a contract signed on two days', () => {
  it("is concluded on the later, where each party's signature column prints its place and date", async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Rahmenliefervertrag Nr. RLV-2025/07',
        ...GERMAN,
        'Der Vertrag beginnt am 01.04.2025.',
        'St. Peter, den 20.03.2025                       Freiburg, den 21.03.2025',
      ]),
    );

    // Assess
    const signed = fieldOf(extraction, 'signedDate');
    expect(signed?.value).toBe('2025-03-21');
    expect(signed?.evidence?.some((e) => e.kind === 'conflict')).toBe(false);
  });

  it('is concluded on the later, where the signature blocks print "Date:" side by side', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'MUTUAL NON-DISCLOSURE AGREEMENT',
        'This Agreement is entered into as of 12 May 2025 (the "Effective Date").',
        'Signed for Quillon Robotics Ltd          Signed for Meridian Logistics GmbH',
        'Name: Dr. Helen Marsh                    Name: Jens Albers',
        'Date: 12 May 2025                        Date: 14 May 2025',
      ]),
    );

    // Assess
    const signed = fieldOf(extraction, 'signedDate');
    expect(signed?.value).toBe('2025-05-14');
    expect(signed?.evidence?.some((e) => e.kind === 'conflict')).toBe(false);
  });
});

describe('the term in brackets after a labelled period', () => {
  it.each([
    ['English', 'License Term: October 1, 2025 through September 30, 2028 (36 months)', 36],
    ['Danish', 'Aftaleperiode: 1. maj 2025 til 30. april 2026 (12 måneder)', 12],
    ['German', 'Laufzeit: 01.07.2025 – 30.06.2027 (24 Monate)', 24],
  ])('is the term (%s)', async (_case, clause, months) => {
    // Act
    const extraction = await read('SERVICES AGREEMENT', ENGLISH, clause);

    // Assess
    expect(fieldOf(extraction, 'termMonths')?.value).toBe(months);
  });

  it('is no term in a bracket that is no duration ("(inclusive)")', async () => {
    // Act
    const extraction = await read(
      'SERVICES AGREEMENT',
      ENGLISH,
      'Contract Period: 1 July 2025 to 30 June 2026 (inclusive)',
    );

    // Assess
    expect(fieldOf(extraction, 'termMonths')).toBeUndefined();
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe('2026-06-30');
  });
});

describe('the number under a contract title', () => {
  it.each([
    ['Czech', 'SMLOUVA O POSKYTOVÁNÍ SLUŽEB', 'č. 2025/017', '2025/017'],
    ['Romanian', 'CONTRACT DE PRESTĂRI SERVICII', 'Nr. 45/2025', '45/2025'],
    ['English', 'SERVICES AGREEMENT', 'No. SA-2025-31', 'SA-2025-31'],
  ])('is its number (%s "%s" over "%s")', async (_case, title, numbered, number) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([title, numbered, ...ENGLISH, 'Fees: £1,000 per month.']),
    );

    // Assess
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe(number);
  });

  it('is none under a line that is more than a title', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['SERVICES AGREEMENT dated 1 July 2025', 'No. SA-2025-31', ...ENGLISH]),
    );

    // Assess
    expect(fieldOf(extraction, 'contractNumber')).toBeUndefined();
  });
});

describe("a contract number label with its abbreviation's dot", () => {
  it.each([
    ['Danish', 'Aftalenr.: 2025-118'],
    ['Swedish', 'Avtalsnr.: 2025-118'],
    ['Norwegian', 'Avtalenr.: 2025-118'],
  ])('reads the number (%s "%s")', async (_case, label) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(['SERVICEAFTALE', label, ...ENGLISH]));

    // Assess
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('2025-118');
  });
});

describe("a Finnish contract's entry into force", () => {
  it('is its effective date ("Sopimuksen voimaantulo: 1.9.2025")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'PALVELUSOPIMUS',
        'Palveluntuottaja: Siivouspalvelu Puhdas Oy',
        'Asiakas: Tilitoimisto Laine Oy',
        'Sopimuksen voimaantulo: 1.9.2025',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-09-01');
  });
});

describe("a lease's term with its length before its dates", () => {
  it('reads "five years from and including … to and including …" as the start and end', async () => {
    // Act
    const extraction = await read(
      'LEASE OF COMMERCIAL PREMISES',
      ['Landlord: Harbourside Estates Ltd', 'Tenant: Blue Fin Seafood Ltd'],
      'Term: five years from and including 24 June 2025 to and including 23 June 2030',
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-06-24');
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe('2030-06-23');
    expect(fieldOf(extraction, 'termMonths')?.value).toBe(60);
  });

  it('reads "Commencement:" as the effective date\'s label', async () => {
    // Act
    const extraction = await read('SECURITY SERVICES AGREEMENT', ENGLISH, 'Commencement: 1 July 2025');

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-07-01');
  });
});

describe('a code after a contract title, with no number mark', () => {
  it.each([
    ['SECURITY SERVICES AGREEMENT Q-8812', 'Q-8812'],
    ['FRAMEWORK CALL-OFF CONTRACT PO-C-2025-300', 'PO-C-2025-300'],
  ])('is its number, and the document a contract ("%s")', async (title, number) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([title, 'Supplier: Tallis Engineering Ltd', 'Buyer: Northern Water plc']),
    );

    // Assess
    expect(extraction.docType).toBe('contract');
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe(number);
  });

  it('reads the number of an amendment titled as one ("AMENDMENT No. AMD-2 TO THE … AGREEMENT")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'AMENDMENT No. AMD-2 TO THE MANAGED HOSTING SERVICES AGREEMENT',
        'This Amendment is made between Cloudkeep Hosting Ltd ("Supplier") and Meridian Retail plc ("Customer") and takes effect on 1 October 2025.',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('AMD-2');
  });

  it('is none where the title ends in a year ("SERVICES AGREEMENT 2025")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['SERVICES AGREEMENT 2025', ...ENGLISH, 'The fees are £1,000 per month.']),
    );

    // Assess
    expect(fieldOf(extraction, 'contractNumber')).toBeUndefined();
  });
});

describe('an end the same sentence gives after a start, or an amendment gives', () => {
  it.each([
    [
      'The term of this Contract is three (3) years, commencing August 1, 2025 and ending July 31, 2028.',
      '2028-07-31',
    ],
    [
      'The term of the Agreement is extended for twelve (12) months from 1 July 2025 to 30 June 2026.',
      '2026-06-30',
    ],
    ['This Agreement is hereby extended until 31 March 2027 on the same terms.', '2027-03-31'],
  ])('%s', async (clause, end) => {
    // Act
    const extraction = await read('SERVICES AGREEMENT', ENGLISH, clause);

    // Assess
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe(end);
  });

  it('reads no end from a fiscal year\'s "ending" nor an extension without a date', async () => {
    // Act
    const extraction = await read(
      'SERVICES AGREEMENT',
      ENGLISH,
      'The Services are extended to include payroll, for the year beginning 1 April and ending on the next 31 March.',
    );

    // Assess
    expect(fieldOf(extraction, 'expirationDate')).toBeUndefined();
  });
});

describe('a Hungarian period labelled with its possessive ("A szerződés hatálya:")', () => {
  it('reads its start and end', async () => {
    // Act
    const extraction = await read(
      'VÁLLALKOZÁSI SZERZŐDÉS',
      [
        'Duna Logisztika Zrt. mint megrendelő (a továbbiakban: Megrendelő),',
        'Kovács és Társa Kft. mint vállalkozó (a továbbiakban: Vállalkozó)',
      ],
      '1. A szerződés hatálya: 2025. június 1-től 2026. május 31-ig.',
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-06-01');
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe('2026-05-31');
  });
});

describe('a term and a notice whose cue elides its last word ("durée d\'un an")', () => {
  const FRENCH = ['Prestataire : Ascenseurs Rhône-Alpes SAS', 'Client : Garage Dupont SARL'];
  const CATALAN = ['Prestador: Serveis Informàtics Vallès, S.L.', 'Client: Hotel Mar Blava, S.A.'];

  it.each([
    ["Le présent contrat prend effet le 1er avril 2025 pour une durée d'un an.", FRENCH, 12],
    ["Le contrat est conclu pour une durée d'une année.", FRENCH, 12],
    ["El contracte se subscriu per una durada d'un any.", CATALAN, 12],
  ])('reads the term from "%s"', async (clause, parties, months) => {
    // Act
    const extraction = await read('CONTRAT', parties, clause);

    // Assess
    expect(fieldOf(extraction, 'termMonths')?.value).toBe(months);
  });

  it.each([
    ["Il peut être résilié par lettre recommandée avec un préavis d'un mois.", FRENCH, 30],
    ["Qualsevol part el pot resoldre per escrit, preavís d'un mes.", CATALAN, 30],
  ])('reads the notice from "%s"', async (clause, parties, days) => {
    // Act
    const extraction = await read('CONTRAT', parties, clause);

    // Assess
    expect(fieldOf(extraction, 'terminationNoticeDays')?.value).toBe(days);
  });
});
