import { describe, expect, it } from 'vitest';
import { providerLookupFrom } from '../../lambdas/shared/documents/index.js';
import {
  PRIORITY_WEIGHTS,
  priorityFactors,
  reviewPriority,
  validateDocument,
} from '../../lambdas/validate/index.js';
import { field, invoiceExtraction, PROVIDERS } from './extractions.js';

const now = new Date('2025-03-01T00:00:00Z');
const priorityOf = async (extraction: ReturnType<typeof invoiceExtraction>) =>
  (await validateDocument(extraction, { lookupProvider: providerLookupFrom(PROVIDERS), now })).priority;

describe('review priority', () => {
  it('weighs the four factors of seed 002 to a 0-100 scale', () => {
    // Act
    const max = reviewPriority({ confidence: 1, deadline: 1, value: 1, pages: 1 });
    const min = reviewPriority({ confidence: 0, deadline: 0, value: 0, pages: 0 });

    // Assess
    expect(Object.values(PRIORITY_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
    expect(max).toBe(100);
    expect(min).toBe(0);
  });

  it('puts the less confident document first, all else equal', async () => {
    // Act
    const sure = await priorityOf(invoiceExtraction());
    const unsure = await priorityOf(invoiceExtraction({ invoiceNumber: field('INV-1', 0.4) }));

    // Assess
    expect(unsure).toBeGreaterThan(sure);
  });

  it('puts the document due sooner first; overdue counts as due now', async () => {
    // Act
    const later = await priorityOf(invoiceExtraction({ dueDate: field('2025-05-30') }));
    const soon = await priorityOf(invoiceExtraction({ dueDate: field('2025-03-04') }));
    const overdue = await priorityOf(
      invoiceExtraction({ invoiceDate: field('2025-01-02'), dueDate: field('2025-02-01') }),
    );

    // Assess
    expect(soon).toBeGreaterThan(later);
    expect(overdue).toBeGreaterThan(soon);
  });

  it('puts the higher-value and the longer document first', async () => {
    // Prepare
    const big = {
      subtotal: field('500000.00'),
      tax: field('100000.00'),
      total: field('600000.00'),
      lineItems: undefined,
    };

    // Act
    const small = await priorityOf(invoiceExtraction({ lineItems: undefined }));
    const valuable = await priorityOf(invoiceExtraction(big));
    const long = await priorityOf(invoiceExtraction({ lineItems: undefined }, 18));

    // Assess
    expect(valuable).toBeGreaterThan(small);
    expect(long).toBeGreaterThan(small);
  });

  it('reports each factor between 0 and 1', () => {
    // Act
    const factors = priorityFactors(invoiceExtraction(), 50, 40, now);

    // Assess
    expect(factors.confidence).toBe(0.5);
    expect(factors.pages).toBe(1);
    expect(factors.value).toBe(0);
    expect(factors.deadline).toBe(0);
  });
});
