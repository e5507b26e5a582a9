import * as z from 'zod';
import { StagePolicySchema } from '../../statemachine/index.js';

/** What every stage Task passes: the workflow id and the policy baked into the definition. */
export const StageInputSchema = z.object({
  workflowId: z.string().min(1),
  policy: StagePolicySchema,
});

/** Input of an ordinary stage. */
export type StageInput = z.infer<typeof StageInputSchema>;

/** The `$.error` Step Functions Catch writes: the error name and its cause (JSON text). */
export const CaughtErrorSchema = z.object({
  Error: z.string(),
  Cause: z.string().optional(),
});

/** A caught error as the state machine hands it over. */
export type CaughtError = z.infer<typeof CaughtErrorSchema>;

/** Input of mark-failed, mark-rejected and mark-timed-out. */
export const BookkeepingInputSchema = StageInputSchema.extend({ error: CaughtErrorSchema.optional() });
