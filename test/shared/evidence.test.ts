import { describe, expect, it } from 'vitest';
import {
  confidenceFrom,
  EVIDENCE_WEIGHT,
  type Evidence,
  type EvidenceKind,
  EvidenceKindSchema,
  isCorroborated,
  UNCORROBORATED_CAP,
  withEvidence,
} from '../../lambdas/shared/documents/index.js';

/** One piece of evidence. */
const ev = (kind: EvidenceKind, weight: number, detail = `${kind} ${weight}`): Evidence => ({
  kind,
  weight,
  detail,
});

const READINGS: readonly EvidenceKind[] = ['structured', 'label', 'position', 'model', 'grounded'];
const CHECKS = ['agreement', 'arithmetic', 'master', 'checksum'] as const;

/** A strong label: the best reading a text finder gives. */
const strongLabel = ev('label', EVIDENCE_WEIGHT.strongLabel);

describe('confidenceFrom', () => {
  it('names every kind of evidence either a reading, a check or a modifier (no kind left out of the rules)', () => {
    // Prepare
    const modifiers = ['conflict', 'ocr', 'ambiguous'];

    // Act
    const kinds = EvidenceKindSchema.options;

    // Assess
    expect([...kinds].sort()).toEqual([...READINGS, ...CHECKS, ...modifiers].sort());
  });

  it.each(READINGS)('keeps a value read only by %s at or below the cap, however sure the reading', (kind) => {
    // Prepare: the surest reading there can be, and the same reading found three times over.
    const sure = [ev(kind, 1)];
    const repeated = [ev(kind, 0.9, 'a'), ev(kind, 0.9, 'b'), ev('label', 0.9, 'c')];

    // Act
    const alone = confidenceFrom(sure);
    const stacked = confidenceFrom(repeated);

    // Assess: below the 0.80 auto-approve threshold, whatever the reading.
    expect(alone).toBe(UNCORROBORATED_CAP);
    expect(stacked).toBe(UNCORROBORATED_CAP);
    expect(UNCORROBORATED_CAP).toBeLessThan(0.8);
    expect(isCorroborated(repeated)).toBe(false);
  });

  it.each(CHECKS)('lifts a strong label past the cap and the threshold when %s corroborates it', (kind) => {
    // Prepare
    const evidence = [strongLabel, ev(kind, EVIDENCE_WEIGHT[kind])];

    // Act
    const confidence = confidenceFrom(evidence);

    // Assess: combined as independent supports, 1 - (1 - 0.8)(1 - w).
    const expected = 1 - (1 - EVIDENCE_WEIGHT.strongLabel) * (1 - EVIDENCE_WEIGHT[kind]);
    expect(confidence).toBeCloseTo(expected, 3);
    expect(confidence).toBeGreaterThan(0.8);
    expect(isCorroborated(evidence)).toBe(true);
  });

  it('does not count a check of weight 0 as corroboration', () => {
    // Prepare
    const evidence = [ev('label', 0.95), ev('arithmetic', 0)];

    // Act
    const confidence = confidenceFrom(evidence);

    // Assess
    expect(confidence).toBe(UNCORROBORATED_CAP);
    expect(isCorroborated(evidence)).toBe(false);
  });

  it('never reaches certainty: several checks together stop at 0.99', () => {
    // Act
    const confidence = confidenceFrom([
      ev('structured', 1),
      ev('arithmetic', 1),
      ev('master', 1),
      ev('agreement', 1),
    ]);

    // Assess
    expect(confidence).toBe(0.99);
  });

  it("scales a corroborated value down by the OCR engine's certainty, and leaves it alone at certainty 1", () => {
    // Prepare
    const read = [strongLabel, ev('arithmetic', EVIDENCE_WEIGHT.arithmetic)];
    const clean = confidenceFrom(read);

    // Act
    const sure = confidenceFrom([...read, ev('ocr', 1)]);
    const blurred = confidenceFrom([...read, ev('ocr', 0.6)]);
    const illegible = confidenceFrom([...read, ev('ocr', 0.2)]);

    // Assess
    expect(sure).toBe(clean);
    expect(blurred).toBeCloseTo(clean * 0.6, 2);
    expect(illegible).toBeCloseTo(clean * 0.2, 2);
    expect(blurred).toBeLessThan(0.8);
  });

  it('scales an ambiguous value down by its weight, after the cap', () => {
    // Prepare: a date that reads two ways, under a strong label, also printed elsewhere.
    const read = [strongLabel, ev('agreement', EVIDENCE_WEIGHT.agreement)];

    // Act
    const plain = confidenceFrom(read);
    const ambiguous = confidenceFrom([...read, ev('ambiguous', 0.5)]);
    const uncorroboratedAmbiguous = confidenceFrom([strongLabel, ev('ambiguous', 0.5)]);

    // Assess
    expect(ambiguous).toBeCloseTo(plain * 0.5, 2);
    expect(uncorroboratedAmbiguous).toBeCloseTo(UNCORROBORATED_CAP * 0.5, 3);
  });

  it('lowers a value by a conflicting reading, more for a stronger conflict, even when corroborated', () => {
    // Prepare
    const read = [strongLabel, ev('arithmetic', EVIDENCE_WEIGHT.arithmetic)];

    // Act
    const plain = confidenceFrom(read);
    const weak = confidenceFrom([...read, ev('conflict', 0.2)]);
    const strong = confidenceFrom([...read, ev('conflict', 0.6)]);

    // Assess
    expect(weak).toBeCloseTo(plain * 0.8, 2);
    expect(strong).toBeCloseTo(plain * 0.4, 2);
    expect(weak).toBeLessThan(0.8);
  });

  it('gives 0 for no evidence, and for modifiers without any reading or check', () => {
    // Act
    const none = confidenceFrom([]);
    const onlyModifiers = confidenceFrom([ev('ocr', 1), ev('conflict', 0.3), ev('ambiguous', 0.9)]);

    // Assess
    expect(none).toBe(0);
    expect(onlyModifiers).toBe(0);
  });

  it('keeps a floor of 0.05 for a value that was read at all, however weak or contradicted', () => {
    // Act
    const faint = confidenceFrom([ev('position', 0.01)]);
    const contradicted = confidenceFrom([ev('label', 0.9), ev('conflict', 1)]);

    // Assess: ranking still works between read values; an unread value (0) stays below them.
    expect(faint).toBe(0.05);
    expect(contradicted).toBe(0.05);
  });
});

describe('withEvidence', () => {
  it('drops an exact repeat, keeps the same kind with another detail, and bounds the list at 12', () => {
    // Prepare
    const start = [ev('label', 0.8, 'label at p1 l2')];
    const many = Array.from({ length: 20 }, (_, i) => ev('agreement', 0.7, `line ${i}`));

    // Act
    const repeated = withEvidence(start, ev('label', 0.8, 'label at p1 l2'), ev('label', 0.8, 'at p1 l9'));
    const bounded = withEvidence(start, ...many);
    const long = withEvidence([], ev('master', 0.9, 'x'.repeat(400)));

    // Assess
    expect(repeated.map((e) => e.detail)).toEqual(['label at p1 l2', 'at p1 l9']);
    expect(bounded).toHaveLength(12);
    expect(long[0]?.detail).toHaveLength(300);
    expect(start).toHaveLength(1);
  });
});
