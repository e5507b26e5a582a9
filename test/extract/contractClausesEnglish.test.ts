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
