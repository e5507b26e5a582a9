import { SendTaskHeartbeatCommand } from '@aws-sdk/client-sfn';
import type { Principal } from '../principal.js';
import { type WorkflowItem, when } from '../store/index.js';
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
 * Claims a review: records who is on it and sends `SendTaskHeartbeat`, so human activity restarts
 * the timeout window. A claim is exclusive: while another reviewer holds it the answer is 409
 * naming them, unless the body says `takeOver`. Claiming again as the holder is a heartbeat.
 */
export const claimReview = async (deps: ReviewDeps, principal: Principal, id: string, body: unknown = {}) => {
  const parsed = ClaimBodySchema.safeParse(body);
  if (!parsed.success) {
    throw new UnprocessableError('Send {} to claim, or {"takeOver": true} to take over another claim.', {
      issues: bodyIssues(parsed.error),
    });
  }
  const { item, now, other } = await openForAction(
    deps,
    principal,
    id,
    'claim',
    parsed.data.takeOver === true,
  );
  // Step Functions re-arms the heartbeat with the value the Task started with, not the configured
  // timeout: after a resume that was only what was left of the review.
  const dueAt = reviewDueAt(now, recordedHeartbeatSeconds(item));
  await heartbeat(deps, principal, item);
  try {
    // Only over the claim this caller saw: of two racing claims one wins, and a take-over cannot
    // silently replace a third reviewer who took over in between.
    const updated = await deps.store.update(
      id,
      { 'review.claimedBy': principal.user, 'review.claimedAt': now.toISOString(), 'review.dueAt': dueAt },
      {
        tenant: principal.tenant,
        expectState: 'review_required',
        when: when.all(
          when.absent('review.decision'),
          when.any(
            when.absent('review.claimedBy'),
            when.equals('review.claimedBy', principal.user),
            when.equals('review.claimedBy', other ?? principal.user),
          ),
        ),
      },
    );
    return {
      workflowId: id,
      claimedBy: principal.user,
      dueAt: updated.review?.dueAt,
      ...(other && { takenOverFrom: other }),
    };
  } catch (error) {
    return explainLostWrite(deps, principal, id, 'claim', error);
  }
};
