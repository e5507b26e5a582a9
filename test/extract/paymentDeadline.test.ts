import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A sentence that asks for payment by a date states the due date without a label: "Bitte
 * überweisen Sie den Betrag bis zum 27.05.2024". A date in a sentence about anything else, or
 * after no deadline word, is not.
 */
const extractor = new HeuristicExtractor();
const dueOf = async (head: readonly string[], sentence: string) =>
  fieldOf(await extractor.extract(pdfTextOf([...head, sentence])), 'dueDate');

const GERMAN = [
  'Fotostudio Lichtblick',
  'Rechnung',
  'Rechnungsnummer: 2024-058',
  'Rechnungsdatum: 13.05.2024',
  'Gesamtbetrag                     1.480,00 €',
];
const ENGLISH = [
  'Harbour Supplies Ltd',
  'Invoice No. 4711',
  'Invoice date: 06/05/2024',
  'Total             £120.00',
];
const FRENCH = ['Atelier Roux SARL', 'Facture N° 2024-031', 'Date : 02/05/2024', 'Total TTC     960,00 €'];
const DUTCH = ['Installatiebedrijf Vos B.V.', 'Factuur', 'Factuurnummer  2025-3318', 'Totaal  2.734,60 €'];
const ITALIAN = ['Studio Bianchi S.r.l.', 'Fattura n. 14/2024', 'Data: 22/05/2024', 'Totale    1.268,80 €'];

describe('a sentence that asks for payment by a date', () => {
  it.each([
    [
      'German',
      GERMAN,
      'Bitte überweisen Sie den Betrag bis zum 27.05.2024 auf das unten genannte Konto.',
      '2024-05-27',
    ],
    [
      'German, "spätestens"',
      GERMAN,
      'Wir bitten Sie, den Betrag spätestens am 31.05.2024 zu begleichen.',
      '2024-05-31',
    ],
    ['English', ENGLISH, 'Please settle this invoice no later than 20 May 2024.', '2024-05-20'],
    ['French', FRENCH, 'Merci de régler cette facture avant le 01/06/2024.', '2024-06-01'],
    [
      'French, a term and its date ("soit le")',
      FRENCH,
      'Payable à 30 jours, soit le 01.06.2024.',
      '2024-06-01',
    ],
    [
      'German, a term and its date after "d.h." (Swiss)',
      GERMAN,
      'Zahlbar innert 30 Tagen, d.h. bis 3.7.2024, rein netto.',
      '2024-07-03',
    ],
    ['Italian', ITALIAN, 'Si prega di effettuare il pagamento entro il 21/06/2024.', '2024-06-21'],
    [
      'German, "fällig am" after the terms',
      GERMAN,
      'Zahlungsziel: 14 Tage, fällig am 27.05.2024',
      '2024-05-27',
    ],
  ])('gives the due date in %s, under the doubt floor', async (_language, head, sentence, due) => {
    // Act
    const dueDate = await dueOf(head, sentence);

    // Assess
    expect(dueDate?.value).toBe(due);
    expect(dueDate?.confidence).toBeLessThan(0.8);
  });

  it.each([
    ['no payment word', GERMAN, 'Die Lieferung erfolgt bis zum 27.05.2024.'],
    [
      'a clause of something else after terms',
      GERMAN,
      'Zahlbar innerhalb 14 Tagen, Lieferung bis zum 27.05.2024.',
    ],
    [
      'no deadline word before the date',
      GERMAN,
      'Bitte überweisen Sie den Betrag, Leistungsdatum 04.05.2024.',
    ],
    ['a discount offered in the clause', GERMAN, 'Bei Zahlung bis zum 20.05.2024 gewähren wir 2 % Skonto.'],
    ['a payment received', ENGLISH, 'Payment received with thanks on 02/05/2024.'],
  ])('gives none with %s', async (_case, head, sentence) => {
    // Act
    const dueDate = await dueOf(head, sentence);

    // Assess
    expect(dueDate).toBeUndefined();
  });
});

describe('payment terms whose discount is offered across lines', () => {
  it('take the date of the clause that says "in full", not the discount deadline', async () => {
    // Act
    const split = await extractor.extract(
      pdfTextOf([
        ...GERMAN,
        'Zahlbar innerhalb 10 Tagen bis 15.06.2018 mit 3%',
        'Skonto, netto bis 04.07.2018',
      ]),
    );
    const netFirst = await extractor.extract(
      pdfTextOf([
        ...GERMAN,
        'Zahlbar innerhalb 30 Tagen netto bis 04.07.2018, 3%',
        'Skonto innerhalb 10 Tagen bis 15.06.2018',
      ]),
    );

    // Assess: no due date rather than the discount's; the net date where a clause says "netto"
    expect(fieldOf(split, 'dueDate')?.value).not.toBe('2018-06-15');
    expect(fieldOf(netFirst, 'dueDate')?.value).toBe('2018-07-04');
  });
});

