import { SendTaskSuccessCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { StagePolicy } from '../../statemachine/index.js';
import { StageOutOfOrderError } from '../shared/stageRunner.js';
import type { WorkflowStore } from '../shared/store/workflowStore.js';

/** What request-review returns (Step Functions ignores it while the task waits for its token). */
export interface RequestReviewResult {
  workflowId: string;
  dueAt: string;
  /** True when a decision recorded earlier was handed to the new task at once. */
  redelivered?: boolean;
}

/**
 * Stores the task token server-side and sets when the review is due. A review resumed after a
 * restart keeps the due time it already had, so it waits only for what is left of it. A review
 * resumed after its decision was recorded (apply-review failed before its write) gets that
 * decision at once: the reviewer is not asked twice.
 */
export const requestReview = async (
  deps: { store: WorkflowStore; sfn: SFNClient; now: () => Date },
  input: { workflowId: string; taskToken: string; policy: StagePolicy },
): Promise<RequestReviewResult> => {
  const item = await deps.store.get(input.workflowId);
  if (item.state !== 'review_required') {
    throw new StageOutOfOrderError('request-review', item.id, item.state);
  }
  const dueAt =
    item.review?.dueAt ??
    new Date(deps.now().getTime() + input.policy.reviewTimeoutSeconds * 1000).toISOString();
  // The timeout travels with the review so a claim (heartbeat) can extend it by the same amount.
  const timeoutSeconds = input.policy.reviewTimeoutSeconds;
  const review = item.review
    ? { 'review.dueAt': dueAt, 'review.timeoutSeconds': timeoutSeconds }
    : { review: { priority: 0, reasons: [], dueAt, timeoutSeconds } };
  await deps.store.update(
    item.id,
    { reviewTaskToken: input.taskToken, ...review },
    { expectState: 'review_required' },
  );
  if (item.review?.decision) {
    await deps.sfn.send(
      new SendTaskSuccessCommand({
        taskToken: input.taskToken,
        output: JSON.stringify(item.review.decision),
      }),
    );
    return { workflowId: item.id, dueAt, redelivered: true };
  }
  return { workflowId: item.id, dueAt };
};
