import { SendTaskHeartbeatCommand } from '@aws-sdk/client-sfn';
import { claimExpiry } from '../claimWindow.js';
import { describeIssues } from '../plainIssues.js';
import type { Principal } from '../principal.js';
import { type WorkflowItem, when } from '../store/index.js';
import { claimAsSeen } from './claims.js';
import { bodyIssues, ClaimBodySchema } from './decision.js';
import type { ReviewDeps } from './deps.js';
import { UnprocessableError } from './errors.js';
import { loadForTenant } from './loadForTenant.js';
import { explainLostWrite, openForAction, reviewTimedOut } from './openReview.js';
import { tokenGone } from './outbox.js';
import { recordedHeartbeatSeconds, reviewDueAt } from './reviewWindow.js';

/**
 * Sends `SendTaskHeartbeat`. A token that is gone may only be stale: request-review stores a new
 * one when the review is re-armed (retry, resume after a restart), so the current one is tried
 * before calling the review timed out.
 */
const heartbeat = async (
  deps: ReviewDeps,
  principal: Principal,
  item: WorkflowItem,
  firstTry = true,
): Promise<void> => {
  try {
    await deps.sfn.send(new SendTaskHeartbeatCommand({ taskToken: item.reviewTaskToken }));
  } catch (error) {
    if (!tokenGone(error)) throw error;
    const current = firstTry ? await loadForTenant(deps, principal, item.id) : item;
    if (current.reviewTaskToken && current.reviewTaskToken !== item.reviewTaskToken)
      return heartbeat(deps, principal, current, false);
    throw reviewTimedOut(item.id);
  }
};

/**
 * Claims a review: records who is on it, since when and until when (`claimTtlSeconds` from now),
 * and sends `SendTaskHeartbeat`, so human activity restarts the timeout window. A claim is
 * exclusive while it lasts: while another reviewer holds it the answer is 409 naming them, unless
 * the body says `takeOver`. Claiming again as the holder renews it (and is a heartbeat); a claim
 * that ran out is simply replaced (`lapsedClaimOf` says whose it was).
 */
export const claimReview = async (deps: ReviewDeps, principal: Principal, id: string, body: unknown = {}) => {
  const parsed = ClaimBodySchema.safeParse(body);
  if (!parsed.success) {
    const issues = bodyIssues(parsed.error, body);
    throw new UnprocessableError(
      `Nothing was claimed: ${describeIssues(issues)}. A claim takes an empty body, or ` +
        '{"takeOver": true} to take over another reviewer\'s claim.',
      { issues },
    );
  }
  const { item, now, held, other } = await openForAction(
    deps,
    principal,
    id,
    'claim',
    parsed.data.takeOver === true,
  );
  // Step Functions re-arms the heartbeat with the value the Task started with, not the configured
  // timeout: after a resume that was only what was left of the review.
  const dueAt = reviewDueAt(now, recordedHeartbeatSeconds(item));
  const renewing = held?.by === principal.user;
  const claimedAt = (renewing && held.since) || now.toISOString();
  const claimExpiresAt = claimExpiry(now, deps.claimTtlSeconds);
  const lapsed = !held && item.review?.claimedBy !== principal.user ? item.review?.claimedBy : undefined;
  await heartbeat(deps, principal, item);
  try {
    // Only over the claim this caller saw: of two racing claims one wins, a take-over cannot
    // silently replace a third reviewer who took over in between, and a claim that ran out is
    // replaced only while its holder has not come back to renew it.
    const updated = await deps.store.update(
      id,
      {
        'review.claimedBy': principal.user,
        'review.claimedAt': claimedAt,
        'review.claimExpiresAt': claimExpiresAt,
        'review.dueAt': dueAt,
      },
      {
        tenant: principal.tenant,
        expectState: 'review_required',
        when: when.all(
          when.absent('review.decision'),
          when.any(when.equals('review.claimedBy', principal.user), claimAsSeen(item.review)),
        ),
      },
    );
    return {
      workflowId: id,
      claimedBy: principal.user,
      claimedAt,
      claimExpiresAt,
      dueAt: updated.review?.dueAt,
      ...(other && { takenOverFrom: other }),
      ...(lapsed && { lapsedClaimOf: lapsed }),
    };
  } catch (error) {
    return explainLostWrite(deps, principal, id, 'claim', error);
  }
};
