import { isWorkflowState } from '../../statemachine/index.js';
import type { Principal } from '../shared/principal.js';
import { CannotResumeError, resumeWorkflow, stopExecution } from '../shared/resumeWorkflow.js';
import { ConflictError, loadForTenant, UnprocessableError } from '../shared/review/index.js';
import { TransitionConflictError } from '../shared/store/index.js';
import { historyEntryView, workflowView } from '../shared/workflowViews.js';
import type { ApiDeps } from './apiDeps.js';

/** Workflows of the caller's tenant, optionally in one state. */
export const listWorkflows = async (
  deps: ApiDeps,
  principal: Principal,
  query: { state?: string; limit?: number; cursor?: string },
) => {
  if (query.state !== undefined && !isWorkflowState(query.state)) {
    throw new UnprocessableError(`Unknown state "${query.state}".`);
  }
  const page = await deps.store.list({
    tenant: principal.tenant,
    state: query.state,
    limit: query.limit,
    cursor: query.cursor,
  });
  return { items: page.items.map(workflowView), cursor: page.cursor };
};

/** One workflow. */
export const getWorkflow = async (deps: ApiDeps, principal: Principal, id: string) =>
  workflowView(await loadForTenant(deps, principal, id));

/** The transition log of one workflow, oldest first. */
export const getHistory = async (deps: ApiDeps, principal: Principal, id: string) => {
  await loadForTenant(deps, principal, id);
  return { workflowId: id, entries: (await deps.store.history(id)).map(historyEntryView) };
};

/** What the operator routes need; the CLI calls them in-process with its own clients. */
export type OperatorDeps = Pick<ApiDeps, 'store' | 'sfn' | 'stateMachineArn'>;

/** Resumes a workflow at its stage (admin). */
export const retryWorkflow = async (deps: OperatorDeps, principal: Principal, id: string) => {
  const item = await loadForTenant(deps, principal, id);
  if (!deps.stateMachineArn) throw new Error('STATE_MACHINE_ARN is not configured for the review API.');
  try {
    const started = await resumeWorkflow(
      { store: deps.store, sfn: deps.sfn, stateMachineArn: deps.stateMachineArn },
      item,
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
  try {
    const { workflow } = await deps.store.transition(item.id, {
      event: 'cancel',
      actor: principal.user,
      tenant: principal.tenant,
      patch: { reviewTaskToken: null },
      ...(reason && { metadata: { reason } }),
    });
    const stopped = await stopExecution(deps.sfn, item.executionArn, `cancelled by ${principal.user}`);
    return { workflow: workflowView(workflow), executionStopped: stopped };
  } catch (error) {
    if (
      error instanceof Error &&
      (error.name === 'IllegalTransition' || error instanceof TransitionConflictError)
    ) {
      throw new ConflictError(
        `Workflow ${id} is ${(await loadForTenant(deps, principal, id)).state} and cannot be cancelled.`,
      );
    }
    throw error;
  }
};
