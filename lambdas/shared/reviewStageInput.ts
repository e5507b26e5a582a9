import { ReviewStepSchema } from '../../statemachine/reviewPolicies/index.js';
import { StageInputSchema } from './stageInput.js';

/**
 * A review stage's input: under a review policy, the approval step the review is at. Its own
 * module: only schedule-review and apply-review read it, and the other bundles need not carry it.
 */
export const ReviewStageInputSchema = StageInputSchema.extend({ reviewStep: ReviewStepSchema.optional() });
