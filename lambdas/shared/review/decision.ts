import * as z from 'zod';
import { plainIssues } from '../plainIssues.js';
import { type Condition, when } from '../store/index.js';

/**
 * A reviewer's decision as it is recorded on the item (the outbox entry) and sent with
 * `SendTaskSuccess`: the review Task's output, which apply-review receives as `$.review`.
 */
export const ReviewDecisionSchema = z.object({
  decision: z.enum(['approve', 'correct', 'reject']),
  reviewer: z.string().min(1),
  at: z.string().min(1),
  reason: z.string().max(1000).optional(),
  corrections: z.record(z.string(), z.unknown()).optional(),
  /** The document type the reviewer chose (an unclassified document, or one typed wrongly). */
  docType: z.enum(['contract', 'invoice']).optional(),
  /** The reviewer whose claim this decision took over (`takeOver`); apply-review logs it. */
  takenOverFrom: z.string().min(1).optional(),
});

/** A reviewer's decision. */
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;

/** The body of POST /reviews/{id}/decision (and what `docket review` sends). */
export const DecisionBodySchema = z
  .object({
    decision: z.enum(['approve', 'correct', 'reject']),
    corrections: z.record(z.string(), z.unknown()).optional(),
    /**
     * With `correct`: the document's type as the reviewer sees it. Required for a document that
     * was not recognised as either; on a typed one it retypes it (its fields are then the
     * corrections alone).
     */
    docType: z.enum(['contract', 'invoice']).optional(),
    reason: z.string().trim().min(1).max(1000).optional(),
    /** Decide a review another reviewer holds, taking it over (logged with the decision). */
    takeOver: z.boolean().optional(),
  })
  .strict();

/** The body of POST /reviews/{id}/claim: empty, or `takeOver` to replace another reviewer's claim. */
export const ClaimBodySchema = z.object({ takeOver: z.boolean().optional() }).strict();

/** A refused request body's problems, field by field and in words, as the 422 details carry them. */
export const bodyIssues = (error: z.ZodError, body: unknown) => plainIssues(error, body);

/** What tells one decision from another: who made it, and when. */
type DecisionIdentity = Pick<ReviewDecision, 'at' | 'reviewer'>;

/**
 * The store condition that holds while the item records this very decision: the retraction of an
 * undelivered decision and request-review's redelivery mark both write only over the decision
 * they mean.
 */
export const recordsDecision = (decision: DecisionIdentity): Condition =>
  when.all(
    when.equals('review.decision.at', decision.at),
    when.equals('review.decision.reviewer', decision.reviewer),
  );

/** Whether `recorded` is this very decision (the check `recordsDecision` makes, on a read item). */
export const isSameDecision = (recorded: DecisionIdentity | undefined, decision: DecisionIdentity): boolean =>
  recorded?.at === decision.at && recorded.reviewer === decision.reviewer;
