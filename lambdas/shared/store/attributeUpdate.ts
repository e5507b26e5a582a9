import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WorkflowState } from '../../../statemachine/index.js';
import { type Condition, when } from './conditions.js';
import { ReservedAttributeError, StaleWorkflowError, WorkflowNotFoundError } from './errors.js';
import type { ItemPatch, WorkflowItem } from './types.js';
import { isConditionFailed } from './updateExpression.js';
import { conditionalUpdate } from './writes.js';

/** When an attribute update applies. */
export interface UpdateOptions {
  /** A workflow of another tenant is reported as not found. */
  tenant?: string;
  /** The state the workflow must still be in. */
  expectState?: WorkflowState;
  /** Any further condition (a claim, a decision, a due time...). */
  when?: Condition;
}

/** Attributes of the item only a transition (or `create`) sets: identity, state, version, indexes. */
const RESERVED = new Set<string>([
  'id',
  'tenant',
  'state',
  'version',
  'idempotencyKey',
  'createdAt',
  'createdBy',
  'stateEnteredAt',
  'lastEvent',
  'gsiTenant',
  'gsiStateKey',
  'reviewTenant',
  'reviewRank',
  'refKey',
  'refSort',
  'headHash',
  'ledgerFlag',
  'ledgerChain',
  // The outbox: written with the transition that makes an event, taken off by the deliverer.
  'outbox',
  'outboxPending',
  'outboxAt',
]);

/**
 * Sets attributes without a state change (review token, claim, decision, artifacts) on the
 * workflow item, on a condition: the item exists, is the tenant's, is in `expectState`, and
 * `when` holds. Fails with `StaleWorkflowError` when not. `state` and `version` cannot be set
 * here: `ItemPatch` has no such keys, and only a transition moves them.
 */
export const updateAttributes = async (
  deps: {
    client: DynamoDBDocumentClient;
    table: string;
    at: string;
    find: (id: string, options: { tenant?: string }) => Promise<WorkflowItem | undefined>;
  },
  id: string,
  patch: ItemPatch,
  options: UpdateOptions = {},
): Promise<WorkflowItem> => {
  const reserved = Object.keys(patch).filter((key) => RESERVED.has(key.split('.')[0] as string));
  if (reserved.length > 0) throw new ReservedAttributeError(reserved);
  const condition = when.all(
    when.present('id'),
    ...(options.expectState ? [when.equals('state', options.expectState)] : []),
    ...(options.tenant !== undefined ? [when.equals('tenant', options.tenant)] : []),
    ...(options.when ? [options.when] : []),
  );
  try {
    return await conditionalUpdate(deps.client, deps.table, id, { ...patch, updatedAt: deps.at }, condition);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const current = await deps.find(id, { tenant: options.tenant });
    if (!current) throw new WorkflowNotFoundError(id);
    throw new StaleWorkflowError(
      id,
      options.expectState && current.state !== options.expectState
        ? `expected state "${options.expectState}", found "${current.state}"`
        : 'the update condition no longer holds',
    );
  }
};
