import * as z from 'zod';

/**
 * A reviewer's decision as the review API records it on the item and sends with
 * `SendTaskSuccess`; the review Task's output, which apply-review receives as `$.review`.
 */
export const ReviewDecisionSchema = z.object({
  decision: z.enum(['approve', 'correct', 'reject']),
  reviewer: z.string().min(1),
  at: z.string().min(1),
  reason: z.string().max(1000).optional(),
  corrections: z.record(z.string(), z.unknown()).optional(),
});

/** A reviewer's decision. */
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;
