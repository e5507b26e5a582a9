import type { Principal } from '../principal.js';
import type { WorkflowItem } from '../store/index.js';
import { StepForbiddenError } from './errors.js';

/**
 * Under a review policy, who may claim or decide the review's current step: a user in the step's
 * role (an admin may act at any step), and, where the step asks for four-eyes, nobody who decided
 * one of the steps it names in this run. A review without a step (the built-in default) is open to
 * every reviewer, as before.
 */
export const assertMayActAtStep = (item: WorkflowItem, principal: Principal): void => {
  const step = item.review?.step;
  if (!step) return;
  const groups = principal.groups ?? principal.roles;
  if (!principal.roles.includes('admin') && !groups.includes(step.role)) {
    throw new StepForbiddenError(
      `Step ${step.step} of policy ${step.policy} is decided by the ${step.role} role; ${principal.user} has ` +
        `${groups.join(', ') || 'no role'}. Ask someone with the ${step.role} role, or an admin for it ` +
        `(locally: docket token create --role reviewer --groups ${step.role}).`,
      'role',
      { policy: step.policy, step: step.step, role: step.role },
    );
  }
  const earlier = (item.review?.deciders ?? []).find(
    (d) => d.reviewer === principal.user && step.distinctFrom.includes(d.step),
  );
  if (earlier) {
    throw new StepForbiddenError(
      `Four-eyes: ${principal.user} decided step ${earlier.step} of this document (${earlier.decision}, ` +
        `${earlier.at}), and policy ${step.policy} asks someone else to decide step ${step.step}. ` +
        'Another user with the role must decide it; nothing was changed.',
      'four-eyes',
      { policy: step.policy, step: step.step, decidedStep: earlier.step },
    );
  }
};
