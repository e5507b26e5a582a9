import { nearestRank } from '../../lambdas/shared/percentile.js';

/*
 * The summary statistics the benches print, in one place so every bench reads "median" and "p95"
 * the same way.
 */

/** The middle value (the upper of the two middle ones for an even count); NaN for no values. */
export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The nearest-rank `p`th percentile of values sorted ascending (`nearestRank`); 0 for no values. */
export const percentile = (sorted: readonly number[], p: number): number => nearestRank(sorted, p) ?? 0;
