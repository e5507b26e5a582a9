import type { SFNClient } from '@aws-sdk/client-sfn';
import { transition } from '../../statemachine/index.js';
import type { Principal } from './principal.js';
import { CannotResumeError, resumeWorkflow, stopExecution } from './resumeWorkflow.js';
import { ConflictError, loadForTenant } from './review/index.js';
import { StaleWorkflowError, TransitionConflictError, type WorkflowStore } from './store/index.js';
import { workflowView } from './workflowViews.js';

/**
 * What an operator (an admin) does to a workflow: retry it at its stage, cancel it. The review
 * API's admin routes and `docket retry`/`docket cancel` both act through these.
 */

/** What the operator actions need. */
export interface OperatorDeps {
  store: WorkflowStore;
  sfn: SFNClient;
  /** Needed only to retry. */
  stateMachineArn?: string;
}

/**
 * Resumes a workflow at its stage (admin): redrives its execution where that fits
 * (`shouldRedrive`), so one document keeps one execution, else starts a new one.
 */
export const retryWorkflow = async (deps: OperatorDeps, principal: Principal, id: string) => {
  const item = await loadForTenant(deps, principal, id);
  if (!deps.stateMachineArn) throw new Error('STATE_MACHINE_ARN is not configured for the review API.');
  try {
    const started = await resumeWorkflow(
      { store: deps.store, sfn: deps.sfn, stateMachineArn: deps.stateMachineArn },
      item,
      { redrive: true },
    );
    return { workflowId: id, ...started };
  } catch (error) {
    if (error instanceof CannotResumeError) throw new ConflictError(error.message, { state: item.state });
    throw error;
  }
};

/** Cancels a workflow (admin): the `cancel` transition, then its execution is stopped. */
export const cancelWorkflow = async (
  deps: OperatorDeps,
  principal: Principal,
  id: string,
  reason?: string,
) => {
  const item = await loadForTenant(deps, principal, id);
  const refuse = (state: string) =>
    new ConflictError(
      `Workflow ${id} is ${state} and cannot be cancelled: it has already finished. Nothing was changed.`,
    );
  if (!transition(item.state, 'cancel').ok) throw refuse(item.state);
  try {
    // The reason a person wrote goes on the item, before the transition that the log records.
    const current = reason
      ? await deps.store.update(
          item.id,
          { cancellation: { reason, by: principal.user, at: new Date().toISOString() } },
          { expectState: item.state, tenant: principal.tenant },
        )
      : item;
    const { workflow } = await deps.store.transition(current.id, {
      event: 'cancel',
      actor: principal.user,
      tenant: principal.tenant,
      patch: { reviewTaskToken: null },
      ...(reason && { metadata: { reasonGiven: true } }),
    });
    const stopped = await stopExecution(deps.sfn, item.executionArn, `cancelled by ${principal.user}`);
    return { workflow: workflowView(workflow), executionStopped: stopped };
  } catch (error) {
    if (
      error instanceof Error &&
      (error.name === 'IllegalTransition' ||
        error instanceof TransitionConflictError ||
        error instanceof StaleWorkflowError)
    ) {
      throw refuse((await loadForTenant(deps, principal, id)).state);
    }
    throw error;
  }
};
