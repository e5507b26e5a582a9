/**
 * Reviews: claiming one, deciding one, and the decision outbox that hands a decision to the
 * review Task waiting for it. The review API, `docket review`, request-review and apply-review
 * all use this module and nothing behind it.
 */
export { claimReview } from './claim.js';
export { decideReview } from './decide.js';
export {
  bodyIssues,
  ClaimBodySchema,
  DecisionBodySchema,
  isSameDecision,
  type ReviewDecision,
  ReviewDecisionSchema,
} from './decision.js';
export type { ReviewDeps } from './deps.js';
export {
  ConflictError,
  GoneError,
  ReviewClaimedError,
  ReviewNotReadyError,
  UnprocessableError,
} from './errors.js';
export { loadForTenant } from './loadForTenant.js';
export {
  type ArmResult,
  armReviewTask,
  DELIVERY_GRACE_MS,
  deliverDecision,
  deliverPending,
  recordDecision,
} from './outbox.js';
export {
  type ReviewWindow,
  recordedHeartbeatSeconds,
  reviewDueAt,
  reviewWindow,
  scheduleReview,
} from './reviewWindow.js';
