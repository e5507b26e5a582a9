import type { Principal } from '../principal.js';
import { StaleWorkflowError } from '../store/index.js';
import { checkDecision, parseDecisionBody } from './checkDecision.js';
import type { ReviewDecision } from './decision.js';
import type { ReviewDeps } from './deps.js';
import { loadForTenant } from './loadForTenant.js';
import { assertOpen, reviewTimedOut } from './openReview.js';
import { deliverDecision, recordDecision, tokenGone } from './outbox.js';

/**
 * Decides a review; exactly one decision wins. The decision is checked, recorded in the outbox
 * (a second decision finds it and gets 409, one after the deadline 410) and delivered to the
 * waiting review task; if the state machine no longer takes it, it is retracted and nothing
 * changed. The review API, the console (through the API) and `docket review` all decide here.
 */
export const decideReview = async (
  deps: ReviewDeps,
  principal: Principal,
  id: string,
  body: unknown,
): Promise<{ workflowId: string; decision: ReviewDecision }> => {
  const request = parseDecisionBody(body);
  const item = await loadForTenant(deps, principal, id);
  const now = deps.now();
  assertOpen(item, now);
  const checked = await checkDecision(deps, item, request);
  const decision: ReviewDecision = {
    decision: checked.decision,
    reviewer: principal.user,
    at: now.toISOString(),
    ...(checked.reason && { reason: checked.reason }),
    ...(checked.corrections && { corrections: checked.corrections }),
  };

  let written: Awaited<ReturnType<typeof recordDecision>>;
  try {
    written = await recordDecision(deps.store, { id, tenant: principal.tenant }, decision);
  } catch (error) {
    if (error instanceof StaleWorkflowError) assertOpen(await loadForTenant(deps, principal, id), deps.now());
    throw error;
  }
  const { delivery, error } = await deliverDecision(
    deps,
    id,
    written.reviewTaskToken ?? item.reviewTaskToken,
    decision,
  );
  if (delivery === 'retracted') throw tokenGone(error) ? reviewTimedOut(id) : error;
  return { workflowId: id, decision };
};
