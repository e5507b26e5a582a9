import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A contract's price clause often states a rate and the whole: "£7,000 per month, being £84,000
 * in total". The amount a total word stands beside is the contract's value; with no such word, or
 * two, the sentence does not say which.
 */
const extractor = new HeuristicExtractor();
const contractValueOf = async (opening: readonly string[], clause: string) =>
  fieldOf(await extractor.extract(pdfTextOf([...opening, clause])), 'totalValue')?.value;

const ENGLISH = [
  'CONSULTANCY AGREEMENT',
  'Agreement reference: BWC/HR/2024/07',
  'THIS AGREEMENT is dated 3 June 2024 between Brightwater Consulting Limited (the "Consultant") and Halcyon Retail plc (the "Client").',
];
const GERMAN = [
  'Wartungsvertrag Nr. WV-2024-0311',
  'zwischen Wohnungsbaugenossenschaft Lindenhof eG – im Folgenden „Auftraggeber“ – und Aufzugstechnik Reuter GmbH – im Folgenden „Auftragnehmer“ –',
  'Der Vertrag beginnt am 01.07.2024.',
];

describe('a price clause with several amounts', () => {
  it.each([
    [
      'English, total after',
      ENGLISH,
      '2. Fees. The Client shall pay the Consultant a fee of £7,000 per month, being £84,000 in total, exclusive of VAT.',
      { amount: '84000', currency: 'GBP' },
    ],
    [
      'German, total before',
      GERMAN,
      '§ 3 Vergütung: Die jährliche Wartungspauschale beträgt 4.800,00 € netto, für die Vertragsdauer insgesamt 9.600,00 € netto.',
      { amount: '9600.00', currency: 'EUR' },
    ],
  ])('gives the amount marked as the total (%s)', async (_case, opening, clause, value) => {
    // Act
    const totalValue = await contractValueOf(opening, clause);

    // Assess
    expect(totalValue).toEqual(value);
  });

  it('gives none when no amount is marked as the total', async () => {
    // Act
    const totalValue = await contractValueOf(
      ENGLISH,
      '2. Fees. The Client shall pay the Consultant a fee of £7,000 per month and £500 per day of travel.',
    );

    // Assess
    expect(totalValue).toBeUndefined();
  });
});

describe('a fee for a period', () => {
  it.each([
    [
      'a monthly fee, the term twelve months',
      ENGLISH,
      '1. Term. This Agreement continues for a period of twelve (12) months. 2. Fees. The Client shall pay the Consultant a fee of £7,000 per month, exclusive of VAT.',
    ],
    [
      "a month's rent, the term five years",
      GERMAN,
      '§ 2 Mietzeit: Das Mietverhältnis wird auf die Dauer von fünf Jahren fest abgeschlossen. § 3 Miete: Die monatliche Nettokaltmiete beträgt 2.400,00 EUR zzgl. Umsatzsteuer.',
    ],
    [
      'a monthly fee, no term',
      ENGLISH,
      '2. Fees. The Client shall pay the Consultant a fee of £7,000 per month.',
    ],
  ])('is not the total: %s', async (_case, opening, clause) => {
    // Act
    const totalValue = await contractValueOf(opening, clause);

    // Assess
    expect(totalValue).toBeUndefined();
  });

  it('is the total where the term is that one period (an annual fee for twelve months)', async () => {
    // Act
    const totalValue = await contractValueOf(
      ENGLISH,
      '1. Term. This Agreement continues for a period of twelve (12) months. 2. Fees. The Client shall pay an annual subscription fee of $36,000.00.',
    );

    // Assess
    expect(totalValue).toEqual({ amount: '36000.00', currency: 'USD' });
  });
});

describe('an order form', () => {
  it('reads its subscription dates and its number', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'ORDER FORM',
        'Order Form Number: OF-2024-0193',
        'This Order Form is entered into by and between Nimbus Analytics, Inc. ("Nimbus") and the customer named below ("Customer").',
        'Subscription Start Date: June 1, 2024',
        'Subscription End Date: May 31, 2025',
        'Total Fees: USD 36,000.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('OF-2024-0193');
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2024-06-01');
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe('2025-05-31');
  });

  it.each([
    ['Total Contract Value (3 years)        USD 129,600.00', { amount: '129600.00', currency: 'USD' }],
    ['Contract value (excl. VAT): EUR 48,000.00', { amount: '48000.00', currency: 'EUR' }],
    ['Contract value (GBP): 84,000.00', { amount: '84000.00', currency: 'GBP' }],
  ])('reads "%s" past the words in brackets that qualify its label', async (line, value) => {
    // Act
    const totalValue = await contractValueOf(ENGLISH, line);

    // Assess
    expect(totalValue).toEqual(value);
  });
});

describe('a form of numbered clauses', () => {
  it('reads the dates and term its labels follow their numbers with', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'STATEMENT OF WORK NO. SOW-007',
        'This Statement of Work is issued under the Master Services Agreement between Bluefin Data Labs LLC ("Provider") and Meridian Health Partners, Inc. ("Client").',
        '1. Project Start Date: July 7, 2025',
        '2. Project End Date: December 19, 2025',
        '2.1 Term: 6 months',
        '3. Fees. The total fixed fee for this SOW is $180,000.00.',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-07-07');
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe('2025-12-19');
    expect(fieldOf(extraction, 'termMonths')?.value).toBe(6);
  });
});

describe('an equipment lease', () => {
  it('reads its commencement and its total of payments', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'EQUIPMENT LEASE AGREEMENT',
        'Lease No.: EL-2025-3390',
        'Lessor: Summit Equipment Finance LLC, 2200 Pine Ave, Denver, CO 80202',
        'Lessee: Red Rock Excavation Inc., 45 Quarry Rd, Golden, CO 80401',
        'Lease Commencement Date: June 15, 2025',
        'Lease Term: 36 months',
        'Monthly Payment: $1,200.00',
        'Total of Payments: $43,200.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-06-15');
    expect(fieldOf(extraction, 'totalValue')?.value).toEqual({ amount: '43200.00', currency: 'USD' });
  });
});

describe("a cap on a day rate's fees", () => {
  it('is the contract\'s value: "£1,200 per day, up to a maximum of £90,000"', async () => {
    // Act
    const value = await contractValueOf(
      ENGLISH,
      'Fees: £1,200 per day, up to a maximum of £90,000 for the engagement.',
    );

    // Assess
    expect(value).toEqual({ amount: '90000', currency: 'GBP' });
  });

  it('is not a cap on liability', async () => {
    // Act
    const value = await contractValueOf(
      ENGLISH,
      "The Consultant's liability shall not exceed a maximum of £1,000,000 in aggregate.",
    );

    // Assess
    expect(value).toBeUndefined();
  });
});

describe('an amount the contract defines', () => {
  it.each([
    [
      'Lender agrees to lend to Borrower the principal amount of Two Hundred Fifty Thousand Dollars ($250,000.00) (the "Loan").',
      { amount: '250000.00', currency: 'USD' },
    ],
    [
      'Buyer shall acquire the Shares from Seller for EUR 480,000.00 (the "Purchase Price").',
      { amount: '480000.00', currency: 'EUR' },
    ],
  ])('reads the loan or the price it defines as its value (%#)', async (clause, value) => {
    // Act
    const totalValue = await contractValueOf(ENGLISH, clause);

    // Assess
    expect(totalValue).toEqual(value);
  });
});
