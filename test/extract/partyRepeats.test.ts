import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A party's name printed again elsewhere (a footer, a signature) corroborates the reading; a
 * name of one word found inside another line's words is only that word used again.
 */
const extractor = new HeuristicExtractor();

describe('a name of one word printed again', () => {
  it('is no agreement when the word stands inside an item description', async () => {
    // Act: "Vessel" beside the label heads a block of its own; the item says "the vessel"
    const extraction = await extractor.extract(
      pdfTextOf([
        'Harbour Works Ltd',
        '12 Quay Street, Valletta',
        'INVOICE',
        'Invoice number   HW-88          Invoice date 02/06/2025',
        'Invoice to:      Vessel',
        '                 Azure Charter Yachts Limited',
        "                 Ta' Xbiex Seafront",
        'Description                                   Net EUR',
        'Haul-out and relaunch of the vessel            680.00',
        'Total                                          680.00',
      ]),
    );

    // Assess: the repeat had lifted the reading to 0.93
    const customer = fieldOf(extraction, 'customer');
    expect(customer?.evidence?.map((e) => e.kind) ?? []).not.toContain('agreement');
  });

  it('is an agreement when the name is a cell of its own (a guard)', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Invoice 7',
        'Bill to:   Brightwave',
        'Consulting, May 2025                  1,000.00',
        'Total                                 1,000.00',
        'Thank you!                            Brightwave',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Brightwave');
    expect(fieldOf(extraction, 'customer')?.evidence?.map((e) => e.kind)).toContain('agreement');
  });
});
