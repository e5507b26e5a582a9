import { REQUIRED_FIELDS } from './docTypes.js';

/** How many of a document's required fields something checked, and the one most in doubt. */
export interface CheckedFields {
  checked: number;
  required: number;
  /** The required field with the lowest confidence (missing counts lowest), when not all are checked. */
  weakest?: { field: string; confidence?: number };
}

/**
 * Overall confidence as a person reads it: "3 of 5 required fields checked; weakest: total (75%)".
 * A mean of confidences reads "10%" for a document whose one missing field is all that is wrong;
 * this says what is confirmed and what to look at. A field at or above the auto-approve threshold
 * is one an independent check confirmed (a value only read stays below it, see
 * `UNCORROBORATED_CAP`). A corrected field is the reviewer's, so it counts as checked.
 *
 * @param threshold 0-1: at or above it a field counts as checked (the auto-approve threshold)
 */
export const checkedFields = (
  docType: string | undefined,
  fields: Readonly<Record<string, { confidence: number; corrected?: boolean } | undefined>>,
  threshold: number,
): CheckedFields | undefined => {
  if (docType !== 'contract' && docType !== 'invoice') return undefined;
  const required = REQUIRED_FIELDS[docType] as readonly string[];
  const scored = required.map((field) => {
    const f = fields[field];
    return { field, confidence: f ? (f.corrected ? 1 : f.confidence) : undefined };
  });
  const unchecked = scored
    .filter((s) => s.confidence === undefined || s.confidence < threshold)
    .sort((a, b) => (a.confidence ?? -1) - (b.confidence ?? -1));
  const weakest = unchecked[0];
  return {
    checked: required.length - unchecked.length,
    required: required.length,
    ...(weakest && { weakest }),
  };
};

/**
 * `checkedFields` of a workflow's validated confidences (`fieldConfidence`: name -> 0-1), as the
 * review queue has them: the console's queue and `docket reviews` read the same summary.
 */
export const checkedFromConfidences = (
  docType: string | undefined,
  fieldConfidence: Readonly<Record<string, number>> | undefined,
  threshold: number,
): CheckedFields | undefined =>
  checkedFields(
    docType,
    Object.fromEntries(
      Object.entries(fieldConfidence ?? {}).map(([name, confidence]) => [name, { confidence }]),
    ),
    threshold,
  );

/** `checkedFields` as one line of text. */
export const describeCheckedFields = (s: CheckedFields): string =>
  `${s.checked} of ${s.required} required fields checked${
    s.weakest
      ? `; weakest: ${s.weakest.field} (${s.weakest.confidence === undefined ? 'missing' : `${Math.round(s.weakest.confidence * 100)}%`})`
      : ''
  }`;
