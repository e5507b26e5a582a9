import { describe, expect, it } from 'vitest';
import { applyLocks, changedFields, locksAfterDecision } from '../../lambdas/shared/documents/index.js';
import { contractExtraction, invoiceExtraction } from '../validate/extractions.js';

describe('locked fields', () => {
  it("turns a reviewer's corrections into locks by that reviewer, a later correction replacing an older lock", () => {
    // Prepare
    const held = {
      total: { by: 'alice', at: '2026-01-01T00:00:00Z' },
      dueDate: { by: 'alice', at: '2026-01-01T00:00:00Z' },
    };

    // Act
    const locks = locksAfterDecision(held, {
      reviewer: 'bob',
      at: '2026-02-01T00:00:00Z',
      corrections: { total: { amount: '10.00', currency: 'EUR' }, poNumber: null },
    });

    // Assess
    expect(locks).toEqual({
      total: { by: 'bob', at: '2026-02-01T00:00:00Z' },
      dueDate: { by: 'alice', at: '2026-01-01T00:00:00Z' },
      poNumber: { by: 'bob', at: '2026-02-01T00:00:00Z', cleared: true },
    });
    expect(locksAfterDecision(held, undefined)).toEqual(held);
  });

  it("keeps a person's value and removes a field they cleared, whatever the new extraction read", () => {
    // Prepare: the previous record has the person's total; the rerun reads another one.
    const previous = invoiceExtraction();
    const person = { amount: '999.00', currency: 'EUR' };
    (previous.fields as Record<string, unknown>).total = { value: person, confidence: 1, corrected: true };
    const rerun = invoiceExtraction();
    const read = (rerun.fields as Record<string, { value: unknown }>).total?.value;

    // Act
    const { record, applied } = applyLocks(rerun, previous, {
      total: { by: 'alice', at: '2026-01-01T00:00:00Z' },
      currency: { by: 'alice', at: '2026-01-01T00:00:00Z', cleared: true },
    });

    // Assess
    const fields = record.fields as Record<
      string,
      { value: unknown; confidence: number; locked?: unknown; corrected?: boolean }
    >;
    expect(read).not.toEqual(person);
    expect(fields.total).toMatchObject({
      value: person,
      confidence: 1,
      locked: { by: 'alice', at: '2026-01-01T00:00:00Z' },
    });
    expect(fields.total?.corrected).toBeUndefined();
    expect(fields.currency).toBeUndefined();
    expect(applied).toEqual(['currency', 'total']);
    // The input records are not changed.
    expect((rerun.fields as Record<string, { value: unknown }>).total?.value).toEqual(read);
  });

  it('applies no lock across document types: the fields are not the same fields', () => {
    // Act
    const { record, applied } = applyLocks(contractExtraction(), invoiceExtraction(), {
      total: { by: 'alice', at: '2026-01-01T00:00:00Z' },
    });

    // Assess
    expect(applied).toEqual([]);
    expect(record).toEqual(contractExtraction());
  });

  it('names the fields whose value changed, by value and not by key order, and a type change first', () => {
    // Prepare: the same total value with its keys in another order, a new number, a field gone.
    const before = contractExtraction();
    const after = contractExtraction();
    const fields = after.fields as Record<string, { value: unknown; confidence: number }>;
    fields.totalValue = { value: { currency: 'USD', amount: '50000.00' }, confidence: 0.5 };
    fields.contractNumber = { value: 'OTHER-1', confidence: 0.9 };
    const gone = Object.keys(fields).find((name) => !['totalValue', 'contractNumber'].includes(name)) ?? '';
    delete fields[gone];

    // Act and Assess
    expect(changedFields(after, before)).toEqual(['contractNumber', gone].sort());
    expect(changedFields(invoiceExtraction(), before)[0]).toBe('docType');
    expect(changedFields(before, contractExtraction())).toEqual([]);
  });
});
