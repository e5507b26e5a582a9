import { describe, expect, it } from 'vitest';
import {
  applyCorrections,
  type ContractExtraction,
  ContractFieldsSchema,
  completeFields,
  ExtractionSchema,
  FIELD_NAMES,
  fieldSchema,
  fieldValues,
  InvoiceFieldsSchema,
  REQUIRED_FIELDS,
  validateCorrections,
} from '../../lambdas/shared/documents/index.js';

const contract = {
  contractNumber: 'MSA-2025-0142',
  provider: 'Acme Logistics, Inc.',
  customer: 'Globex Corporation',
  effectiveDate: '2025-03-05',
  totalValue: { amount: '120000.00', currency: 'USD' },
};

const extraction = (): ContractExtraction => ({
  schemaVersion: 1,
  docType: 'contract',
  classificationConfidence: 0.95,
  extractor: { name: 'heuristic', version: '1.0.0' },
  pageCount: 3,
  fields: {
    contractNumber: {
      value: 'MSA-2025-0142',
      confidence: 0.95,
      source: { page: 1, line: 2, text: 'Contract No. MSA-2025-0142' },
    },
    provider: { value: 'Acme Logistics, Inc.', confidence: 0.9 },
    customer: { value: 'Globex Corporation', confidence: 0.9 },
    effectiveDate: { value: '2025-03-05', confidence: 0.5, alternatives: ['2025-05-03'] },
    totalValue: { value: { amount: '120000.00', currency: 'USD' }, confidence: 0.9 },
  },
  rejected: [{ field: 'signedDate', raw: '"31/31/2025"', reason: 'not a date' }],
});

describe('field schemas', () => {
  it('derive the required fields of the issue from the schemas', () => {
    // Act
    const required = REQUIRED_FIELDS;

    // Assess
    expect(required.contract).toEqual([
      'contractNumber',
      'provider',
      'customer',
      'effectiveDate',
      'totalValue',
    ]);
    expect(required.invoice).toEqual(['invoiceNumber', 'vendor', 'invoiceDate', 'currency', 'total']);
    expect(FIELD_NAMES.contract).toHaveLength(12);
    // 13 fields, then the kind (credit note), the amount due, the vendor's tax id and IBAN, and
    // the discounts and charges between net and total, and the tax the buyer withholds.
    expect(FIELD_NAMES.invoice).toHaveLength(19);
  });

  it('accept a complete contract and reject each missing required field', () => {
    // Prepare
    const withoutEach = REQUIRED_FIELDS.contract.map((field) => {
      const copy: Record<string, unknown> = { ...contract };
      delete copy[field];
      return copy;
    });

    // Act
    const complete = ContractFieldsSchema.safeParse(contract);
    const partial = withoutEach.map((c) => ContractFieldsSchema.safeParse(c).success);

    // Assess
    expect(complete.success).toBe(true);
    expect(partial.every((ok) => !ok)).toBe(true);
  });

  it.each([
    ['effectiveDate', '2025-02-30', false],
    ['effectiveDate', '05/03/2025', false],
    ['effectiveDate', '2024-02-29', true],
    ['totalValue', { amount: '1,234.50', currency: 'USD' }, false],
    ['totalValue', { amount: '1234.50', currency: 'usd' }, false],
    ['totalValue', { amount: '1234.50', currency: 'XYZ' }, false],
    ['totalValue', { amount: '-5.00', currency: 'EUR' }, false],
    ['totalValue', { amount: '1234.5', currency: 'JPY' }, true],
    ['termMonths', 1.5, false],
    ['contractNumber', '  ', false],
  ])('check %s = %j well-formed: %s', (field, value, ok) => {
    // Act
    const result = fieldSchema('contract', field)?.safeParse(value);

    // Assess
    expect(result?.success).toBe(ok);
  });

  it('keeps invoice amounts as decimal strings, never floats', () => {
    // Act
    const asNumber = InvoiceFieldsSchema.shape.total.safeParse(1234.5);
    const asString = InvoiceFieldsSchema.shape.total.safeParse('1234.50');

    // Assess
    expect(asNumber.success).toBe(false);
    expect(asString.success).toBe(true);
  });

  it('takes a document number in any script, and still refuses what no number holds', () => {
    // Act
    const read = (v: string) => InvoiceFieldsSchema.shape.invoiceNumber.safeParse(v).success;

    // Assess
    expect(['Α-1456', 'ΤΠΥ 0042', 'СФ-17/2025', 'INV-2025-0042', '000.000.452'].map(read)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['-12', 'INV:12', 'A<b>', ' '].map(read)).toEqual([false, false, false, false]);
  });

  it('parses an extraction record and rejects a value that breaks its field schema', () => {
    // Prepare
    const bad = {
      ...extraction(),
      fields: { ...extraction().fields, effectiveDate: { value: 'March 5', confidence: 0.9 } },
    };

    // Act
    const good = ExtractionSchema.safeParse(extraction());
    const broken = ExtractionSchema.safeParse(bad);

    // Assess
    expect(good.success).toBe(true);
    expect(broken.success).toBe(false);
  });
});

describe('reviewer corrections', () => {
  it('accept well-formed corrections and null for an optional field', () => {
    // Act
    const result = validateCorrections('contract', { effectiveDate: '2025-05-03', governingLaw: null });

    // Assess
    expect(result).toEqual({ ok: true, corrections: { effectiveDate: '2025-05-03', governingLaw: null } });
  });

  it('refuse unknown fields, malformed values and clearing a required field, naming each', () => {
    // Act
    const result = validateCorrections('invoice', {
      dueDate: '31/12/2025',
      total: 12.5,
      colour: 'blue',
      vendor: null,
    });

    // Assess
    expect(result.ok).toBe(false);
    const fields = result.ok ? [] : result.issues.map((i) => i.field).sort();
    expect(fields).toEqual(['colour', 'dueDate', 'total', 'vendor']);
  });

  it('refuse a body that is not an object or is empty', () => {
    // Act
    const notObject = validateCorrections('invoice', ['total', '1']);
    const empty = validateCorrections('invoice', {});

    // Assess
    expect(notObject.ok).toBe(false);
    expect(empty.ok).toBe(false);
  });

  it('apply with confidence 1, keep the source, drop the ambiguity and the rejected entry', () => {
    // Prepare
    const original = extraction();

    // Act
    const corrected = applyCorrections(original, { effectiveDate: '2025-05-03', signedDate: '2025-03-01' });

    // Assess
    expect(corrected.fields.effectiveDate).toEqual({ value: '2025-05-03', confidence: 1, corrected: true });
    expect(corrected.fields.signedDate).toMatchObject({
      value: '2025-03-01',
      confidence: 1,
      corrected: true,
    });
    expect(corrected.rejected).toEqual([]);
    expect(original.fields.effectiveDate?.value).toBe('2025-03-05');
  });

  it('give just the values of an extraction, typed by its doc type', () => {
    // Act
    const values = fieldValues(extraction());

    // Assess
    expect(values).toEqual({ ...contract, effectiveDate: '2025-03-05' });
    expect(values.totalValue?.currency).toBe('USD');
  });

  it('give complete fields only when every required field is there', () => {
    // Prepare
    const missing = extraction();
    delete missing.fields.customer;

    // Act
    const ok = completeFields(extraction());
    const notOk = completeFields(missing);

    // Assess
    expect(ok).toEqual({ ok: true, fields: contract });
    expect(notOk.ok).toBe(false);
  });
});
