import type { StagePolicy } from '../../../statemachine/index.js';
import type { ReviewStep } from '../../../statemachine/reviewPolicies/index.js';
import { StageOutOfOrderError, StageRun } from '../stageRunner.js';
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
  /** Under a review policy: the whole review's `timeout` passed; it ends without escalating. */
  policyExpired?: boolean;
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
  input: { workflowId: string; policy: StagePolicy; reviewStep?: ReviewStep },
): Promise<ReviewWindow> => {
  const run = await StageRun.load('schedule-review', deps.store, input.workflowId, input.policy);
  if (run.item.state !== 'review_required') {
    throw new StageOutOfOrderError('schedule-review', run.item.id, run.item.state);
  }
  const now = deps.now();
  const policyDue = input.reviewStep && policyDueAt(run.item, input.reviewStep, now);
  // The whole review's time is up: it ends here, without escalating to the next step.
  if (policyDue && Date.parse(policyDue) <= now.getTime()) {
    return { heartbeatSeconds: 0, expired: true, policyExpired: true };
  }
  if (input.reviewStep) await enterStep(run, input.reviewStep, policyDue);
  const item = run.item;
  // A policy step's own timeout replaces the policy heartbeat for this step's review.
  const policy = {
    ...input.policy,
    reviewTimeoutSeconds: input.reviewStep?.timeoutSeconds ?? input.policy.reviewTimeoutSeconds,
  };
  const stepWindow = reviewWindow(item, policy, now);
  // Nor does a step's heartbeat outlast the whole review's time.
  const window =
    policyDue && !stepWindow.expired
      ? {
          ...stepWindow,
          heartbeatSeconds: Math.max(
            1,
            Math.min(stepWindow.heartbeatSeconds, Math.ceil((Date.parse(policyDue) - now.getTime()) / 1000)),
          ),
        }
      : stepWindow;
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

/**
 * When the whole review ends under a policy with a `timeout`: as recorded when its first step
 * began (kept through every step and escalation), else from now. Undefined without a timeout.
 */
const policyDueAt = (item: WorkflowItem, step: ReviewStep, now: Date): string | undefined =>
  item.review?.policyDueAt ??
  (step.reviewTimeoutSeconds
    ? new Date(now.getTime() + step.reviewTimeoutSeconds * 1000).toISOString()
    : undefined);

const sameStep = (a: ReviewStep | undefined, b: ReviewStep) =>
  a !== undefined && a.policy === b.policy && a.version === b.version && a.step === b.step;

/**
 * Puts the review at a policy's approval step, once: a new step starts a new review (no due time,
 * claim or decision of the step before; the reasons and the earlier deciders stay). An escalation
 * is logged (`escalate`), and the step is set by that same write, so a repeated call finds it
 * recorded exactly when the log says so; a resumed review then keeps what is left of its time.
 */
const enterStep = async (
  run: StageRun<'schedule-review'>,
  step: ReviewStep,
  policyDue: string | undefined,
): Promise<void> => {
  const review = run.item.review;
  if (sameStep(review?.step, step)) return;
  const fresh = {
    priority: review?.priority ?? 0,
    reasons: review?.reasons ?? [],
    ...(review?.deciders && { deciders: review.deciders }),
    ...(policyDue && { policyDueAt: policyDue }),
  };
  if (!step.escalatedFrom) return run.update({ review: { ...fresh, step } });
  await run.update({ review: fresh });
  await run.apply('escalate', {
    patch: { 'review.step': step },
    metadata: { policy: step.policy, version: step.version, from: step.escalatedFrom, to: step.step },
  });
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
