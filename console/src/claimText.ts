/** A review's claim as the API reports it. */
export interface ClaimLine {
  claimedBy?: string;
  claimedAt?: string;
  claimExpiresAt?: string;
}

/**
 * Whether a claim holds at `now`: it has a holder and has not run out. A claim recorded before
 * claims expired has no expiry here; it counts as held (the API judges it by its age).
 */
export const claimHeld = (claim: ClaimLine, now: number): boolean =>
  Boolean(claim.claimedBy) && (!claim.claimExpiresAt || Date.parse(claim.claimExpiresAt) > now);

/** `14:05`: a time of today as the reviewer's clock shows it. */
const clockTime = (iso: string, locale?: string): string =>
  new Date(iso).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });

/**
 * Who holds a review, since when and until when, in words for the queue and the review's head:
 * "alice since 14:05, until 14:20"; "free (bob's claim ran out at 13:50)"; "—" when never claimed.
 * `you` names the signed-in reviewer's own claim as theirs.
 */
export const claimText = (claim: ClaimLine, now: number, you?: string, locale?: string): string => {
  if (!claim.claimedBy) return '—';
  const who = claim.claimedBy === you ? `${claim.claimedBy} (you)` : claim.claimedBy;
  if (!claimHeld(claim, now)) {
    return `free (${claim.claimedBy}'s claim ran out${claim.claimExpiresAt ? ` at ${clockTime(claim.claimExpiresAt, locale)}` : ''})`;
  }
  const since = claim.claimedAt ? ` since ${clockTime(claim.claimedAt, locale)}` : '';
  const until = claim.claimExpiresAt ? `, until ${clockTime(claim.claimExpiresAt, locale)}` : '';
  return `${who}${since}${until}`;
};
