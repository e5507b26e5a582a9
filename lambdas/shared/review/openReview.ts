import { type HeldClaim, heldClaim } from '../claimWindow.js';
import type { Principal } from '../principal.js';
import { StaleWorkflowError, type WorkflowItem } from '../store/index.js';
import type { ReviewDeps } from './deps.js';
import { ConflictError, GoneError, ReviewClaimedError, ReviewNotReadyError } from './errors.js';
import { loadForTenant } from './loadForTenant.js';
import { deliverPending } from './outbox.js';
import { assertMayActAtStep } from './stepGuard.js';

/** 410 for a review whose time ran out: nothing was, or will be, changed. */
export const reviewTimedOut = (id: string, details?: Record<string, unknown>, dueAt?: string) =>
  new GoneError(
    `The review of ${id} timed out${dueAt ? ` at ${dueAt}` : ''}; nothing was changed. Its time ran out ` +
      'before a decision: upload the document again to have it reviewed.',
    { ...details, ...(dueAt && { dueAt }) },
  );

/**
 * Refuses a review that can no longer be claimed or decided: decided or not waiting (409), out of
 * time (410), or not set up yet (its task token not stored: a retryable 409).
 */
export const assertOpen = (item: WorkflowItem, now: Date): void => {
  if (
    item.state === 'timed_out' ||
    (item.state === 'review_required' && item.review?.dueAt && Date.parse(item.review.dueAt) <= now.getTime())
  ) {
    throw reviewTimedOut(item.id, { state: item.state }, item.review?.dueAt);
  }
  if (item.state !== 'review_required') {
    throw new ConflictError(
      `Workflow ${item.id} is ${item.state}, not waiting for review; there is nothing to decide ` +
        `(docket show ${item.id} says what became of it).`,
      { state: item.state },
    );
  }
  const decision = item.review?.decision;
  if (decision) {
    throw new ConflictError(
      `${decision.reviewer} already decided "${decision.decision}" at ${decision.at}; nothing was changed. ` +
        'Pick another review from the queue.',
      { decision },
    );
  }
  if (!item.reviewTaskToken) throw new ReviewNotReadyError(item.id);
};

/** A claim or a decision: what the caller is about to do to a review. */
type Action = 'claim' | 'decide';

/** 409 naming the holder of a claim in force, with how long it holds. */
const claimedBy = (id: string, claim: HeldClaim, action: Action) =>
  new ReviewClaimedError(
    id,
    claim.by,
    { ...(claim.since && { claimedAt: claim.since }), claimExpiresAt: claim.until },
    action,
  );

/**
 * The caller's review, open for a claim or a decision: it is waiting, in time and set up, and not
 * held by another reviewer unless the caller takes it over (`other` is whose claim that takes). A
 * claim that ran out holds nobody: it is no take-over, and the caller may claim or decide at once.
 * A decision a crash left undelivered goes out first; the caller then meets it as "already
 * decided".
 */
export const openForAction = async (
  deps: ReviewDeps,
  principal: Principal,
  id: string,
  action: Action,
  takeOver: boolean,
): Promise<{ item: WorkflowItem; now: Date; held?: HeldClaim; other?: string }> => {
  const item = await loadForTenant(deps, principal, id);
  await deliverPending(deps, item);
  const now = deps.now();
  assertOpen(item, now);
  assertMayActAtStep(item, principal);
  const held = heldClaim(item.review, now, deps.claimTtlSeconds);
  const other = held && held.by !== principal.user ? held.by : undefined;
  if (held && other && !takeOver) throw claimedBy(id, held, action);
  return { item, now, ...(held && { held }), ...(other && { other }) };
};

/**
 * Why a claim's or a decision's conditional write found the review changed since it was read:
 * decided, out of time, or claimed by someone else meanwhile (409 naming them). Rethrows `error`
 * when it was something else.
 */
export const explainLostWrite = async (
  deps: ReviewDeps,
  principal: Principal,
  id: string,
  action: Action,
  error: unknown,
): Promise<never> => {
  if (error instanceof StaleWorkflowError) {
    const current = await loadForTenant(deps, principal, id);
    const now = deps.now();
    assertOpen(current, now);
    const winner = heldClaim(current.review, now, deps.claimTtlSeconds);
    if (winner && winner.by !== principal.user) throw claimedBy(id, winner, action);
  }
  throw error;
};
