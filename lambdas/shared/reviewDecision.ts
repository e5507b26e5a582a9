import * as z from 'zod';
import { type Condition, when } from './store/index.js';

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

/** What tells one decision from another: who made it, and when. */
type DecisionIdentity = Pick<ReviewDecision, 'at' | 'reviewer'>;

/**
 * The store condition that holds while the item records this very decision: the review API's
 * undo and request-review's delivery mark both write only over the decision they mean.
 */
export const recordsDecision = (decision: DecisionIdentity): Condition =>
  when.all(
    when.equals('review.decision.at', decision.at),
    when.equals('review.decision.reviewer', decision.reviewer),
  );

/** Whether `recorded` is this very decision (the check `recordsDecision` makes, on a read item). */
export const isSameDecision = (recorded: DecisionIdentity | undefined, decision: DecisionIdentity): boolean =>
  recorded?.at === decision.at && recorded.reviewer === decision.reviewer;
