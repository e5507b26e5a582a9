import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Clauses as commercial contracts filed with the SEC word them: dated in the opening sentence, a
 * term the agreement "continues for", a notice period either party may end it with.
 */
const extractor = new HeuristicExtractor();
const OPENING =
  'This Supply Agreement is made by and between Cascade Components Corp., a Washington corporation ("Supplier"), and Helix Robotics, Inc., a Nevada corporation ("Buyer").';
const read = (...clauses: string[]) =>
  extractor.extract(
    pdfTextOf(['SUPPLY AGREEMENT', ...clauses, '9.4 Governing Law. The laws of Washington govern.']),
  );

describe('an opening sentence that dates the agreement', () => {
  it('reads "THIS … AGREEMENT (this "Agreement"), dated as of …" as the effective date', async () => {
    // Act
    const extraction = await read(
      'THIS SUPPLY AGREEMENT (this "Agreement"), dated as of January 15, 2020, is made by and between Cascade Components Corp., a Washington corporation ("Supplier"), and Helix Robotics, Inc., a Nevada corporation ("Buyer").',
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2020-01-15');
  });

  it('does not take the date of another agreement it names', async () => {
    // Act
    const extraction = await read(
      OPENING,
      'This Agreement takes effect on March 1, 2021. Orders are placed under the Master Purchase Agreement, dated as of June 1, 2018, between the parties.',
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2021-03-01');
  });
});

describe('an Effective Date defined apart from the date the agreement was entered into', () => {
  const ENTERED =
    'This Master Services Agreement is entered into as of June 12, 2025 by and between Cascade Components Corp. ("Supplier") and Helix Robotics, Inc. ("Buyer").';

  it('takes the defined "Effective Date", not the signing date, with no doubt between them', async () => {
    // Act
    const extraction = await read(
      ENTERED,
      '1. Term. This Agreement commences on July 1, 2025 (the "Effective Date") and continues for twenty-four (24) months.',
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-07-01');
    expect(fieldOf(extraction, 'effectiveDate')?.evidence?.some((e) => e.kind === 'conflict')).toBe(false);
  });

  it('keeps the doubt where the later date is a defined "Commencement Date", which may be the services\' start', async () => {
    // Act
    const extraction = await read(
      ENTERED,
      '1. Services. The Services start on July 1, 2025 (the "Commencement Date").',
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.evidence?.some((e) => e.kind === 'conflict')).toBe(true);
  });
});

describe('a term the agreement continues for', () => {
  it('reads "shall commence on the Effective Date and continue for thirty-six (36) months"', async () => {
    // Act
    const extraction = await read(
      OPENING,
      '1. Term. This Agreement shall commence on the Effective Date and continue for thirty-six (36) months, unless earlier terminated.',
    );

    // Assess
    expect(fieldOf(extraction, 'termMonths')?.value).toBe(36);
  });
});

describe('a term that names its start', () => {
  it.each([
    ['Term: Five (5) years commencing September 1, 2025.'],
    ['Term: Five (5) years commencing 1 September 2025.'],
  ])('reads the date after "commencing" as the effective date: "%s"', async (clause) => {
    // Act
    const extraction = await read(OPENING, clause);

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-09-01');
  });
});

describe('a term named by what it is the term of', () => {
  it.each([
    ['The lease term is thirty-six (36) months, commencing May 1, 2025.', 36],
    ['The rental term shall be twelve (12) months.', 12],
    ['The subscription term is 24 months from the Effective Date.', 24],
  ])('reads "%s" as %i months', async (clause, months) => {
    // Act
    const extraction = await read(OPENING, clause);

    // Assess
    expect(fieldOf(extraction, 'termMonths')?.value).toBe(months);
  });

  it('reads no term from the payment term ("The payment term is 30 days")', async () => {
    // Act
    const extraction = await read(OPENING, 'The payment term is 30 days.');

    // Assess
    expect(fieldOf(extraction, 'termMonths')).toBeUndefined();
  });
});

describe('a period of performance', () => {
  it('reads "Period of Performance: May 15, 2025 - November 14, 2025" as the start and end', async () => {
    // Act
    const extraction = await read(OPENING, 'Period of Performance: May 15, 2025 - November 14, 2025');

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-05-15');
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe('2025-11-14');
  });
});

describe("a term's end after its length", () => {
  it('reads "continues for … months, ending June 30, 2027" as the expiration date', async () => {
    // Act
    const extraction = await read(
      OPENING,
      '1. Term. This Agreement commences on July 1, 2025 and continues for a period of twenty-four (24) months, ending June 30, 2027.',
    );

    // Assess
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe('2027-06-30');
  });

  it('does not take the end of a fiscal year for it', async () => {
    // Act
    const extraction = await read(
      OPENING,
      '5. Reports. Supplier shall deliver audited statements for the fiscal year ending December 31, 2025.',
    );

    // Assess
    expect(fieldOf(extraction, 'expirationDate')).toBeUndefined();
  });
});

describe('a notice period either party may end the agreement with', () => {
  it('reads "terminated by either party upon thirty (30) days written notice"', async () => {
    // Act
    const extraction = await read(
      OPENING,
      '3. Term and Termination. This Agreement shall continue until terminated by either party upon thirty (30) days written notice.',
    );

    // Assess
    expect(fieldOf(extraction, 'terminationNoticeDays')?.value).toBe(30);
  });

  it('reads the notice to cancel it: "Either party may cancel this Agreement … by giving one hundred twenty (120) days\' written notice"', async () => {
    // Act
    const extraction = await read(
      OPENING,
      "8. Either party may cancel this Agreement at the end of the term by giving one hundred twenty (120) days' written notice.",
    );

    // Assess
    expect(fieldOf(extraction, 'terminationNoticeDays')?.value).toBe(120);
  });

  it.each([
    ["by giving not less than three months' written notice to the other", 90],
    ["on 3 months' prior written notice", 90],
    ["by giving four (4) weeks' notice", 28],
  ])(
    'reads a notice in weeks or months: "Either party may terminate this Agreement %s"',
    async (clause, days) => {
      // Act
      const extraction = await read(
        OPENING,
        `8. Termination. Either party may terminate this Agreement ${clause}.`,
      );

      // Assess
      expect(fieldOf(extraction, 'terminationNoticeDays')?.value).toBe(days);
    },
  );

  it.each([
    [
      "2.1 Thereafter it renews automatically for successive periods of 12 months unless either party gives not less than 90 days' written notice before the end of the then-current term.",
      90,
    ],
    [
      "2.1 This Agreement renews automatically for successive periods of 30 days unless either party gives 10 days' written notice of non-renewal.",
      10,
    ],
    [
      '2.1 The term renews automatically each year unless either party notifies the other in writing at least sixty (60) days before the renewal date.',
      60,
    ],
  ])('reads the notice that stops a renewal: "%s"', async (clause, days) => {
    // Act
    const extraction = await read(OPENING, clause);

    // Assess
    expect(fieldOf(extraction, 'terminationNoticeDays')?.value).toBe(days);
  });

  it('does not take a count of months that is not the notice for it', async () => {
    // Act
    const extraction = await read(
      OPENING,
      '8. Termination. Either party may terminate this Agreement within 12 months of the Effective Date by giving written notice.',
    );

    // Assess
    expect(fieldOf(extraction, 'terminationNoticeDays')).toBeUndefined();
  });

  it('does not take the days to cure a breach for it', async () => {
    // Act
    const extraction = await read(
      OPENING,
      '3. Termination. Either party may terminate this Agreement if the other party breaches it and fails to cure the breach within fifteen (15) days after written notice.',
    );

    // Assess
    expect(fieldOf(extraction, 'terminationNoticeDays')).toBeUndefined();
  });
});

describe('deeds, retainers and rates', () => {
  it('dates an Irish deed "made the 1st day of July 2025" and reads "continues for 24 months" and "in aggregate"', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'DATA SERVICES AGREEMENT',
        'THIS AGREEMENT is made the 1st day of July 2025',
        'BETWEEN Emerald Data Services Limited (the "Supplier") AND Wild Atlantic Tours DAC (the "Customer").',
        '1. Commencement. This Agreement commences on the date above and continues for 24 months.',
        '2. Charges. The Customer shall pay €800 per month, €19,200 in aggregate over the term.',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-07-01');
    expect(fieldOf(extraction, 'termMonths')?.value).toBe(24);
    expect(fieldOf(extraction, 'totalValue')).toMatchObject({ value: { amount: '19200', currency: 'EUR' } });
    expect(fieldOf(extraction, 'totalValue')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('reads a number in brackets after the title and an agency as the provider', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'MARKETING RETAINER AGREEMENT (No. MR-2025-09)',
        'This Marketing Retainer Agreement is entered into on June 1, 2025 between Redwood Outdoor Gear, Inc. ("Client") and Signal & Noise Marketing, LLC ("Agency").',
      ]),
    );

    // Assess
    expect(extraction.docType).toBe('contract');
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('MR-2025-09');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Signal & Noise Marketing, LLC');
  });

  it('takes a cap on the total compensation for the value, and not the hourly rate', async () => {
    // Act
    const extraction = await read(
      OPENING,
      '2. Compensation. Buyer shall pay Supplier at the rate of $200 per hour. Total compensation under this Agreement shall not exceed $50,000.',
    );

    // Assess
    expect(fieldOf(extraction, 'totalValue')).toMatchObject({ value: { amount: '50000', currency: 'USD' } });
    expect(fieldOf(extraction, 'totalValue')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });

  it('reads a lease whose rentals are counted: "36 monthly rentals of £1,200.00, total rentals £43,200.00"', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'EQUIPMENT LEASE AGREEMENT',
        'Lease No. EL-77120',
        'Lessor: Northern Asset Finance Ltd, 1 Wellington Street, Leeds LS1 4DL',
        'Lessee: Dales Dairy Farm Ltd, Hawes Road, Skipton BD23 5AA',
        'Rentals: 36 monthly rentals of £1,200.00 plus VAT, total rentals £43,200.00.',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'totalValue')).toMatchObject({
      value: { amount: '43200.00', currency: 'GBP' },
    });
    expect(fieldOf(extraction, 'totalValue')?.evidence?.map((e) => e.detail)).toContainEqual(
      expect.stringMatching(/^instalments: 36 x/),
    );
  });
});
