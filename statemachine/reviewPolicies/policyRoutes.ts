import type { CheckedPolicy } from './checkedPolicy.js';
import { type Condition, evaluateCondition } from './conditions.js';
import type { Facts } from './facts.js';
import type { PolicyStep, ReviewPolicy } from './schema.js';
import type { Decision } from './units.js';

/** A notification a route passes: the channel and the text, as the policy wrote them. */
export interface RouteNotification {
  step: string;
  channel: string;
  message: string;
}

/**
 * Where a transition leads once the steps nobody acts in (notification, wait) are passed: the next
 * approval step, or the end. What the stage that takes the decision needs to make the one
 * transition the decision stands for.
 */
export interface RouteEnd {
  /** `step`: another approval follows (`step` names it); else how the review ends. */
  ends: 'step' | 'approved' | 'rejected' | 'timed_out';
  step?: string;
  /** The notifications passed on the way, in order. */
  notify: RouteNotification[];
}

/** Follows `to` through notification and wait steps to an approval or terminal step. */
export const resolveRoute = (policy: ReviewPolicy, to: string): RouteEnd => {
  const steps = new Map(policy.steps.map((s) => [s.id, s]));
  const notify: RouteNotification[] = [];
  let id = to;
  for (let n = 0; n <= policy.steps.length; n++) {
    const step = steps.get(id) as PolicyStep | undefined;
    if (!step) break;
    if (step.type === 'approval') return { ends: 'step', step: step.id, notify };
    if (step.type === 'terminal') return { ends: step.outcome, notify };
    if (step.type === 'notification')
      notify.push({ step: step.id, channel: step.channel, message: step.message });
    id = step.next;
  }
  throw new Error(
    `policy ${policy.name}: ${to} leads nowhere (check the policy with parseReviewPolicy first)`,
  );
};

/**
 * One way out of an approval step, as the stage that applies the decision receives it (plain data
 * in the Task's parameters): the decision, its condition (parsed), the next state and where the
 * route ends.
 */
export interface DecisionRoute extends RouteEnd {
  on: Decision;
  when?: Condition;
  /** The condition as written, for the log. */
  whenText?: string;
  /** The step the execution goes to next (a wait or notification step comes before `step`). */
  to: string;
}

/** The routes out of approval step `stepId`, in the policy's order; `correct` falls back to `approve`'s. */
export const decisionRoutes = ({ policy, conditions }: CheckedPolicy, stepId: string): DecisionRoute[] => {
  const index = policy.steps.findIndex((s) => s.id === stepId);
  const step = policy.steps[index];
  if (step?.type !== 'approval') throw new Error(`policy ${policy.name} has no approval step ${stepId}`);
  const routes = step.transitions.map((t, j): DecisionRoute => {
    const when = conditions.get(`${index}/${j}`);
    return {
      on: t.on,
      ...(when && { when, whenText: t.when }),
      to: t.to,
      ...resolveRoute(policy, t.to),
    };
  });
  const corrects = routes.some((r) => r.on === 'correct');
  return corrects
    ? routes
    : [...routes, ...routes.filter((r) => r.on === 'approve').map((r) => ({ ...r, on: 'correct' as const }))];
};

/**
 * The route a decision takes. A condition holds when it holds on the document as it was read or as
 * the decision corrected it: a reviewer's correction can add a step (a total corrected upwards
 * past a limit) but never remove one (a total corrected downwards does not skip four-eyes).
 */
export const chooseRoute = (
  routes: readonly DecisionRoute[],
  decision: Decision,
  facts: { before: Facts; after: Facts },
): DecisionRoute => {
  const route = routes.find(
    (r) =>
      r.on === decision &&
      (!r.when || evaluateCondition(r.when, facts.before) || evaluateCondition(r.when, facts.after)),
  );
  // A checked policy ends every decision's routes with one without a condition.
  if (!route) throw new Error(`no route for ${decision}: the routes come from an unchecked policy`);
  return route;
};
