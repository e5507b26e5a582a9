import { describe, expect, it } from 'vitest';
import {
  InvalidExtraction,
  overallConfidence,
  REVIEW_REASON_CODES,
  validateDocument,
} from '../../lambdas/validate/index.js';
import {
  bareField,
  codes,
  contractExtraction,
  decide,
  field,
  invoiceExtraction,
  options,
} from './extractions.js';

describe('validateDocument', () => {
  it('passes a clean invoice: known vendor and sums confirm their fields, no reasons, auto-approved by the table', async () => {
    // Act
    const result = await validateDocument(invoiceExtraction(), options);

    // Assess
    expect(result.reasons).toEqual([]);
    expect(result.requiredFieldsValid).toBe(true);
    expect(result.provider?.id).toBe('p2');
    expect(result.evidence.vendor?.map((e) => e.kind)).toContain('master');
    expect(result.evidence.total?.map((e) => e.kind)).toContain('arithmetic');
    expect(result.fieldConfidence.vendor).toBeGreaterThan(0.97);
    expect(result.fieldConfidence.total).toBeGreaterThan(0.97);
    expect(result.confidence).toBeGreaterThanOrEqual(80);
    expect(decide(result)).toMatchObject({ ok: true, to: 'validated' });
  });

  it('reports a missing required field and routes to review', async () => {
    // Prepare
    const extraction = invoiceExtraction();
    delete extraction.fields.invoiceDate;

    // Act
    const result = await validateDocument(extraction, options);

    // Assess
    expect(codes(result.reasons)).toContain('missing_required_field');
    expect(result.reasons[0]).toMatchObject({ code: 'missing_required_field', fields: ['invoiceDate'] });
    expect(result.requiredFieldsValid).toBe(false);
    expect(decide(result)).toMatchObject({ ok: true, to: 'review_required' });
  });

  it('reports a value the extractor found but could not read as invalid_field', async () => {
    // Prepare
    const extraction = invoiceExtraction();
    delete extraction.fields.total;
    extraction.rejected.push({ field: 'total', raw: '"12,34,5"', reason: 'not a decimal' });

    // Act
    const result = await validateDocument(extraction, options);

    // Assess
    expect(codes(result.reasons)).toEqual(['invalid_field', 'low_confidence']);
    expect(result.reasons[0]?.fields).toEqual(['total']);
  });

  it('reports totals that do not add up, exactly (no float drift)', async () => {
    // Prepare
    const drifting = invoiceExtraction({
      subtotal: field('0.10'),
      tax: field('0.20'),
      total: field('0.30'),
      lineItems: undefined,
    });
    const wrong = invoiceExtraction({ total: field('120.31') });

    // Act
    const ok = await validateDocument(drifting, options);
    const bad = await validateDocument(wrong, options);

    // Assess
    expect(codes(ok.reasons)).toEqual([]);
    expect(codes(bad.reasons)).toContain('totals_mismatch');
    expect(bad.requiredFieldsValid).toBe(false);
  });

  it('reports line items that do not add up to the subtotal, or rows whose quantity x price is off', async () => {
    // Prepare
    const sum = invoiceExtraction({ lineItems: field([{ description: 'A', amount: '100.00' }]) });
    const row = invoiceExtraction({
      lineItems: field([
        { description: 'A', quantity: '2', unitPrice: '25.00', amount: '50.10' },
        { description: 'B', amount: '50.00' },
      ]),
    });

    // Act
    const bySum = await validateDocument(sum, options);
    const byRow = await validateDocument(row, options);

    // Assess
    expect(codes(bySum.reasons)).toEqual(['line_items_mismatch']);
    expect(bySum.reasons[0]?.message).toContain('add up to 100.00');
    expect(codes(byRow.reasons)).toEqual(['line_items_mismatch']);
    expect(byRow.reasons[0]?.message).toContain('row 1');
  });

  it('checks line items against the total when the invoice has no tax', async () => {
    // Prepare
    const extraction = invoiceExtraction({ subtotal: undefined, tax: undefined, total: field('100.10') });

    // Act
    const result = await validateDocument(extraction, options);

    // Assess
    expect(codes(result.reasons)).toEqual([]);
    expect(result.evidence.total?.find((e) => e.kind === 'arithmetic')?.detail).toContain(
      'line items add up',
    );
  });

  it('accepts line items stated with tax when they add up to the total instead of the subtotal', async () => {
    // Prepare: "Amount incl. GST" rows: 60.00 + 60.30 = the total 120.30, not the net 100.10.
    const extraction = invoiceExtraction({
      lineItems: field([
        { description: 'A', amount: '60.00' },
        { description: 'B', amount: '60.30' },
      ]),
    });

    // Act
    const result = await validateDocument(extraction, options);

    // Assess
    expect(codes(result.reasons)).toEqual([]);
    expect(result.evidence.lineItems?.find((e) => e.kind === 'arithmetic')?.detail).toContain(
      'with tax, add up to the total 120.30',
    );
  });

  it.each([
    ['priced with tax, add up to the total', ['60.00', '60.30'], 'with tax, add up to the total 120.30'],
    ['net, with the tax make the total', ['50.10', '50.00'], '100.10 + tax 20.20 = total 120.30'],
  ])(
    'checks line items against the total when only the tax is printed: items %s',
    async (_, amounts, detail) => {
      // Prepare: "Total TTC 120,30 / dont TVA 20,20", "Totaal incl. btw / waarvan btw": no net printed.
      const extraction = invoiceExtraction({
        lineItems: field(amounts.map((amount, i) => ({ description: `Item ${i + 1}`, amount }))),
      });
      delete extraction.fields.subtotal;

      // Act
      const result = await validateDocument(extraction, options);

      // Assess
      expect(codes(result.reasons)).toEqual([]);
      expect(result.evidence.total?.find((e) => e.kind === 'arithmetic')?.detail).toContain(detail);
    },
  );

  it('does not take items that make neither the total nor, with the tax, the total as a check', async () => {
    // Prepare: no net printed, and the rows make 110.10: one of them was misread.
    const extraction = invoiceExtraction({
      lineItems: field([
        { description: 'A', amount: '60.10' },
        { description: 'B', amount: '50.00' },
      ]),
    });
    delete extraction.fields.subtotal;

    // Act
    const result = await validateDocument(extraction, options);

    // Assess
    expect(result.evidence.total?.map((e) => e.kind) ?? []).not.toContain('arithmetic');
    expect(result.evidence.lineItems?.map((e) => e.kind) ?? []).not.toContain('arithmetic');
  });

  it('checks line items against the subtotal before the discounts and charges on the whole invoice', async () => {
    // Prepare: items 90.10 + shipping 10.00 = the net 100.10.
    const extraction = invoiceExtraction({
      adjustments: field('10.00'),
      lineItems: field([
        { description: 'A', amount: '50.10' },
        { description: 'B', amount: '40.00' },
      ]),
    });

    // Act
    const result = await validateDocument(extraction, options);

    // Assess
    expect(codes(result.reasons)).toEqual([]);
    expect(result.evidence.lineItems?.find((e) => e.kind === 'arithmetic')?.detail).toContain(
      'subtotal before discounts and charges 90.10',
    );
  });

  it.each([
    ['100.00', true],
    ['120.30', false],
    ['99.00', false],
  ])('checks an amount due of %s against the total less the tax withheld', async (amountDue, holds) => {
    // Prepare: the total 120.30, of which the buyer withholds 20.30; both read once.
    const extraction = invoiceExtraction({
      withholding: bareField('20.30', 0.85),
      amountDue: bareField(amountDue, 0.85),
    });

    // Act
    const result = await validateDocument(extraction, options);

    // Assess: only the amount due that is the total less the withholding is checked by it
    const checked = (field: 'withholding' | 'amountDue') =>
      result.evidence[field]?.some((e) => e.kind === 'arithmetic' && e.detail.includes('withholding 20.30'));
    expect(checked('withholding')).toBe(holds);
    expect(checked('amountDue')).toBe(holds);
  });

  it('never approves a total nothing checks: no sum, no items, no second place', async () => {
    // Prepare: the total read once next to its label, with no subtotal, tax or items to add up.
    const extraction = invoiceExtraction({
      subtotal: undefined,
      tax: undefined,
      lineItems: undefined,
      total: bareField('120.30', 0.95),
    });

    // Act
    const result = await validateDocument(extraction, options);

    // Assess
    expect(codes(result.reasons)).toEqual(['uncorroborated_total']);
    expect(result.fieldConfidence.total).toBeLessThan(0.8);
    expect(result.requiredFieldsValid).toBe(false);
    expect(decide(result)).toMatchObject({ ok: true, to: 'review_required' });
  });

  it('confirms both dates when the due date is the invoice date plus the payment terms', async () => {
    // Prepare
    const extraction = invoiceExtraction({
      invoiceDate: bareField('2025-03-05', 0.9),
      dueDate: bareField('2025-04-04', 0.9),
      paymentTerms: bareField('Net 30', 0.9),
    });

    // Act
    const result = await validateDocument(extraction, options);

    // Assess
    expect(result.evidence.invoiceDate?.find((e) => e.kind === 'arithmetic')?.detail).toBe(
      '2025-03-05 + 30 days = due 2025-04-04',
    );
    expect(result.fieldConfidence.invoiceDate).toBeGreaterThan(0.95);
  });

  it('reports an invoice due before it was issued', async () => {
    // Act
    const result = await validateDocument(invoiceExtraction({ dueDate: field('2025-03-01') }), options);

    // Assess
    expect(codes(result.reasons)).toEqual(['due_before_invoice_date']);
    expect(result.requiredFieldsValid).toBe(false);
  });

  it('reports a contract that ends before it starts', async () => {
    // Act
    const result = await validateDocument(
      contractExtraction({ expirationDate: field('2024-12-31') }),
      options,
    );

    // Assess
    expect(codes(result.reasons)).toEqual(['dates_out_of_order']);
    expect(result.reasons[0]?.fields).toEqual(['effectiveDate', 'expirationDate']);
  });

  it('reports an ambiguous date with both readings, unless a reviewer corrected it', async () => {
    // Prepare
    const ambiguous = { ...field('2025-05-03', 0.45), alternatives: ['2025-03-05'] };
    const corrected = { value: '2025-05-03', confidence: 1, alternatives: ['2025-03-05'], corrected: true };

    // Act
    const result = await validateDocument(
      invoiceExtraction({ invoiceDate: ambiguous, dueDate: undefined }),
      options,
    );
    const afterReview = await validateDocument(
      invoiceExtraction({ invoiceDate: corrected, dueDate: undefined }),
      options,
    );

    // Assess
    expect(codes(result.reasons)).toEqual(['ambiguous_date', 'low_confidence']);
    expect(result.reasons[0]?.message).toContain('2025-05-03 or 2025-03-05');
    expect(codes(afterReview.reasons)).toEqual([]);
  });

  it('keeps an ambiguous date unsure though a second place prints the same digits', async () => {
    // Prepare: read next to a label and repeated elsewhere, but 05/03/2025 reads two ways in both.
    const repeated = {
      value: '2025-05-03',
      confidence: 0.84,
      alternatives: ['2025-03-05'],
      evidence: [
        { kind: 'label' as const, weight: 0.48, detail: 'prose:defined-date' },
        { kind: 'agreement' as const, weight: 0.7, detail: 'the same value at p1 l6' },
      ],
    };

    // Act
    const result = await validateDocument(invoiceExtraction({ invoiceDate: repeated }), options);

    // Assess
    expect(result.evidence.invoiceDate?.map((e) => e.kind)).toContain('ambiguous');
    expect(result.fieldConfidence.invoiceDate).toBeLessThan(0.5);
    expect(codes(result.reasons)).toContain('ambiguous_date');
  });

  it('reports low confidence alone when the fields are valid but unsure, naming the weakest', async () => {
    // Act
    const result = await validateDocument(invoiceExtraction({ invoiceNumber: field('INV-1', 0.5) }), options);

    // Assess
    expect(result.requiredFieldsValid).toBe(true);
    expect(codes(result.reasons)).toEqual(['low_confidence']);
    expect(result.reasons[0]?.message).toContain('invoiceNumber (50%)');
    expect(decide(result)).toMatchObject({ ok: true, to: 'review_required' });
  });

  it('honours a custom threshold for the low_confidence reason', async () => {
    // Act
    const strict = await validateDocument(invoiceExtraction(), { ...options, confidenceThreshold: 99 });

    // Assess
    expect(codes(strict.reasons)).toEqual(['low_confidence']);
  });

  it('caps confidence and says so when the doc type itself is uncertain', async () => {
    // Act
    const result = await validateDocument({ ...invoiceExtraction(), classificationConfidence: 0.6 }, options);

    // Assess
    expect(codes(result.reasons)).toEqual(['uncertain_document_type', 'low_confidence']);
    expect(result.confidence).toBe(60);
  });

  it('sends a readable document of no known type to a person with reason unclassified', async () => {
    // Prepare
    const extraction = {
      ...invoiceExtraction(),
      docType: 'unclassified' as const,
      fields: {},
      classificationConfidence: 0,
    };

    // Act
    const result = await validateDocument(extraction, options);

    // Assess
    expect(codes(result.reasons)).toEqual(['unclassified']);
    expect(result.requiredFieldsValid).toBe(false);
    expect(decide(result)).toMatchObject({ ok: true, to: 'review_required' });
  });

  it('tells the reviewer which title made a document no invoice, so they can reject it', async () => {
    // Prepare
    const extraction = {
      ...invoiceExtraction(),
      docType: 'unclassified' as const,
      fields: {},
      classificationConfidence: 0,
      titled: 'Angebot',
    };

    // Act
    const result = await validateDocument(extraction, options);

    // Assess
    expect(codes(result.reasons)).toEqual(['unclassified']);
    expect(result.reasons[0]?.message).toContain('titled "Angebot"');
    expect(result.reasons[0]?.message).toContain('reject it');
  });

  it('names the invoices a statement lists, so the reviewer can reject it', async () => {
    // Prepare
    const extraction = {
      ...invoiceExtraction(),
      docType: 'unclassified' as const,
      fields: {},
      classificationConfidence: 0,
      listsInvoices: ['INV-88102', 'INV-88311'],
    };

    // Act
    const result = await validateDocument(extraction, options);

    // Assess
    expect(codes(result.reasons)).toEqual(['unclassified']);
    expect(result.reasons[0]?.message).toContain('lists 2 invoices (INV-88102, INV-88311)');
    expect(result.reasons[0]?.message).toContain('reject it');
  });

  it('refuses a record that is not an extraction with the permanent InvalidExtraction', async () => {
    await expect(validateDocument({ docType: 'invoice' }, options)).rejects.toBeInstanceOf(InvalidExtraction);
  });

  it('covers every reason code in these tests and counterpartyChecks.test.ts', () => {
    // Every code is asserted in one of the two files; this keeps the list and the tests in step when a code is added.
    expect(REVIEW_REASON_CODES).toEqual([
      'low_confidence',
      'missing_required_field',
      'invalid_field',
      'totals_mismatch',
      'line_items_mismatch',
      'dates_out_of_order',
      'due_before_invoice_date',
      'unknown_provider',
      'ambiguous_date',
      'uncertain_document_type',
      'unclassified',
      'uncorroborated_total',
      'einvoice_inconsistent',
      'einvoice_unreadable',
      'einvoice_text_mismatch',
      'vendor_mismatch',
      'iban_mismatch',
      'possible_duplicate',
      'changed_since_approval',
    ]);
  });

  it('sends a clean record back to a person when a rerun changed what that person approved', async () => {
    // Act: the same clean invoice, once as a first run, once as a rerun that changed its total.
    const first = await validateDocument(invoiceExtraction(), options);
    const rerun = await validateDocument(invoiceExtraction(), {
      ...options,
      changedSinceApproval: { fields: ['total'], approvedBy: 'alice' },
    });

    // Assess: only the change tells them apart.
    expect(decide(first)).toMatchObject({ ok: true, to: 'validated' });
    expect(codes(rerun.reasons)).toEqual(['changed_since_approval']);
    expect(rerun.reasons[0]).toMatchObject({ fields: ['total'] });
    expect(rerun.reasons[0]?.message).toContain('alice approved');
    expect(rerun.confidence).toBe(first.confidence);
    expect(decide(rerun)).toMatchObject({ ok: true, to: 'review_required' });
  });
});

describe('overallConfidence', () => {
  it('is the mean of the required fields, capped at the weakest + 10 points', () => {
    expect(overallConfidence([0.95, 0.95, 0.95])).toBe(95);
    expect(overallConfidence([0.99, 0.99, 0.99, 0.6])).toBe(70);
    expect(overallConfidence([0.9, 0.9, 0])).toBe(10);
    expect(overallConfidence([])).toBe(0);
  });
});
