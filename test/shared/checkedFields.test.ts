import { describe, expect, it } from 'vitest';
import {
  checkedFields,
  describeCheckedFields,
  REQUIRED_FIELDS,
} from '../../lambdas/shared/documents/index.js';

/** Every required field of an invoice read with this confidence. */
const invoiceFields = (confidence: number) =>
  Object.fromEntries(REQUIRED_FIELDS.invoice.map((name) => [name, { confidence }]));

describe('checkedFields: overall confidence as a person reads it', () => {
  it('counts the required fields at or above the threshold and names the weakest', () => {
    // Prepare
    const fields = { ...invoiceFields(0.95), total: { confidence: 0.45 } };

    // Act
    const checked = checkedFields('invoice', fields, 0.8);

    // Assess
    const required = REQUIRED_FIELDS.invoice.length;
    expect(checked).toEqual({
      checked: required - 1,
      required,
      weakest: { field: 'total', confidence: 0.45 },
    });
    expect(describeCheckedFields(checked as NonNullable<typeof checked>)).toBe(
      `${required - 1} of ${required} required fields checked; weakest: total (45%)`,
    );
  });

  it('names a missing field as the weakest, and says "missing" rather than 0%', () => {
    // Prepare: one field not found, another read but not checked.
    const { total: _missing, ...rest } = invoiceFields(0.95);
    const fields = { ...rest, invoiceNumber: { confidence: 0.5 } };

    // Act
    const checked = checkedFields('invoice', fields, 0.8);

    // Assess
    expect(checked?.weakest).toEqual({ field: 'total' });
    expect(describeCheckedFields(checked as NonNullable<typeof checked>)).toMatch(
      /weakest: total \(missing\)$/,
    );
  });

  it('takes a corrected field as checked, and has nothing to say of an unclassified document', () => {
    // Act
    const corrected = checkedFields(
      'invoice',
      { ...invoiceFields(0.95), total: { confidence: 0.2, corrected: true } },
      0.8,
    );
    const unclassified = checkedFields('unclassified', {}, 0.8);

    // Assess
    expect(corrected).toEqual({
      checked: REQUIRED_FIELDS.invoice.length,
      required: REQUIRED_FIELDS.invoice.length,
    });
    expect(unclassified).toBeUndefined();
  });
});
