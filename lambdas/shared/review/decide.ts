import { claimExpiry } from '../claimWindow.js';
import type { Principal } from '../principal.js';
import { checkDecision, parseDecisionBody } from './checkDecision.js';
import type { ReviewDecision } from './decision.js';
import type { ReviewDeps } from './deps.js';
import { explainLostWrite, openForAction, reviewTimedOut } from './openReview.js';
import { deliverDecision, recordDecision, tokenGone } from './outbox.js';

/**
 * Decides a review; exactly one decision wins. The decision is checked, recorded in the outbox
 * (a second decision finds it and gets 409, one after the deadline 410) and delivered to the
 * waiting review task; if the state machine no longer takes it, it is retracted and nothing
 * changed. The review API, the console (through the API) and `docket review` all decide here.
 *
 * Claims hold while they last: a review another reviewer holds is refused with 409 naming them,
 * unless the body says `takeOver` (the decision then records whose claim it took, and apply-review
 * logs it). A decision on an unclaimed review, or one whose claim ran out, claims it; the
 * decider's own claim is renewed.
 */
export const decideReview = async (
  deps: ReviewDeps,
  principal: Principal,
  id: string,
  body: unknown,
): Promise<{ workflowId: string; decision: ReviewDecision }> => {
  const request = parseDecisionBody(body);
  const { item, now, other } = await openForAction(deps, principal, id, 'decide', request.takeOver === true);
  const checked = await checkDecision(deps, item, request);
  const decision: ReviewDecision = {
    decision: checked.decision,
    reviewer: principal.user,
    at: now.toISOString(),
    ...(checked.reason && { reason: checked.reason }),
    ...(checked.corrections && { corrections: checked.corrections }),
    ...(checked.docType && { docType: checked.docType }),
    ...(other && { takenOverFrom: other }),
  };

  const seen = item.review;
  const claim = seen?.claimedBy
    ? { claimedBy: seen.claimedBy, claimedAt: seen.claimedAt, claimExpiresAt: seen.claimExpiresAt }
    : undefined;
  const claimExpiresAt = claimExpiry(now, deps.claimTtlSeconds);
  const recorded = await recordDecision(
    deps.store,
    { id, tenant: principal.tenant, claim, claimExpiresAt },
    decision,
  ).catch((error: unknown) => explainLostWrite(deps, principal, id, 'decide', error));
  const { delivery, error } = await deliverDecision(
    deps,
    id,
    recorded.written.reviewTaskToken ?? item.reviewTaskToken,
    decision,
    recorded.undo,
  );
  if (delivery === 'retracted') throw tokenGone(error) ? reviewTimedOut(id) : error;
  return { workflowId: id, decision };
};
