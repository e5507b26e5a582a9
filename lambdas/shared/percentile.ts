/**
 * The nearest-rank `p`th percentile (0 < p <= 100) of `sorted`, ascending: always a value that was
 * measured, never one interpolated between two. Undefined for no values, since what an empty set
 * reads as (0, null, nothing) is the caller's to say.
 */
export const nearestRank = (sorted: readonly number[], p: number): number | undefined =>
  sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))];
