/*
 * Durations and decisions of review policies, without zod: the compiled definition's builder and
 * the stages use them, and the Lambda bundles need not carry the policy file's schema.
 */

const DURATION_UNITS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;
export const DURATION = /^(\d{1,7})(s|m|h|d)$/;

/** Seconds of a duration such as `90s`, `30m`, `24h`, `7d`. */
export const durationSeconds = (text: string): number => {
  const match = DURATION.exec(text);
  if (!match) throw new RangeError(`not a duration: ${text}`);
  return Number(match[1]) * DURATION_UNITS[match[2] as keyof typeof DURATION_UNITS];
};

/** A reviewer's decision: the events an approval step can take. */
export const DECISIONS = ['approve', 'correct', 'reject'] as const;
/** A reviewer's decision. */
export type Decision = (typeof DECISIONS)[number];
