import { SendTaskSuccessCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { StagePolicy } from '../../statemachine/index.js';
import { type ReviewDecision, recordsDecision } from '../shared/reviewDecision.js';
import { StageOutOfOrderError } from '../shared/stageRunner.js';
import { StaleWorkflowError, type WorkflowStore, when } from '../shared/store/index.js';

/** What request-review returns (Step Functions ignores it while the task waits for its token). */
export interface RequestReviewResult {
  workflowId: string;
  dueAt: string;
  /** True when a decision recorded earlier was handed to the new task at once. */
  redelivered?: boolean;
}

type Deps = { store: WorkflowStore; sfn: SFNClient; now: () => Date };

/**
 * Answers this task with a decision already recorded on the item, as the review API would have:
 * `SendTaskSuccess` with the decision record as output, which apply-review receives as `$.review`.
 */
const redeliver = async (
  deps: Deps,
  input: { workflowId: string; taskToken: string },
  decision: ReviewDecision,
  dueAt: string,
): Promise<RequestReviewResult> => {
  // Marked before sending, on condition the decision is still there: the review API undoes a
  // decision its own SendTaskSuccess could not deliver only while this mark is absent, so exactly
  // one of the two wins (StaleWorkflowError here means the API undid it first).
  await deps.store.update(
    input.workflowId,
    { 'review.redeliveredAt': deps.now().toISOString() },
    { when: recordsDecision(decision) },
  );
  await deps.sfn.send(
    new SendTaskSuccessCommand({ taskToken: input.taskToken, output: JSON.stringify(decision) }),
  );
  return { workflowId: input.workflowId, dueAt, redelivered: true };
};

/**
 * Stores the task token server-side and sets when the review is due. A review resumed after a
 * restart keeps the due time it already had, so it waits only for what is left of it.
 *
 * A review whose decision is recorded (apply-review failed before its write, or a reviewer
 * decided while this task was being set up) gets that decision at once and its token is not
 * stored: the reviewer is not asked twice, and the token the decision went out with stays on the
 * item. The token write is conditional on there being no decision, because the review API sends
 * `SendTaskSuccess` with the token its decision write returned: a token stored after that write
 * would never be answered, and the API would have used one that no task waits for.
 */
export const requestReview = async (
  deps: Deps,
  input: { workflowId: string; taskToken: string; policy: StagePolicy },
): Promise<RequestReviewResult> => {
  // A failed conditional write means the review API moved in between (it decided, or undid a
  // decision it could not deliver); the next round reads what it did.
  for (let attempt = 1; ; attempt++) {
    try {
      return await armOrRedeliver(deps, input);
    } catch (error) {
      if (!(error instanceof StaleWorkflowError) || attempt >= 3) throw error;
    }
  }
};

const armOrRedeliver = async (
  deps: Deps,
  input: { workflowId: string; taskToken: string; policy: StagePolicy },
): Promise<RequestReviewResult> => {
  const item = await deps.store.get(input.workflowId);
  if (item.state !== 'review_required') {
    throw new StageOutOfOrderError('request-review', item.id, item.state);
  }
  const dueAt =
    item.review?.dueAt ??
    new Date(deps.now().getTime() + input.policy.reviewTimeoutSeconds * 1000).toISOString();
  if (item.review?.decision) return redeliver(deps, input, item.review.decision, dueAt);

  // The timeout travels with the review so a claim (heartbeat) can extend it by the same amount.
  const timeoutSeconds = input.policy.reviewTimeoutSeconds;
  const review = item.review
    ? { 'review.dueAt': dueAt, 'review.timeoutSeconds': timeoutSeconds }
    : { review: { priority: 0, reasons: [], dueAt, timeoutSeconds } };
  await deps.store.update(
    item.id,
    { reviewTaskToken: input.taskToken, ...review },
    {
      expectState: 'review_required',
      when: when.absent('review.decision'),
    },
  );
  return { workflowId: item.id, dueAt };
};
