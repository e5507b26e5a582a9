import {
  type ContractExtraction,
  type Evidence,
  type InvoiceExtraction,
  type Provider,
  providerLookupFrom,
} from '../../lambdas/shared/documents/index.js';
import type { ReviewReasonCode } from '../../lambdas/validate/index.js';
import { transition } from '../../statemachine/index.js';

/**
 * An extracted field. A field the fixture calls sure (0.8 or more) was read next to a label and
 * printed again elsewhere (corroborated, as a real extraction records it); a less sure one has
 * only its reading, so its confidence stays what it says.
 */
const field = <V>(value: V, confidence = 0.95, evidence?: Evidence[]) => ({
  value,
  confidence,
  source: { page: 1, line: 1, text: String(typeof value === 'object' ? JSON.stringify(value) : value) },
  evidence: evidence ?? [
    { kind: 'label' as const, weight: confidence, detail: 'label at p1 l1' },
    ...(confidence >= 0.8
      ? [{ kind: 'agreement' as const, weight: 0.7, detail: 'also printed at p1 l9' }]
      : []),
  ],
});

/** A field read once, next to its label, with nothing else to check it. */
const bareField = <V>(value: V, confidence = 0.95) =>
  field(value, confidence, [{ kind: 'label', weight: confidence, detail: 'label at p1 l1' }]);

/** Known counterparties for the lookups of these tests. */
export const PROVIDERS: Provider[] = [
  { id: 'p1', name: 'Acme Logistics Inc' },
  { id: 'p2', name: 'Brightline Software LLC', taxId: '12-3456789', ibans: ['DE88200800000970375700'] },
  { id: 'p3', name: 'Lieferant GmbH', taxId: 'DE123456789' },
];

/** A clean invoice extraction (everything adds up); override fields per test. */
export const invoiceExtraction = (
  fields: Partial<InvoiceExtraction['fields']> = {},
  pageCount = 1,
): InvoiceExtraction => ({
  schemaVersion: 1,
  docType: 'invoice',
  classificationConfidence: 0.95,
  extractor: { name: 'heuristic', version: 'test' },
  pageCount,
  fields: {
    invoiceNumber: field('INV-1'),
    vendor: field('Brightline Software LLC', 0.84),
    customer: field('Globex Corporation'),
    invoiceDate: field('2025-03-05'),
    dueDate: field('2025-04-04'),
    currency: field('USD'),
    subtotal: field('100.10'),
    tax: field('20.20'),
    total: field('120.30'),
    lineItems: field([
      { description: 'A', quantity: '2', unitPrice: '25.05', amount: '50.10' },
      { description: 'B', amount: '50.00' },
    ]),
    ...fields,
  },
  rejected: [],
});

/** A clean contract extraction; override fields per test. */
export const contractExtraction = (
  fields: Partial<ContractExtraction['fields']> = {},
): ContractExtraction => ({
  schemaVersion: 1,
  docType: 'contract',
  classificationConfidence: 0.95,
  extractor: { name: 'heuristic', version: 'test' },
  pageCount: 4,
  fields: {
    contractNumber: field('MSA-1'),
    provider: field('Acme Logistics, Inc.', 0.9),
    customer: field('Globex Corporation'),
    effectiveDate: field('2025-01-01'),
    expirationDate: field('2025-12-31'),
    totalValue: field({ amount: '50000.00', currency: 'USD' }),
    ...fields,
  },
  rejected: [],
});

export { bareField, field };

/** The validation options every test uses: the providers above and a fixed clock. */
export const options = {
  lookupProvider: providerLookupFrom(PROVIDERS),
  now: new Date('2025-03-01T00:00:00Z'),
};

/** The codes of a result's reasons, in order. */
export const codes = (reasons: readonly { code: ReviewReasonCode }[]) => reasons.map((r) => r.code);

/** What the transition table decides for a validation result at the default threshold. */
export const decide = (result: { confidence: number; requiredFieldsValid: boolean }) =>
  transition('validating', 'validation_completed', {
    confidence: result.confidence,
    confidenceThreshold: 80,
    requiredFieldsValid: result.requiredFieldsValid,
  });
