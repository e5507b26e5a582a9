import { claimHeld } from './claimText.js';

/** What choosing the next review needs of a queue line. */
export interface QueueLine {
  id: string;
  claimedBy?: string;
  claimExpiresAt?: string;
}

/**
 * The review to offer after `current`: the next one down the queue (wrapping to the top), skipping
 * the one just decided and any another reviewer holds a claim on at `now` (a claim that ran out
 * holds nobody). After a decision the current review has left the queue, so this is the most
 * urgent one still open. Choosing it claims nothing: only opening a review does.
 */
export const nextReview = <T extends QueueLine>(
  items: readonly T[],
  at: { current?: string; decided?: string; user?: string; now: number },
): T | undefined => {
  const position = items.findIndex((i) => i.id === at.current);
  const ordered = position < 0 ? items : [...items.slice(position + 1), ...items.slice(0, position)];
  return ordered.find(
    (i) => i.id !== at.current && i.id !== at.decided && (!claimHeld(i, at.now) || i.claimedBy === at.user),
  );
};
