import * as z from 'zod';
import type { Condition } from './conditions.js';
import type { DecisionRoute } from './policyRoutes.js';
import { DECISIONS } from './units.js';

/*
 * The review stages' inputs under a review policy, checked at the door (zod). Apart from the
 * builder's modules, so a bundle that never reads them does not carry them.
 */

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
    /** The policy's `timeout` for the whole review; null: none. */
    reviewTimeoutSeconds: z.int().min(1).nullable(),
  })
  .strict();

/** The approval step a review is at. */
export type ReviewStep = z.infer<typeof ReviewStepSchema>;

/** A route as the definition carries it (apply-review checks its input with this). */
export const DecisionRouteSchema: z.ZodType<DecisionRoute> = z.object({
  on: z.enum(DECISIONS),
  when: z.custom<Condition>((v) => typeof v === 'object' && v !== null && 'op' in v).optional(),
  whenText: z.string().max(500).optional(),
  to: z.string().min(1).max(30),
  ends: z.enum(['step', 'approved', 'rejected', 'timed_out']),
  step: z.string().min(1).max(30).optional(),
  notify: z.array(z.object({ step: z.string(), channel: z.string(), message: z.string().max(500) })).max(50),
});
