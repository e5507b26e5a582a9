import type { FieldOutcome } from '../../test/fixtures/corpus/scoring.js';
import type { Judged } from './report.js';

/** The outcome of one generated document: extracted, validated and decided, then scored. */
export interface DocResult {
  id: string;
  docType: string;
  set: string;
  layout: string;
  reviewKind?: string;
  pages: number;
  classifiedAs?: string;
  error?: string;
  confidence?: number;
  requiredFieldsValid?: boolean;
  autoApproved: boolean;
  requiredRight: boolean;
  reasons: string[];
  expectedReasons: readonly string[];
  fields: FieldOutcome[];
  /** Validated confidence of each extracted field, for the reliability table. */
  judged: Judged[];
  parseMs: number;
  extractMs: number;
}

const pct = (n: number, d: number): number => (d === 0 ? 0 : Math.round((1000 * n) / d) / 10);

/** The generated corpus's figures: accuracy per field, automation, precision, timing. */
export const summarise = (results: readonly DocResult[]) => {
  const clean = results.filter((r) => r.set === 'clean');
  const review = results.filter((r) => r.set === 'review');
  const approved = results.filter((r) => r.autoApproved);
  const perField: Record<string, { expected: number; correct: number; spurious: number; accuracy: number }> =
    {};
  for (const r of results) {
    for (const f of r.fields) {
      const key = `${r.docType}.${f.field}`;
      perField[key] ??= { expected: 0, correct: 0, spurious: 0, accuracy: 0 };
      const s = perField[key];
      if (f.expected) {
        s.expected += 1;
        if (f.correct) s.correct += 1;
      } else if (f.extracted) s.spurious += 1;
    }
  }
  for (const s of Object.values(perField)) s.accuracy = pct(s.correct, s.expected);
  const byGroup = (rows: readonly DocResult[], key: (r: DocResult) => string) => {
    const groups: Record<string, { docs: number; autoApproved: number; rate: number }> = {};
    for (const r of rows) {
      const k = key(r);
      const g = groups[k] ?? { docs: 0, autoApproved: 0, rate: 0 };
      groups[k] = g;
      g.docs += 1;
      if (r.autoApproved) g.autoApproved += 1;
    }
    for (const g of Object.values(groups)) g.rate = pct(g.autoApproved, g.docs);
    return groups;
  };
  const reviewWithReason = review.filter((r) => r.expectedReasons.every((code) => r.reasons.includes(code)));
  const fieldTotals = Object.values(perField).reduce(
    (t, s) => ({ expected: t.expected + s.expected, correct: t.correct + s.correct }),
    { expected: 0, correct: 0 },
  );
  const extractMs = results.map((r) => r.extractMs).sort((a, b) => a - b);
  return {
    documents: results.length,
    clean: clean.length,
    mustReview: review.length,
    classificationAccuracy: pct(results.filter((r) => r.classifiedAs === r.docType).length, results.length),
    fieldAccuracy: pct(fieldTotals.correct, fieldTotals.expected),
    automationRateClean: pct(clean.filter((r) => r.autoApproved).length, clean.length),
    autoApproved: approved.length,
    autoApprovalPrecision: pct(approved.filter((r) => r.requiredRight).length, approved.length),
    autoApprovalsInMustReview: review.filter((r) => r.autoApproved).length,
    mustReviewWithExpectedReason: pct(reviewWithReason.length, review.length),
    errors: results.filter((r) => r.error).length,
    perField,
    automationByLayout: byGroup(clean, (r) => `${r.docType}/${r.layout}`),
    reviewByKind: byGroup(review, (r) => `${r.docType}/${r.reviewKind}`),
    timing: {
      parseMsTotal: Math.round(results.reduce((s, r) => s + r.parseMs, 0)),
      extractMsTotal: Math.round(results.reduce((s, r) => s + r.extractMs, 0)),
      extractMsP50: Math.round((extractMs[Math.floor(extractMs.length / 2)] ?? 0) * 10) / 10,
      extractMsMax: Math.round((extractMs[extractMs.length - 1] ?? 0) * 10) / 10,
    },
  };
};
