/**
 * Review policies (issue #15): what happens to a document that needs a person, written by the
 * team in YAML, checked, selected by tenant and document type, and dry-run without running.
 */
export type { CheckedPolicy } from './checkedPolicy.js';
export {
  InvalidReviewPolicyError,
  type PolicyIssue,
  parseReviewPolicy,
} from './checkPolicy.js';
export {
  type Condition,
  ConditionError,
  conditionToChoice,
  evaluateCondition,
  parseCondition,
} from './conditions.js';
export {
  FACT_NAMES,
  FACTS,
  type FactName,
  type Facts,
  factPath,
  factsOfRecord,
  ROUTING_PATH,
} from './facts.js';
export { type PathStep, type PolicyPath, policyPath, type StepEvent } from './policyPath.js';
export {
  chooseRoute,
  type DecisionRoute,
  DecisionRouteSchema,
  decisionRoutes,
  type RouteEnd,
  type RouteNotification,
  resolveRoute,
} from './policyRoutes.js';
export { builtInDefaultPolicy, DEFAULT_POLICY_NAME, PolicySet } from './policySet.js';
export { policyMermaid, policyText } from './renderPolicy.js';
export { type ReviewStep, ReviewStepSchema, reviewStepOf } from './reviewStep.js';
export {
  DECISIONS,
  durationSeconds,
  type PolicyStep,
  type ReviewPolicy,
  ReviewPolicySchema,
  reviewPolicyJsonSchema,
} from './schema.js';
