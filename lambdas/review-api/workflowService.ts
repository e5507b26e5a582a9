import { ALL_STATES, isWorkflowState } from '../../statemachine/index.js';
import { quoteValue } from '../shared/plainIssues.js';
import type { Principal } from '../shared/principal.js';
import { loadForTenant, UnprocessableError } from '../shared/review/index.js';
import { historyEntryView, workflowView } from '../shared/workflowViews.js';
import type { ApiDeps } from './apiDeps.js';

/** Workflows of the caller's tenant, optionally in one state. */
export const listWorkflows = async (
  deps: ApiDeps,
  principal: Principal,
  query: { state?: string; limit?: number; cursor?: string },
) => {
  if (query.state !== undefined && !isWorkflowState(query.state)) {
    throw new UnprocessableError(
      `There is no state ${quoteValue(query.state)}; use one of ${ALL_STATES.join(', ')}, or leave state out.`,
    );
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
