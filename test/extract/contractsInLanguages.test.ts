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

describe('contracts in twenty-three more languages', () => {
  it.each(CONTRACTS_IN_LANGUAGES)('reads $name', async ({ lines, expect: want }) => {
    // Act
    const extraction = await read(lines);

    // Assess
    expect(extraction.docType).toBe('contract');
    const got = Object.fromEntries(Object.keys(want).map((k) => [k, fieldOf(extraction, k)?.value]));
    expect(got).toEqual(want);
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
    ['Sopimukseen sovelletaan Suomen lakia.', 'Finland'],
    ['Lepingule kohaldatakse Eesti Vabariigi õigust.', 'Estonia'],
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
    ['Tallinnas, 10. veebruaril 2024', '2024-02-10'],
    ['Helsingissä, 12. kesäkuuta 2024', '2024-06-12'],
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
    [
      'an English invoice with a "Contract No. 7" line',
      [
        'Harbor Office Ltd',
        'Contract No. 7',
        'INVOICE 2024-118',
        'Date: 30/04/2024',
        'Subtotal   £500.00',
        'VAT 20%   £100.00',
        'Total   £600.00',
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
  it('reads an Italian public contract\'s "Rep. n." as its number', async () => {
    // Act
    const extraction = await read([
      'CONTRATTO DI ASSISTENZA TECNICA',
      'Rep. n. 118/2025',
      'TRA',
      'Comune di Treviso, con sede in Via Municipio 16, 31100 Treviso (di seguito "il Committente")',
      'E',
      'Informatica Veneta S.r.l., con sede legale in Viale della Repubblica 5, 31100 Treviso (di seguito "il Fornitore")',
      'SI CONVIENE E SI STIPULA QUANTO SEGUE',
    ]);

    // Assess
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('118/2025');
  });

  it('reads "se prorrogará tácitamente" as an automatic renewal', async () => {
    // Act
    const extraction = await read([
      'Contrato de mantenimiento',
      'Las partes acuerdan lo siguiente.',
      'El contrato se prorrogará tácitamente por periodos anuales salvo denuncia de cualquiera de las partes.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'autoRenewal')?.value).toBe(true);
  });

  it.each([
    [
      'Es verlängert sich um jeweils ein Jahr, wenn es nicht mit einer Frist von sechs Monaten gekündigt wird.',
      true,
    ],
    ['O contrato vigora pelo prazo de 24 meses, não sendo renovável.', false],
    ['O contrato não é renovável.', false],
  ])('reads whether "%s" renews by itself', async (clause, renews) => {
    // Act
    const extraction = await read(['Contrato de manutenção', 'Os outorgantes acordam o seguinte.', clause]);

    // Assess
    expect(fieldOf(extraction, 'autoRenewal')?.value).toBe(renews);
  });

  it.each([
    ['Das Mietverhältnis wird auf die Dauer von fünf Jahren fest abgeschlossen.', 60],
    ['Subscription Term: 12 months from the Order Effective Date', 12],
    ['Lease Term: 36 months', 36],
  ])('reads the term in "%s" as %i months', async (clause, months) => {
    // Act
    const extraction = await read([
      'Gewerbemietvertrag',
      'Die Vertragsparteien vereinbaren Folgendes.',
      clause,
    ]);

    // Assess
    expect(fieldOf(extraction, 'termMonths')?.value).toBe(months);
  });

  it('reads a Portuguese public contract: its "Contraente" and "entra em vigor no dia"', async () => {
    // Act
    const extraction = await read([
      'CONTRATO DE PRESTAÇÃO DE SERVIÇOS N.º 27/2025',
      'Entre:',
      'PRIMEIRO OUTORGANTE: Lusotec Sistemas, Lda., pessoa coletiva n.º 509123456, com sede na Rua Augusta 100, 1100-053 Lisboa, adiante designada por "Prestador";',
      'SEGUNDO OUTORGANTE: Câmara Municipal de Sintra, pessoa coletiva n.º 501294996, com sede no Largo Dr. Virgílio Horta, 2714-501 Sintra, adiante designada por "Contraente";',
      'O contrato entra em vigor no dia 1 de julho de 2025.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Lusotec Sistemas, Lda.');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Câmara Municipal de Sintra');
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-07-01');
  });

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
    ['Kumpikin osapuoli voi irtisanoa sopimuksen, jolloin irtisanomisaika on kaksi (2) kuukautta.', 60],
    ['Kumbki pool võib lepingu üles öelda, teatades sellest ette vähemalt 30 päeva.', 30],
    ['Każda ze stron może rozwiązać umowę z zachowaniem 30-dniowego okresu wypowiedzenia.', 30],
    ['Każda ze stron może wypowiedzieć umowę z zachowaniem 3-miesięcznego okresu wypowiedzenia.', 90],
    ['Avtalet förlängs om det inte sägs upp senast tre månader före avtalstidens utgång.', 90],
    ['Aftalen forlænges, medmindre den opsiges senest 3 måneder før udløb.', 90],
    ['Avtalen forlenges med mindre den sies opp senest 3 måneder før utløp.', 90],
    ['Ciascuna parte può recedere con preavviso scritto di 60 giorni.', 60],
    ['Avtalet kan sägas upp med 90 dagars uppsägningstid.', 90],
    ['Aftalen kan opsiges med 3 måneders opsigelsesvarsel.', 90],
    ['Avtalen kan sies opp med 3 måneders varsel.', 90],
    ['Aftalen kan opsiges med 3 måneders varsel.', 90],
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
    ['24 kuukautta', 24],
    ['kaksi (2) vuotta', 24],
    ['12 kuuks', 12],
    ['kolm aastat', 36],
    ['12-month', 12],
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
    ['kolme (3) kuukautta', 90],
    ['neli nädalat', 28],
    ['30-day', 30],
    ['3-month', 90],
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
