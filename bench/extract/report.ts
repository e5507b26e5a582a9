import { type RealResult, requiredRight } from './runReal.js';

/** Figures of one group of real-document results (a path, a producer). */
export interface RealFigures {
  documents: number;
  fieldsRight: number;
  fieldsExpected: number;
  /** Share of truth fields extracted right, %. */
  fieldAccuracy: number;
  autoApproved: number;
  /** Share auto-approved, %. */
  automationRate: number;
  /** Auto-approved with a required field wrong. */
  wrongAutoApprovals: number;
  /** Auto-approved with any field wrong (the issue's "0 auto-approved with a wrong field"). */
  autoApprovedWithWrongField: number;
  /** Wrong values whose validated confidence is at or above the threshold. */
  wrongAtOrAboveThreshold: number;
  rejected: number;
  /** Documents in review (for mutated variants: should be all). */
  inReview: number;
}

const pct = (n: number, d: number): number => (d === 0 ? 0 : Math.round((1000 * n) / d) / 10);

/** The figures of a group of results. */
export const figuresOf = (results: readonly RealResult[], threshold: number): RealFigures => {
  const fields = results.flatMap((r) => r.fields);
  const right = fields.filter((f) => f.right).length;
  const approved = results.filter((r) => r.autoApproved);
  return {
    documents: results.length,
    fieldsRight: right,
    fieldsExpected: fields.length,
    fieldAccuracy: pct(right, fields.length),
    autoApproved: approved.length,
    automationRate: pct(approved.length, results.length),
    wrongAutoApprovals: approved.filter((r) => !requiredRight(r)).length,
    autoApprovedWithWrongField: approved.filter((r) => r.fields.some((f) => f.found && !f.right)).length,
    wrongAtOrAboveThreshold: fields.filter((f) => f.found && !f.right && f.confidence >= threshold / 100)
      .length,
    rejected: results.filter((r) => r.rejected).length,
    inReview: results.filter((r) => !r.autoApproved && !r.rejected).length,
  };
};

/** A value's confidence and whether it was right, for the reliability table. */
export interface Judged {
  confidence: number;
  right: boolean;
  /** Which document and field, for --verbose. */
  label?: string;
}

/** Confidence bands of the reliability table (lower bounds). */
const BANDS = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95] as const;

/** One band of the reliability table: how many values fell in it and the share right. */
export interface Band {
  band: string;
  values: number;
  right: number;
  shareRight: number;
}

/** Share of values right per confidence band: a calibrated extractor is right as often as it says. */
export const reliability = (values: readonly Judged[]): Band[] =>
  BANDS.map((low, i) => {
    const high = BANDS[i + 1] ?? 1.0001;
    const inBand = values.filter((v) => v.confidence >= low && v.confidence < high);
    const right = inBand.filter((v) => v.right).length;
    return {
      band: `${low.toFixed(2)}-${(BANDS[i + 1] ?? 1).toFixed(2)}`,
      values: inBand.length,
      right,
      shareRight: pct(right, inBand.length),
    };
  });

/** Prints a figures table: one row per group. */
export const printFigures = (title: string, rows: Record<string, RealFigures>): void => {
  console.log(`  ${title}`);
  console.log(
    `    ${'group'.padEnd(26)} ${'docs'.padStart(4)} ${'fields right'.padStart(14)} ${'auto'.padStart(10)} ${'wrong auto'.padStart(10)} ${'wrong>=thr'.padStart(10)} ${'rejected'.padStart(8)} ${'review'.padStart(6)}`,
  );
  for (const [group, f] of Object.entries(rows)) {
    console.log(
      `    ${group.padEnd(26)} ${String(f.documents).padStart(4)} ${`${f.fieldAccuracy}% ${f.fieldsRight}/${f.fieldsExpected}`.padStart(14)} ${`${f.automationRate}% ${f.autoApproved}`.padStart(10)} ${String(f.autoApprovedWithWrongField).padStart(10)} ${String(f.wrongAtOrAboveThreshold).padStart(10)} ${String(f.rejected).padStart(8)} ${String(f.inReview).padStart(6)}`,
    );
  }
};

/** Prints the reliability table. */
export const printReliability = (title: string, bands: readonly Band[]): void => {
  console.log(`  ${title}`);
  for (const b of bands) {
    console.log(
      `    ${b.band}  ${String(b.values).padStart(5)} values  ${`${b.shareRight}%`.padStart(6)} right`,
    );
  }
};
