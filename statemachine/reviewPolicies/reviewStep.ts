import * as z from 'zod';
import { durationSeconds, type ReviewPolicy } from './schema.js';

/**
 * The approval step a review is at, as the compiled definition hands it to the review stages
 * (`$.reviewStep`) and the item records it (`review.step`): which policy and version, which step,
 * who may decide it, and whom four-eyes excludes. Written into the definition by the compiler.
 */
export const ReviewStepSchema = z
  .object({
    policy: z.string().min(1).max(30),
    version: z.int().min(1),
    step: z.string().min(1).max(30),
    role: z.string().min(1).max(30),
    /** Steps whose deciders may not decide this one (four-eyes). */
    distinctFrom: z.array(z.string().min(1).max(30)).max(10),
    /** The step's own timeout; null: the policy heartbeat (`reviewTimeoutSeconds`). */
    timeoutSeconds: z.int().min(1).nullable(),
    /** The step whose timeout escalated the review here; null when it was entered by a decision. */
    escalatedFrom: z.string().min(1).max(30).nullable(),
  })
  .strict();

/** The approval step a review is at. */
export type ReviewStep = z.infer<typeof ReviewStepSchema>;

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
  };
};
