import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { Index, type WorkflowItem, type WorkflowStore } from '../lambdas/shared/store/index.js';
import { ALL_STATES, isTerminal } from '../statemachine/index.js';

/** The byTenantState index keys of a workflow item: its tenant and `{state}#{updatedAt}`. */
interface TenantStateKey {
  id: string;
  gsiTenant: string;
  gsiStateKey: string;
}

// Sorts after every `{state}#{ISO date}` (ASCII): a start key past all of a tenant's entries.
const PAST_EVERY_STATE = '\uffff';

/**
 * The tenants that have workflows, read one entry per tenant from the byTenantState index: each
 * Scan of one item starts past every entry of the tenant found before, so it lands on the next
 * tenant's first entry. O(tenants) reads, whatever the number of workflows (a Scan of the table
 * or the `tenants()` query would read every workflow).
 */
export const tenantsWithWorkflows = async (
  client: DynamoDBDocumentClient,
  table: string,
): Promise<string[]> => {
  const tenants: string[] = [];
  let start: TenantStateKey | undefined;
  for (;;) {
    const page = await client.send(
      new ScanCommand({
        TableName: table,
        IndexName: Index.byTenantState,
        Limit: 1,
        ProjectionExpression: 'id, gsiTenant, gsiStateKey',
        ...(start && { ExclusiveStartKey: start }),
      }),
    );
    const first = page.Items?.[0] as TenantStateKey | undefined;
    if (!first) return tenants;
    tenants.push(first.gsiTenant);
    start = { id: PAST_EVERY_STATE, gsiTenant: first.gsiTenant, gsiStateKey: PAST_EVERY_STATE };
  }
};

const UNFINISHED_STATES = ALL_STATES.filter((state) => !isTerminal(state));

/**
 * Every workflow whose item is not in a terminal state: per tenant, one index query per
 * non-terminal state, so finished workflows are never read (a start with 100,000 of them reads
 * as much as one with none).
 */
export async function* unfinishedWorkflows(deps: {
  store: WorkflowStore;
  client: DynamoDBDocumentClient;
  workflowsTable: string;
}): AsyncGenerator<WorkflowItem> {
  for (const tenant of await tenantsWithWorkflows(deps.client, deps.workflowsTable)) {
    for (const state of UNFINISHED_STATES) yield* deps.store.listAll({ tenant, state });
  }
}
