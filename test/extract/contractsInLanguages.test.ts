import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { findMoney } from '../../lambdas/extract/text/parseAmount.js';
import { findDates } from '../../lambdas/extract/text/parseDate.js';
import { parseDays, parseMonths } from '../../lambdas/extract/text/values.js';
import { CONTRACTS_IN_LANGUAGES } from './contractsInLanguages.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Contracts in the languages Docket has vocabularies for: recognised as contracts, and their
 * parties, dates, term, value and payment read from the same words a person reads them by.
 */
const extractor = new HeuristicExtractor();
const read = (lines: string[]) => extractor.extract(pdfTextOf(lines));

describe('contracts in five more languages', () => {
  it.each(CONTRACTS_IN_LANGUAGES)('reads $name', async ({ lines, expect: want }) => {
    // Act
    const extraction = await read(lines);

    // Assess
    expect(extraction.docType).toBe('contract');
    const got = Object.fromEntries(Object.keys(want).map((k) => [k, fieldOf(extraction, k)?.value]));
    expect(got).toEqual(want);
  });
});

describe('parties introduced in other languages', () => {
  it('leaves out "der Firma" and reads the roles after "im Folgenden"', async () => {
    // Act
    const extraction = await read([
      'Werkvertrag',
      'Zwischen der Firma Nordbau GmbH, Industriestraße 12, 28199 Bremen (im Folgenden „Auftraggeber“)',
      'und der Firma Elektro Krüger e.K., Am Deich 3, 28759 Bremen (im Folgenden „Auftragnehmer“)',
      'wird folgender Vertrag geschlossen. Die Vertragsparteien vereinbaren Folgendes.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Nordbau GmbH');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Elektro Krüger e.K.');
  });

  it('keeps an "und" inside a name', async () => {
    // Act
    const extraction = await read([
      'Liefervertrag',
      'zwischen Müller und Söhne GmbH, Ringstraße 4, 50667 Köln – nachfolgend „Lieferant“ genannt – und Bäckerei Hahn KG, Markt 1, 50667 Köln – nachfolgend „Käufer“ genannt –',
      'Die Vertragsparteien vereinbaren Folgendes.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Müller und Söhne GmbH');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Bäckerei Hahn KG');
  });

  it('does not take the tax number after ", y" for the party', async () => {
    // Act
    const extraction = await read([
      'CONTRATO DE SUMINISTRO',
      'REUNIDOS',
      'De una parte, la sociedad Frutas del Turia, S.L., con domicilio en Avenida del Puerto 22, Valencia, y CIF B-46000001 (en lo sucesivo, el "Proveedor").',
      'De otra parte, la sociedad Supermercados Mediterráneo, S.A., con CIF A-46000002 (en lo sucesivo, el "Comprador").',
      'Ambas partes acuerdan las siguientes cláusulas.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Frutas del Turia, S.L.');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Supermercados Mediterráneo, S.A.');
  });

  it('reads an Italian role with its article outside the quotes (l\'"Appaltatore")', async () => {
    // Act
    const extraction = await read([
      'CONTRATTO DI APPALTO DI SERVIZI',
      'tra',
      'la società Alfa Logistica S.p.A., con sede in Via Torino 45, Bologna (di seguito, il "Committente")',
      'e',
      'la ditta Beta Pulizie S.r.l., con sede in Via Emilia 3, Modena (di seguito, l\'"Appaltatore")',
      'si conviene e si stipula quanto segue.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Alfa Logistica S.p.A.');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Beta Pulizie S.r.l.');
  });

  it('does not read a role named in a later sentence as a defined party', async () => {
    // Act
    const extraction = await read([
      'SERVICES AGREEMENT',
      'The parties agree as follows.',
      'Acme Corp will perform the Services described hereinafter, and the Customer shall pay for them.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')).toBeUndefined();
  });
});

describe('parties as long documents and scans write them', () => {
  it('reads a party block of several lines: name, address, representative', async () => {
    // Act
    const extraction = await read([
      'Dienstleistungsvertrag',
      'zwischen',
      'Muster IT GmbH',
      'Hauptstraße 1, 10115 Berlin',
      'vertreten durch den Geschäftsführer Max Muster',
      '– nachfolgend „Auftragnehmer“ genannt –',
      'und',
      'Stadt Neustadt',
      'Rathausplatz 1, 67433 Neustadt',
      '– nachfolgend „Auftraggeber“ genannt –',
      'Die Vertragsparteien vereinbaren Folgendes.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Muster IT GmbH');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Stadt Neustadt');
  });

  it('reads a French party described at length, its legal form in words', async () => {
    // Act
    const extraction = await read([
      'CONTRAT DE PRESTATION DE SERVICES',
      'ENTRE LES SOUSSIGNÉS :',
      'ALPHA CONSEIL, société par actions simplifiée au capital de 50 000 €, dont le siège social est situé',
      '12 rue de la Paix, 75002 Paris, immatriculée au RCS de Paris sous le numéro 812 345 678,',
      'représentée par M. Jean Dupont, en sa qualité de Président,',
      'ci-après dénommée « le Prestataire »,',
      "D'UNE PART,",
      'ET',
      'BÊTA INDUSTRIE, société anonyme, 4 avenue Foch, 69006 Lyon, ci-après dénommée « le Client »,',
      "D'AUTRE PART, il a été convenu ce qui suit entre les parties.",
    ]);

    // Assess: the Dutch "en" of ", en sa qualité" separates no parties in a French contract.
    expect(fieldOf(extraction, 'provider')?.value).toBe('ALPHA CONSEIL');
    expect(fieldOf(extraction, 'customer')?.value).toBe('BÊTA INDUSTRIE');
  });

  it('reads a lease: landlord and tenant, and a contract number labelled with its kind', async () => {
    // Act
    const extraction = await read([
      'GEWERBEMIETVERTRAG',
      'Mietvertrags-Nr. GM-2024-031',
      'Zwischen',
      'Gewerbepark Süd GmbH & Co. KG, Industriering 7, 70565 Stuttgart',
      '- im Folgenden „Vermieter“ -',
      'und',
      'Feinmechanik Weber GmbH, Talstraße 18, 70563 Stuttgart',
      '- im Folgenden „Mieter“ -',
      'Das Mietverhältnis beginnt am 01.06.2024 und endet am 31.05.2029.',
    ]);

    // Assess
    expect(extraction.docType).toBe('contract');
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('GM-2024-031');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Gewerbepark Süd GmbH & Co. KG');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Feinmechanik Weber GmbH');
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe('2029-05-31');
  });

  it('reads cue words whose accents a scan got wrong ("ci-aprés", "representaciön")', async () => {
    // Act
    const extraction = await read([
      'CONTRATO DE PRESTACION DE SERVICIOS',
      'REUNIDOS',
      'De una parte, D. Luis Garcia Löpez, con DNI 12345678-Z, en nombre y',
      'representaciön de Soluciones Norte, S.L., con CIF B-12345678 (en adelante, "el Proveedor").',
      'Y de otra parte, Comercial Levante, S.A. (en adelante, "el Cliente").',
      'PRIMERA. El presente contrato entrarä en vigor el 1 de marzo de 2024.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Soluciones Norte, S.L.');
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2024-03-01');
  });

  it('takes the company that starts a line over the person before it when the scan garbled "on behalf of"', async () => {
    // Act
    const extraction = await read([
      'CONTRATO DE SUMINISTRO',
      'REUNIDOS',
      'De una parte, Soluciones Norte, S.L. (en adelante, "el Proveedor").',
      'Y de otra parte, Dfia. Ana Ruiz Martin, con DNI 87654321-X, en nombre y representacién de',
      'Comercial Levante, S.A., con CIF A-87654321 y domicilio en Avenida del Puerto 5, Valencia',
      '(en adelante, "el Cliente").',
      'Ambas partes acuerdan las siguientes cláusulas.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Comercial Levante, S.A.');
  });

  it('does not take a legal form that wrapped onto its own line for a name', async () => {
    // Act
    const extraction = await read([
      'SERVICES AGREEMENT',
      'This Agreement is entered into by and between Wayne Hospitality Group',
      'LLC, with offices at 1007 Mountain Drive, Gotham (the "Client"), and Fuji Mobility Systems K.K. (the "Service Provider").',
      'The parties agree as follows.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Wayne Hospitality Group LLC');
  });
});

describe('the law and the signing', () => {
  const contract = (...clauses: string[]) =>
    read(['Dienstleistungsvertrag', 'Die Vertragsparteien vereinbaren Folgendes.', ...clauses]);

  it.each([
    ['Es gilt deutsches Recht unter Ausschluss des UN-Kaufrechts.', 'Germany'],
    ['Es gilt das Recht der Bundesrepublik Deutschland.', 'Germany'],
    ['Le présent contrat est soumis au droit français.', 'France'],
    ['Op deze overeenkomst is Nederlands recht van toepassing.', 'Netherlands'],
    ['El presente contrato se rige por la legislación española.', 'Spain'],
    ['Il presente contratto è regolato dalla legge italiana.', 'Italy'],
    ['This Agreement is governed by English law.', 'England and Wales'],
  ])('reads "%s" as the law of %s', async (clause, jurisdiction) => {
    // Act
    const extraction = await contract(clause);

    // Assess
    expect(fieldOf(extraction, 'governingLaw')?.value).toBe(jurisdiction);
  });

  it.each([
    ['Fait à Paris, le 20 avril 2024, en deux exemplaires originaux.', '2024-04-20'],
    ['Aldus overeengekomen en ondertekend te Utrecht op 28 mei 2024.', '2024-05-28'],
    ['En Madrid, a 10 de febrero de 2024', '2024-02-10'],
    ['Berlin, den 15.03.2024', '2024-03-15'],
    ['Milano, 25 marzo 2024', '2024-03-25'],
  ])('reads where and when "%s" was signed', async (line, date) => {
    // Act
    const extraction = await contract(line);

    // Assess: one place and date is one reading, which nothing else confirms.
    expect(fieldOf(extraction, 'signedDate')?.value).toBe(date);
    expect(fieldOf(extraction, 'signedDate')?.confidence).toBeLessThan(0.8);
  });
});

describe('what contracts are not', () => {
  it.each([
    [
      'a German invoice that names the contract it bills under',
      [
        'Rechnung Nr. 2024-0412',
        'Datum: 30.04.2024',
        'Gemäß Dienstleistungsvertrag DV-2024-118 zwischen Ihnen und uns berechnen wir:',
        'IT-Support April 2024   2.000,00 €',
        'Nettobetrag   2.000,00 €',
        'zzgl. 19 % USt.   380,00 €',
        'Rechnungsbetrag   2.380,00 €',
      ],
    ],
    [
      'a French invoice with a "Contrat de maintenance n°" line',
      [
        'FACTURE',
        'N° F-2024-311',
        'Contrat de maintenance n° MNT-24-0193',
        'Client : Clinique Saint-Roch SAS',
        'Total HT   775,00 €',
        'TVA 20 %   155,00 €',
        'Total TTC   930,00 €',
      ],
    ],
  ])('%s stays an invoice', async (_name, lines) => {
    // Act
    const extraction = await read(lines);

    // Assess
    expect(extraction.docType).toBe('invoice');
  });
});

describe('clauses in other languages', () => {
  it('reads "verlängert sich nicht" as no automatic renewal', async () => {
    // Act
    const extraction = await read([
      'Wartungsvertrag',
      'Die Vertragsparteien vereinbaren Folgendes.',
      'Der Vertrag endet am 31.12.2025. Er verlängert sich nicht automatisch.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'autoRenewal')?.value).toBe(false);
  });

  it.each([
    ['Der Vertrag kann mit einer Frist von 3 Monaten zum Monatsende gekündigt werden.', 90],
    ['Chacune des parties peut résilier le contrat moyennant un préavis de 60 jours.', 60],
    ['De overeenkomst kan worden opgezegd met een opzegtermijn van 2 maanden.', 60],
    ['Il Cliente può recedere dal contratto con un preavviso di 30 giorni.', 30],
  ])('reads the notice to end the contract in "%s" as %i days', async (clause, days) => {
    // Act
    const extraction = await read(['Wartungsvertrag', 'Die Vertragsparteien vereinbaren Folgendes.', clause]);

    // Assess
    expect(fieldOf(extraction, 'terminationNoticeDays')?.value).toBe(days);
  });

  it('does not take a deadline of a sentence about something else for the notice', async () => {
    // Act
    const extraction = await read([
      'Wartungsvertrag',
      'Die Vertragsparteien vereinbaren Folgendes.',
      'Mängel sind mit einer Frist von 14 Tagen zu beseitigen.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'terminationNoticeDays')).toBeUndefined();
  });

  it.each([
    ['24 Monate', 24],
    ['douze (12) mois', 12],
    ['18 maanden', 18],
    ['2 Jahre', 24],
    ['3 anni', 36],
    ['drei Monate', 3],
    ['vierundzwanzig Monate', 24],
    ['dodici mesi', 12],
    ['twenty-four (24) months', 24],
  ])('reads the term "%s" as %i months', (text, months) => {
    expect(parseMonths(text)?.value).toBe(months);
  });

  it.each([
    ['90 Tage', 90],
    ['trois (3) mois', 90],
    ['4 weken', 28],
    ['30 días', 30],
    ['trois mois', 90],
    ['zwölf (12) Wochen', 84],
  ])('reads the notice "%s" as %i days', (text, days) => {
    expect(parseDays(text)?.value).toBe(days);
  });

  it('does not read a duration in years as a number of days', () => {
    expect(parseDays('2 Jahre')).toBeUndefined();
  });

  it('reads the euro written as a word', () => {
    expect(findMoney('asciende a 45.600,00 euros, IVA excluido', [])[0]).toMatchObject({
      amount: '45600.00',
      currency: 'EUR',
    });
    expect(findMoney('Festpreis 1.190,00 Euro', [])[0]?.currency).toBe('EUR');
  });

  it('reads the Italian ordinal first of the month ("1° aprile 2024")', () => {
    expect(findDates('decorre dal 1° aprile 2024', 'dmy')[0]?.iso).toBe('2024-04-01');
  });
});
