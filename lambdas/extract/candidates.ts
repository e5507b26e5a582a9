import { EVIDENCE_WEIGHT, type Evidence, withEvidence } from '../shared/documents/index.js';
import { type DocLine, ocrConfidenceOf } from './text/textIndex.js';

/** How a candidate was read: next to a label, from where it sits, from data, or by a model. */
export type Reading = 'label' | 'position' | 'structured' | 'model';

/** One reading of a field: a value, how strongly it was read, and the line it came from. */
export interface Candidate<V> {
  value: V;
  /** Reading strength 0-1 (label strength x how cleanly the value parsed). */
  confidence: number;
  line: DocLine;
  /** How it was read (default: `label`). */
  reading?: Reading;
  /** Other readings of the same text (an ambiguous date). */
  alternatives?: V[];
  /** Which finder produced it (for the evidence's detail, debugging and tests). */
  via: string;
  /** Checks the finder already made (a sum that holds, another place that agrees). */
  evidence?: Evidence[];
}

/** The reading chosen for a field, with the evidence for it. */
export interface Chosen<V> extends Candidate<V> {
  /** How many candidates agreed with it. */
  support: number;
  evidence: Evidence[];
}

/** Above this, a disagreeing reading is real doubt, not noise. */
const DOUBT_FLOOR = 0.6;

const where = (line: DocLine): string => `p${line.page} l${line.line}`;

/**
 * Picks a field's value from its candidates and says why. Readings with the same key agree; a
 * reading found on another line is independent agreement. A disagreeing reading that is itself
 * credible is a conflict, so a document that says two different things goes to a human. The OCR
 * engine's confidence in the words that print the chosen value (`ocrConfidenceOf`) scales the
 * result. Confidence itself is computed by `confidenceFrom` from the evidence returned here (and
 * what validation adds).
 */
export const choose = <V>(
  candidates: readonly Candidate<V>[],
  key: (value: V) => string,
  describe: (value: V) => string = (v) => JSON.stringify(v),
): Chosen<V> | undefined => {
  if (candidates.length === 0) return undefined;
  const groups = new Map<string, Candidate<V>[]>();
  for (const c of candidates) {
    const k = key(c.value);
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const scored = [...groups.values()]
    .map((group) => {
      const best = group.reduce((a, b) => (b.confidence > a.confidence ? b : a));
      const lines = [...new Map(group.map((c) => [c.line.index, c])).values()];
      return { best, group, lines, score: best.confidence + (lines.length > 1 ? 0.02 : 0) };
    })
    .sort((a, b) => b.score - a.score);
  const [top, runnerUp] = scored as [(typeof scored)[number], (typeof scored)[number] | undefined];
  const { best } = top;
  let evidence: Evidence[] = [
    { kind: best.reading ?? 'label', weight: best.confidence, detail: `${best.via} at ${where(best.line)}` },
  ];
  const elsewhere = top.lines.find((c) => c.line.index !== best.line.index);
  if (elsewhere) {
    evidence = withEvidence(evidence, {
      kind: 'agreement',
      weight: EVIDENCE_WEIGHT.agreement,
      detail: `the same value at ${where(elsewhere.line)} (${elsewhere.via})`,
    });
  }
  for (const c of top.group) evidence = withEvidence(evidence, ...(c.evidence ?? []));
  // Rounded: a weak label's 0.8 - 0.2 is 0.6000000000000001 in floating point, not above the floor.
  if (runnerUp && Math.round(runnerUp.best.confidence * 1000) / 1000 > DOUBT_FLOOR) {
    evidence = withEvidence(evidence, {
      kind: 'conflict',
      weight: Math.min(0.9, (runnerUp.best.confidence - DOUBT_FLOOR) * 1.2 + 0.2),
      detail: `${where(runnerUp.best.line)} reads ${describe(runnerUp.best.value)} (${runnerUp.best.via})`,
    });
  }
  const ocr = ocrConfidenceOf(best.line, JSON.stringify(best.value));
  if (ocr !== undefined) {
    evidence = withEvidence(evidence, {
      kind: 'ocr',
      weight: Math.min(1, ocr / OCR_SURE),
      detail: `OCR read the value at ${where(best.line)} with ${Math.round(ocr * 100)}% confidence`,
    });
  }
  return { ...best, support: top.group.length, evidence };
};

/** OCR confidence at or above which the characters are taken as read (no scaling). */
const OCR_SURE = 0.9;
