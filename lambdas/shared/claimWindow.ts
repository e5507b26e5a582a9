import { intEnv } from './env.js';
import { ConfigurationError } from './errors.js';
import type { ReviewInfo } from './store/index.js';

/*
 * How long a review claim holds. A claim says "I am on this one": it is exclusive while it lasts,
 * and it lasts `claimTtlSeconds` from the holder's last activity (a claim call, a decision). A
 * reviewer who steps away loses it by themselves; nobody needs to take it over. Kept apart from
 * the review module so the CLI reads it at start without loading that module's schemas.
 */

/**
 * The variable that sets it (`EnvVar.claimTtlSeconds`). Named here, not read from config.ts: that
 * module loads the store, and the CLI reads this at every start.
 */
export const CLAIM_TTL_ENV = 'DOCKET_CLAIM_TTL_SECONDS';

/** How long a claim lasts without activity when nothing is configured: 15 minutes. */
export const DEFAULT_CLAIM_TTL_SECONDS = 900;
/** The shortest and longest claim that can be configured (10 s for trying it out, a day at most). */
export const CLAIM_TTL_RANGE = { min: 10, max: 86_400 } as const;

/**
 * Checks a claim length from any source (environment, `docket start --claim-ttl`, CDK context):
 * a whole number of seconds in `CLAIM_TTL_RANGE`, else a `ConfigurationError` naming `source`.
 */
export const checkClaimTtl = (seconds: number, source: string): number => {
  if (!Number.isInteger(seconds) || seconds < CLAIM_TTL_RANGE.min || seconds > CLAIM_TTL_RANGE.max) {
    throw new ConfigurationError(
      `${source} must be whole seconds from ${CLAIM_TTL_RANGE.min} to ${CLAIM_TTL_RANGE.max} ` +
        `(how long a review claim lasts without activity; default ${DEFAULT_CLAIM_TTL_SECONDS}); got ${seconds}.`,
    );
  }
  return seconds;
};

/**
 * The claim length the review API (and `docket review`) works with, read once from
 * `DOCKET_CLAIM_TTL_SECONDS` (bound by the reviewer API's construct on AWS, by the local runtime on
 * one machine); 15 minutes when unset.
 */
export const claimTtlFromEnv = (env: NodeJS.ProcessEnv = process.env): number =>
  checkClaimTtl(intEnv(CLAIM_TTL_ENV, DEFAULT_CLAIM_TTL_SECONDS, env), CLAIM_TTL_ENV);

/** A claim in force: who holds the review, since when, and until when unless they act again. */
export interface HeldClaim {
  by: string;
  since?: string;
  until: string;
}

/** When a claim made or renewed at `at` runs out. */
export const claimExpiry = (at: Date, ttlSeconds: number): string =>
  new Date(at.getTime() + ttlSeconds * 1000).toISOString();

/**
 * The claim on a review as of `now`, or undefined when nobody holds it: never claimed, or the
 * holder's claim ran out. A claim recorded before claims expired has no `claimExpiresAt`: it
 * lasts `ttlSeconds` from `claimedAt`, and one with neither time is treated as run out.
 */
export const heldClaim = (
  review: Pick<ReviewInfo, 'claimedBy' | 'claimedAt' | 'claimExpiresAt'> | undefined,
  now: Date,
  ttlSeconds: number,
): HeldClaim | undefined => {
  const by = review?.claimedBy;
  if (!by) return undefined;
  const until =
    review.claimExpiresAt ??
    (review.claimedAt ? claimExpiry(new Date(review.claimedAt), ttlSeconds) : undefined);
  if (!until || Date.parse(until) <= now.getTime()) return undefined;
  return { by, until, ...(review.claimedAt && { since: review.claimedAt }) };
};
