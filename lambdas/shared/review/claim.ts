import { SendTaskHeartbeatCommand } from '@aws-sdk/client-sfn';
import type { Principal } from '../principal.js';
import { StaleWorkflowError, type WorkflowItem, when } from '../store/index.js';
import { bodyIssues, ClaimBodySchema } from './decision.js';
import type { ReviewDeps } from './deps.js';
import { ReviewClaimedError, UnprocessableError } from './errors.js';
import { loadForTenant } from './loadForTenant.js';
import { assertOpen, reviewTimedOut } from './openReview.js';
import { deliverPending, tokenGone } from './outbox.js';

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
  const takeOver = parsed.data.takeOver === true;
  const item = await loadForTenant(deps, principal, id);
  // A decision a crash left undelivered goes out now; the claim then meets it as "already decided".
  await deliverPending(deps, item);
  const now = deps.now();
  assertOpen(item, now);
  const holder = item.review?.claimedBy;
  const other = holder !== undefined && holder !== principal.user ? holder : undefined;
  if (other && !takeOver) throw new ReviewClaimedError(id, other, item.review?.claimedAt);
  const dueAt = new Date(now.getTime() + (item.review?.timeoutSeconds ?? 86_400) * 1000).toISOString();
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
    if (error instanceof StaleWorkflowError) {
      const current = await loadForTenant(deps, principal, id);
      assertOpen(current, deps.now());
      const winner = current.review?.claimedBy;
      if (winner && winner !== principal.user)
        throw new ReviewClaimedError(id, winner, current.review?.claimedAt);
    }
    throw error;
  }
};