describe('a due-date label followed by a count of days, not a date', () => {
  it.each([
    ['English, in a sentence', ENGLISH, 'Payment due within 30 days. Thank you for your business!', 'Net 30'],
    ['English, "Due in"', ENGLISH, 'Due in 14 days', 'Net 14'],
    ['English, days from the invoice date', ENGLISH, 'Payment due: 45 days from date of invoice', 'Net 45'],
    ['German, "Fälligkeit"', GERMAN, 'Fälligkeit: 10 Tage nach Rechnungseingang', 'Net 10'],
    ['English, on receipt', ENGLISH, 'Payment due upon receipt', 'Due on receipt'],
  ])('states the payment terms (%s)', async (_, head, line, terms) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf([...head, line]));

    // Assess
    expect(fieldOf(extraction, 'paymentTerms')?.value).toBe(terms);
    expect(fieldOf(extraction, 'dueDate')).toBeUndefined();
  });

  it('states none where the label is followed by a date', async () => {
    // Act
    const extraction = await extractor.extract(pdfTextOf([...ENGLISH, 'Payment due: 06/06/2024']));

    // Assess
    expect(fieldOf(extraction, 'paymentTerms')).toBeUndefined();
    expect(fieldOf(extraction, 'dueDate')?.value).toBe('2024-06-06');
  });
});

describe('a sentence that states the payment terms', () => {
  it.each([
    ['English, "Please pay within"', ENGLISH, 'Please pay within 30 days.', 'Net 30'],
    ['English, "payable within"', ENGLISH, 'Invoices are payable within 30 days of receipt.', 'Net 30'],
    [
      'German, "überweisen … innerhalb von"',
      GERMAN,
      'Bitte überweisen Sie den Betrag innerhalb von 14 Tagen auf unser Konto.',
      'Net 14',
    ],
    ['French, "Délai de paiement"', FRENCH, 'Délai de paiement : 30 jours', 'Net 30'],
    [
      'Dutch, the verb last: "binnen 14 dagen over te maken"',
      DUTCH,
      'Wij verzoeken u het bedrag binnen 14 dagen over te maken op IBAN NL91 ABNA 0417 1643 00',
      'Net 14',
    ],
    [
      'Dutch, "binnen 30 dagen te betalen"',
      DUTCH,
      'Het totaalbedrag is binnen 30 dagen te betalen.',
      'Net 30',
    ],
    [
      'German, the verb last: "zu zahlen"',
      GERMAN,
      'Der Betrag ist innerhalb von 14 Tagen zu zahlen.',
      'Net 14',
    ],
  ])('is read (%s)', async (_, head, line, terms) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf([...head, line]));

    // Assess
    expect(fieldOf(extraction, 'paymentTerms')?.value).toBe(terms);
  });

  it.each([
    ["a cash discount's days", GERMAN, 'Bei Zahlung innerhalb von 10 Tagen gewähren wir 2 % Skonto.'],
    ['days of another sentence', ENGLISH, 'Payment by bank transfer. Delivery within 3 days.'],
    [
      'days too far from the payment word',
      ENGLISH,
      'Please pay attention: returns are accepted within 14 days.',
    ],
    ['days counted from the payment', ENGLISH, 'Returns are accepted within 14 days of payment.'],
  ])('is not read from %s', async (_, head, line) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf([...head, line]));

    // Assess
    expect(fieldOf(extraction, 'paymentTerms')).toBeUndefined();
  });
});

describe('a date label inside a sentence of payment terms', () => {
  it('names the day the terms count from, and contradicts no invoice date', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Harbour Supplies Ltd',
        'INVOICE',
        'Invoice No: 4711',
        'Invoice date: 20 May 2025',
        'Total             £120.00',
        'Payment due within 30 days of invoice date: 19 June 2025',
      ]),
    );

    // Assess
    const invoiceDate = fieldOf(extraction, 'invoiceDate');
    expect(invoiceDate?.value).toBe('2025-05-20');
    expect(invoiceDate?.evidence?.some((e) => e.kind === 'conflict')).toBe(false);
  });

  it('is followed by the day the terms end on, the due date', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([...ENGLISH, 'Payment due within 30 days of invoice date: 5 June 2024']),
    );

    // Assess
    expect(fieldOf(extraction, 'dueDate')?.value).toBe('2024-06-05');
  });
});
