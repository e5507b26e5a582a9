import { type Condition, type ReviewInfo, when } from '../store/index.js';

/**
 * The store condition that holds while the claim is still as it was read: the same holder with
 * the same expiry (a renewal in between changes it), or still nobody. A claim or a decision
 * over a claim that ran out writes only on it, so it cannot replace a holder who just came back.
 */
export const claimAsSeen = (
  seen: Pick<ReviewInfo, 'claimedBy' | 'claimExpiresAt'> | undefined,
): Condition => {
  if (!seen?.claimedBy) return when.absent('review.claimedBy');
  return when.all(
    when.equals('review.claimedBy', seen.claimedBy),
    seen.claimExpiresAt
      ? when.equals('review.claimExpiresAt', seen.claimExpiresAt)
      : when.absent('review.claimExpiresAt'),
  );
};
