import type { Extraction } from '../shared/documents/index.js';

/** How much each factor weighs in the review priority (seed 002: confidence, SLA, value, complexity). */
export const PRIORITY_WEIGHTS = { confidence: 40, deadline: 25, value: 20, pages: 15 } as const;

/** Each factor of the priority, 0-1 (1 = most urgent). */
export interface PriorityFactors {
  /** Low confidence: 1 - confidence/100. */
  confidence: number;
  /** Near deadline: 1 when due today or overdue, 0 when 30 or more days away (invoice due date, contract start). */
  deadline: number;
  /** High value: 0 at 1,000 or less, 1 at 1,000,000 or more (major units of the document's currency). */
  value: number;
  /** Many pages: 0 for one page, 1 for 20 or more. */
  pages: number;
}

const DAY_MS = 86_400_000;
const clamp01 = (n: number): number => Math.min(1, Math.max(0, n));

const deadlineOf = (extraction: Extraction): string | undefined => {
  if (extraction.docType === 'unclassified') return undefined;
  if (extraction.docType === 'invoice') {
    const f = extraction.fields;
    return f.dueDate?.value ?? f.invoiceDate?.value;
  }
  return extraction.fields.effectiveDate?.value;
};

const magnitudeOf = (extraction: Extraction): number | undefined => {
  if (extraction.docType === 'unclassified') return undefined;
  const raw =
    extraction.docType === 'invoice'
      ? extraction.fields.total?.value
      : extraction.fields.totalValue?.value.amount;
  // A credit note's or a correction's negative total is as large as its positive twin.
  return raw === undefined ? undefined : Math.abs(Number(raw));
};

/** The factors of a document's review priority. */
export const priorityFactors = (
  extraction: Extraction,
  confidence: number,
  pageCount: number,
  now: Date,
): PriorityFactors => {
  const deadline = deadlineOf(extraction);
  const days =
    deadline === undefined ? undefined : (Date.parse(`${deadline}T00:00:00Z`) - now.getTime()) / DAY_MS;
  const value = magnitudeOf(extraction);
  return {
    confidence: clamp01(1 - confidence / 100),
    deadline: days === undefined ? 0 : clamp01(1 - days / 30),
    // No conversion between currencies: the magnitude is what matters to the queue, and rates change.
    value: value === undefined || value <= 0 ? 0 : clamp01((Math.log10(value) - 3) / 3),
    pages: clamp01((pageCount - 1) / 19),
  };
};

/** Review priority 0-100 from its factors: higher is reviewed first. */
export const reviewPriority = (factors: PriorityFactors): number =>
  Math.round(
    (Object.keys(PRIORITY_WEIGHTS) as (keyof PriorityFactors)[]).reduce(
      (sum, k) => sum + PRIORITY_WEIGHTS[k] * factors[k],
      0,
    ),
  );
