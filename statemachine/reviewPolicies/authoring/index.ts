/**
 * Authoring review policies: reading and checking YAML files, conditions' text, a folder's policies
 * together and which applies, drawing one and dry-running a record. Loaded by the CDK app, the
 * local runtime's start and `docket policy`; never by a Lambda (yaml and jsep stay out of the
 * bundles: the definition carries policies compiled).
 */

export { ReviewPolicySchema, reviewPolicyJsonSchema } from '../schema.js';
export { InvalidReviewPolicyError, type PolicyIssue, parseReviewPolicy } from './checkPolicy.js';
export { ConditionError, parseCondition } from './parseCondition.js';
export { type PathStep, type PolicyPath, policyPath, type StepEvent } from './policyPath.js';
export { builtInDefaultPolicy, DEFAULT_POLICY_NAME, PolicySet } from './policySet.js';
export { policyMermaid, policyText } from './renderPolicy.js';
