import type { StagePolicy } from '../../../statemachine/index.js';
import { StageOutOfOrderError } from '../stageRunner.js';
import type { WorkflowItem, WorkflowStore } from '../store/index.js';

/*
 * How long a review waits. Step Functions fixes a Task's heartbeat when the Task starts
 * (`HeartbeatSecondsPath`) and every SendTaskHeartbeat re-arms it with that same value. So the
 * window is computed before the review Task (schedule-review), recorded on the item, and every due
 * time the review API enforces is derived from it: the API's 410 and the Task's heartbeat timeout
 * then fall on the same second, on a first review, after a resume and after a claim.
 */

/** What schedule-review hands the review Task (`$.reviewWindow`). */
export interface ReviewWindow {
  /** The review Task's HeartbeatSecondsPath: at least 1 (unless expired, then unused). */
  heartbeatSeconds: number;
  /** The review's time ran out while nothing waited on it: it times out without a Task. */
  expired: boolean;
}

/**
 * The heartbeat the review Task starts with: the configured review timeout for a new review; for
 * one that already has a due time (resumed after a restart, or retried after an error) what is left
 * of it, rounded up to whole seconds (a heartbeat is whole seconds) and never more than the
 * configured timeout. A recorded decision still goes out (request-review redelivers it), however
 * late the resume.
 */
export const reviewWindow = (item: WorkflowItem, policy: StagePolicy, now: Date): ReviewWindow => {
  const dueAt = item.review?.dueAt;
  if (!dueAt) return { heartbeatSeconds: policy.reviewTimeoutSeconds, expired: false };
  const left = Math.min(Math.ceil((Date.parse(dueAt) - now.getTime()) / 1000), policy.reviewTimeoutSeconds);
  if (left <= 0 && !item.review?.decision) return { heartbeatSeconds: 0, expired: true };
  return { heartbeatSeconds: Math.max(1, left), expired: false };
};

/**
 * schedule-review: computes the review's window and records the heartbeat the review Task will
 * start with (`review.heartbeatSeconds`), before that Task exists. An expired window is not
 * recorded: mark-timed-out ends the review.
 */
export const scheduleReview = async (
  deps: { store: WorkflowStore; now: () => Date },
  input: { workflowId: string; policy: StagePolicy },
): Promise<ReviewWindow> => {
  const item = await deps.store.get(input.workflowId);
  if (item.state !== 'review_required') {
    throw new StageOutOfOrderError('schedule-review', item.id, item.state);
  }
  const window = reviewWindow(item, input.policy, deps.now());
  if (window.expired) return window;
  const { heartbeatSeconds } = window;
  await deps.store.update(
    item.id,
    item.review
      ? { 'review.heartbeatSeconds': heartbeatSeconds }
      : { review: { priority: 0, reasons: [], heartbeatSeconds } },
    { expectState: 'review_required' },
  );
  return window;
};

/** When a review Task entered at `enteredAt` with `heartbeatSeconds` times out if nobody acts. */
export const reviewDueAt = (enteredAt: Date, heartbeatSeconds: number): string =>
  new Date(enteredAt.getTime() + heartbeatSeconds * 1000).toISOString();

/**
 * The heartbeat the review's current Task started with: what a SendTaskHeartbeat (a claim)
 * re-arms it with. A review armed before the heartbeat was recorded used the configured timeout
 * (`timeoutSeconds`), as its Task's fixed HeartbeatSeconds did.
 */
export const recordedHeartbeatSeconds = (item: WorkflowItem): number =>
  item.review?.heartbeatSeconds ?? item.review?.timeoutSeconds ?? 86_400;
