/**
 * Review policies (issue #15) as the running system needs them: their parsed shape, the document
 * facts conditions test, evaluating a condition, a decision's routes and the step a review is at.
 * Authoring (YAML, checks, selection, rendering, dry runs) is `./authoring/index.js`.
 */
export type { CheckedPolicy } from './checkedPolicy.js';
export {
  type ChoiceExpression,
  type Condition,
  conditionToChoice,
  evaluateCondition,
  type Operator,
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
export { DecisionRouteSchema, ReviewStepSchema } from './inputSchemas.js';
export {
  chooseRoute,
  type DecisionRoute,
  decisionRoutes,
  type RouteEnd,
  type RouteNotification,
  resolveRoute,
} from './policyRoutes.js';
export { type ReviewStep, reviewStepOf } from './reviewStep.js';
export type { PolicyStep, ReviewPolicy } from './schema.js';
export { DECISIONS, type Decision, durationSeconds } from './units.js';
