import type * as z from 'zod';
import type { CheckedPolicy } from '../checkedPolicy.js';
import type { Facts } from '../facts.js';
import { type ReviewPolicy, ReviewPolicySchema } from '../schema.js';
import { specificity } from '../specificity.js';
import type { PolicyIssue } from './checkPolicy.js';
import { InvalidReviewPolicyError } from './checkPolicy.js';

/** The name of the policy every document falls under when no other applies. */
export const DEFAULT_POLICY_NAME = 'default';

/**
 * Today's review as a policy: one approval by a reviewer; approve or correct completes, reject
 * rejects, no decision within the heartbeat ends `timed_out`. What a stack without policy files
 * runs, and what a folder without a catch-all policy falls back to.
 */
export const builtInDefaultPolicy = (): CheckedPolicy => ({
  policy: ReviewPolicySchema.parse({
    name: DEFAULT_POLICY_NAME,
    version: 1,
    description: 'One approval by a reviewer; no decision within the review heartbeat ends timed_out.',
    start: 'review',
    steps: [
      {
        id: 'review',
        type: 'approval',
        role: 'reviewer',
        transitions: [
          { on: 'approve', to: 'approved' },
          { on: 'correct', to: 'approved' },
          { on: 'reject', to: 'rejected' },
        ],
      },
      { id: 'approved', type: 'terminal', outcome: 'approved' },
      { id: 'rejected', type: 'terminal', outcome: 'rejected' },
    ],
  } satisfies z.input<typeof ReviewPolicySchema>),
  conditions: new Map(),
  builtIn: true,
});

const overlaps = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  !a || !b || a.some((x) => b.includes(x));

const matches = (policy: ReviewPolicy, tenant: string | undefined, type: string | undefined): boolean =>
  (!policy.applies_to?.tenants || (tenant !== undefined && policy.applies_to.tenants.includes(tenant))) &&
  (!policy.applies_to?.document_types ||
    (type !== undefined && (policy.applies_to.document_types as readonly string[]).includes(type)));

/**
 * The policies of one folder, checked together: names are unique, and no document could fall
 * under two policies equally specific (which one applies would be an accident of file order).
 * Without a catch-all policy, the built-in default is added.
 */
export class PolicySet {
  readonly policies: readonly CheckedPolicy[];

  constructor(policies: readonly CheckedPolicy[], source = 'the policy folder') {
    const issues: PolicyIssue[] = [];
    policies.forEach((a, i) => {
      for (const b of policies.slice(i + 1)) {
        if (a.policy.name === b.policy.name) {
          issues.push({
            path: 'name',
            message: `two policies are named "${a.policy.name}"; names must be unique`,
          });
        } else if (
          specificity(a.policy) === specificity(b.policy) &&
          overlaps(a.policy.applies_to?.tenants, b.policy.applies_to?.tenants) &&
          overlaps(a.policy.applies_to?.document_types, b.policy.applies_to?.document_types)
        ) {
          issues.push({
            path: 'applies_to',
            message: `"${a.policy.name}" and "${b.policy.name}" both apply to some documents, equally specifically; narrow one's applies_to`,
          });
        }
      }
    });
    if (issues.length > 0) throw new InvalidReviewPolicyError(source, issues);
    const hasDefault = policies.some((p) => specificity(p.policy) === 0);
    this.policies = hasDefault ? [...policies] : [...policies, builtInDefaultPolicy()];
  }

  /** The policy a document falls under: the most specific one whose `applies_to` it matches. */
  select(facts: Pick<Facts, 'tenant' | 'type'>): CheckedPolicy {
    const tenant = typeof facts.tenant === 'string' ? facts.tenant : undefined;
    const type = typeof facts.type === 'string' ? facts.type : undefined;
    const candidates = this.policies
      .filter((p) => matches(p.policy, tenant, type))
      .sort((a, b) => specificity(b.policy) - specificity(a.policy));
    // The set always holds a catch-all, so something matches.
    return candidates[0] as CheckedPolicy;
  }

  /** The policy of this name. */
  byName(name: string): CheckedPolicy | undefined {
    return this.policies.find((p) => p.policy.name === name);
  }
}
