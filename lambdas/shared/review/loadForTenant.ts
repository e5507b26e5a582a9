import { NotFoundError } from '@aws-lambda-powertools/event-handler/http';
import type { Principal } from '../principal.js';
import { type WorkflowItem, WorkflowNotFoundError, type WorkflowStore } from '../store/index.js';

/**
 * The caller's tenant's workflow, or 404: another tenant's answers exactly like a missing one, so
 * an id reveals nothing about documents outside the caller's tenant.
 */
export const loadForTenant = async (
  deps: { store: WorkflowStore },
  principal: Principal,
  id: string,
): Promise<WorkflowItem> => {
  try {
    return await deps.store.get(id, { tenant: principal.tenant });
  } catch (error) {
    if (error instanceof WorkflowNotFoundError)
      throw new NotFoundError(
        `No workflow ${id} in tenant ${principal.tenant}; check the id against the review queue or \`docket ls\`.`,
      );
    throw error;
  }
};
