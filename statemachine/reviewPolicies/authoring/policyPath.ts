import type { CheckedPolicy } from '../checkedPolicy.js';
import type { Facts } from '../facts.js';
import { chooseRoute, decisionRoutes } from '../policyRoutes.js';
import type { PolicyStep } from '../schema.js';
import type { Decision } from '../units.js';

/** What happens at an approval step in a dry run: a decision, or nobody acting until it times out. */
export type StepEvent = Decision | 'timeout';

/** One step a document passes through, and why it left it. */
export interface PathStep {
  step: string;
  type: PolicyStep['type'];
  /** Who may act (approval steps). */
  role?: string;
  /** The decision taken, `timeout`, or (unattended steps) `next`. */
  event?: StepEvent | 'next';
  /** The condition that chose the transition, when one did. */
  when?: string;
}

/** The path a document takes through a policy, and how it ends. */
export interface PolicyPath {
  steps: PathStep[];
  outcome: 'approved' | 'rejected' | 'timed_out';
  /** Approval steps passed: each is its own decision, by its own person where four-eyes asks it. */
  approvals: number;
}

/** How far a dry run goes before it calls a policy endless (checked policies cannot loop unattended). */
const MAX_STEPS = 200;

/**
 * Which path a document with these facts takes through a checked policy, without running anything:
 * at each approval step the next of `events` is taken (`approve` once they run out), a `timeout`
 * follows `on_timeout` (or ends `timed_out`). What `docket policy test` prints.
 */
export const policyPath = (
  checked: CheckedPolicy,
  facts: Facts,
  events: readonly StepEvent[] = [],
): PolicyPath => {
  const { policy } = checked;
  const steps = new Map(policy.steps.map((s) => [s.id, s]));
  const taken: PathStep[] = [];
  let approvals = 0;
  let eventIndex = 0;
  let current = policy.start;
  for (let n = 0; n < MAX_STEPS; n++) {
    const step = steps.get(current);
    if (!step)
      throw new Error(`policy ${policy.name} has no step ${current}: check it with parseReviewPolicy first`);
    if (step.type === 'terminal') {
      taken.push({ step: step.id, type: step.type });
      return { steps: taken, outcome: step.outcome, approvals };
    }
    if (step.type !== 'approval') {
      taken.push({ step: step.id, type: step.type, event: 'next' });
      current = step.next;
      continue;
    }
    const event = events[eventIndex++] ?? 'approve';
    if (event === 'timeout') {
      taken.push({ step: step.id, type: step.type, role: step.role, event });
      if (!step.on_timeout) return { steps: taken, outcome: 'timed_out', approvals };
      current = step.on_timeout;
      continue;
    }
    if (event !== 'reject') approvals++;
    const chosen = chooseRoute(decisionRoutes(checked, step.id), event, { before: facts, after: facts });
    taken.push({
      step: step.id,
      type: step.type,
      role: step.role,
      event,
      ...(chosen.whenText !== undefined && { when: chosen.whenText }),
    });
    current = chosen.to;
  }
  throw new Error(`policy ${policy.name} ran ${MAX_STEPS} steps without ending`);
};
