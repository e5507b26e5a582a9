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

/** The customer read from the page against the e-invoice's buyer, on one path. */
export interface BuyerFigures {
  /** Pages whose data names a buyer. */
  documents: number;
  found: number;
  right: number;
  /** Wrong customers at or above the threshold: a sure, wrong value. */
  wrongAtOrAboveThreshold: number;
  /** The highest confidence of a wrong customer (0 when none). */
  wrongMaxConfidence: number;
}

/** Buyer figures per path of the results that carry a buyer check. */
export const buyerFiguresOf = (
  results: readonly RealResult[],
  threshold: number,
): Record<string, BuyerFigures> => {
  const byPath: Record<string, BuyerFigures> = {};
  for (const r of results) {
    if (!r.buyer) continue;
    const f = byPath[r.variant.path] ?? {
      documents: 0,
      found: 0,
      right: 0,
      wrongAtOrAboveThreshold: 0,
      wrongMaxConfidence: 0,
    };
    byPath[r.variant.path] = f;
    f.documents += 1;
    if (!r.buyer.found) continue;
    f.found += 1;
    if (r.buyer.right) f.right += 1;
    else {
      if (r.buyer.confidence >= threshold / 100) f.wrongAtOrAboveThreshold += 1;
      f.wrongMaxConfidence = Math.max(f.wrongMaxConfidence, r.buyer.confidence);
    }
  }
  return byPath;
};

/** Prints the buyer table: one row per page path. */
export const printBuyer = (rows: Record<string, BuyerFigures>): void => {
  console.log("  customer read from the page against the e-invoice's buyer (not in the truth fields above)");
  console.log(
    `    ${'path'.padEnd(26)} ${'docs'.padStart(4)} ${'found'.padStart(6)} ${'right'.padStart(6)} ${'wrong>=thr'.padStart(10)} ${'max wrong conf'.padStart(14)}`,
  );
  for (const [path, f] of Object.entries(rows).sort()) {
    console.log(
      `    ${path.padEnd(26)} ${String(f.documents).padStart(4)} ${String(f.found).padStart(6)} ${String(f.right).padStart(6)} ${String(f.wrongAtOrAboveThreshold).padStart(10)} ${f.wrongMaxConfidence.toFixed(2).padStart(14)}`,
    );
  }
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
