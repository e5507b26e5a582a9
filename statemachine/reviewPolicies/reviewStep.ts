// Type only: the schema's zod code stays out of the builder's imports (and so out of bundles).
import type { ReviewStep } from './inputSchemas.js';
import type { ReviewPolicy } from './schema.js';
import { durationSeconds } from './units.js';

/** The approval step a review is at: its type is its schema's (`ReviewStepSchema`). */
export type { ReviewStep };

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
