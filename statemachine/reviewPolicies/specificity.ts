import type { ReviewPolicy } from './schema.js';

/**
 * How specific a policy's `applies_to` is: tenants and types 3, tenants 2, types 1, neither 0 (the
 * catch-all). The one ordering both the policy set's `select` and the definition's SelectPolicy
 * Choice apply, so the dry run and the deployed machine pick the same policy.
 */
export const specificity = (policy: ReviewPolicy): number =>
  (policy.applies_to?.tenants ? 2 : 0) + (policy.applies_to?.document_types ? 1 : 0);
