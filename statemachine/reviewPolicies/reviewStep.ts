import type { ReviewPolicy } from './schema.js';
import { durationSeconds } from './units.js';

/**
 * The approval step a review is at, as the compiled definition hands it to the review stages
 * (`$.reviewStep`) and the item records it (`review.step`): which policy and version, which step,
 * who may decide it, and whom four-eyes excludes. (`ReviewStepSchema` checks it at the door.)
 */
export interface ReviewStep {
  policy: string;
  version: number;
  step: string;
  role: string;
  /** Steps whose deciders may not decide this one (four-eyes). */
  distinctFrom: string[];
  /** The step's own timeout; null: the policy heartbeat (`reviewTimeoutSeconds`). */
  timeoutSeconds: number | null;
  /** The step whose timeout escalated the review here; null when it was entered by a decision. */
  escalatedFrom: string | null;
  /** The policy's `timeout`: the whole review, from its first step; null: none. */
  reviewTimeoutSeconds: number | null;
}

/** The step reference of approval step `stepId` of a policy, entered normally or by escalation. */
export const reviewStepOf = (
  policy: ReviewPolicy,
  stepId: string,
  escalatedFrom: string | null = null,
): ReviewStep => {
  const step = policy.steps.find((s) => s.id === stepId);
  if (step?.type !== 'approval') throw new Error(`policy ${policy.name} has no approval step ${stepId}`);
  return {
    policy: policy.name,
    version: policy.version,
    step: step.id,
    role: step.role,
    distinctFrom: step.distinct_from ?? [],
    timeoutSeconds: step.timeout ? durationSeconds(step.timeout) : null,
    escalatedFrom,
    reviewTimeoutSeconds: policy.timeout ? durationSeconds(policy.timeout) : null,
  };
};
