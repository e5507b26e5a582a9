import {
  decimalEquals,
  type Extraction,
  FIELD_NAMES,
  type LineItem,
  normalizeCompanyName,
  REQUIRED_FIELDS,
} from '../lambdas/shared/documents/index.js';
import type { GroundTruth } from '../test/fixtures/corpus/truth.js';

const isDecimal = (v: unknown): v is string => typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v);

const sameItems = (a: readonly LineItem[], b: readonly LineItem[]): boolean =>
  a.length === b.length &&
  a.every((x, i) => {
    const y = b[i];
    if (y === undefined) return false;
    const num = (p?: string, q?: string) =>
      p === undefined ? q === undefined : q !== undefined && decimalEquals(p, q);
    return (
      x.description.trim() === y.description.trim() &&
      decimalEquals(x.amount, y.amount) &&
      num(x.quantity, y.quantity) &&
      num(x.unitPrice, y.unitPrice)
    );
  });

/**
 * True when an extracted value is the ground truth: party names compared after company-name
 * normalisation, amounts as numbers, text case-insensitively, line items row by row.
 */
export const valueMatches = (field: string, truth: unknown, extracted: unknown): boolean => {
  if (truth === undefined || extracted === undefined) return truth === extracted;
  if (['provider', 'customer', 'vendor'].includes(field)) {
    return normalizeCompanyName(String(truth)) === normalizeCompanyName(String(extracted));
  }
  if (field === 'lineItems') return sameItems(truth as LineItem[], extracted as LineItem[]);
  if (isDecimal(truth) && isDecimal(extracted)) return decimalEquals(truth, extracted);
  if (typeof truth === 'object' && truth !== null && typeof extracted === 'object' && extracted !== null) {
    const t = truth as { amount: string; currency: string };
    const e = extracted as { amount: string; currency: string };
    return t.currency === e.currency && isDecimal(e.amount) && decimalEquals(t.amount, e.amount);
  }
  if (typeof truth === 'string' && typeof extracted === 'string') {
    return truth.trim().toLowerCase() === extracted.trim().toLowerCase();
  }
  return truth === extracted;
};

/** Per-field outcome of one document. */
export interface FieldOutcome {
  field: string;
  /** The truth has a value. */
  expected: boolean;
  /** The extraction has a value. */
  extracted: boolean;
  correct: boolean;
}

/** Compares an extraction with its ground truth, field by field (only when the doc type is right). */
export const scoreFields = (truth: GroundTruth, extraction: Extraction | undefined): FieldOutcome[] =>
  FIELD_NAMES[truth.docType].map((field) => {
    const t = (truth.fields as Record<string, unknown>)[field];
    const e =
      extraction?.docType === truth.docType
        ? (extraction.fields as Record<string, { value: unknown } | undefined>)[field]?.value
        : undefined;
    return {
      field,
      expected: t !== undefined,
      extracted: e !== undefined,
      correct: valueMatches(field, t, e),
    };
  });

/** True when every required field of the truth was extracted right (what auto-approval promises). */
export const requiredFieldsRight = (truth: GroundTruth, outcomes: readonly FieldOutcome[]): boolean =>
  (REQUIRED_FIELDS[truth.docType] as readonly string[]).every(
    (f) => outcomes.find((o) => o.field === f)?.correct,
  );
