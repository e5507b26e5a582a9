import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { when } from './conditions.js';
import { StaleWorkflowError } from './errors.js';
import type { WorkflowItem } from './types.js';
import { isConditionFailed } from './updateExpression.js';
import { conditionalUpdate } from './writes.js';

/**
 * The attributes of a workflow item that hold what the document or a person said, or name the
 * upload: the document's summary (and the counterparty index keys built from it), review reasons
 * that quote values, a reviewer's corrections and reasons, an operator's cancel reason, error
 * messages, the upload's key, version, ETag, size and content hash, and the idempotency key (it
 * names the key). Erasure removes them; ids, states, counts and confidences stay.
 */
const CONTENT_PATHS = [
  'summary',
  'refKey',
  'refSort',
  'review.reasons',
  'review.decision.corrections',
  'review.decision.reason',
  'cancellation',
  'lastError',
  'source.key',
  'source.versionId',
  'source.etag',
  'source.size',
  'source.sha256',
  'idempotencyKey',
] as const;

const present = (item: object, path: string): boolean => {
  let value: unknown = item;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return false;
    value = (value as Record<string, unknown>)[part];
  }
  return true;
};

/**
 * Removes the content attributes `item` has, on condition that it is still at its version, and
 * returns the item after. A workflow moved meanwhile is a `StaleWorkflowError`.
 */
export const eraseItemContent = async (
  client: DynamoDBDocumentClient,
  table: string,
  item: WorkflowItem,
): Promise<WorkflowItem> => {
  const patch = Object.fromEntries(CONTENT_PATHS.filter((p) => present(item, p)).map((p) => [p, null]));
  if (Object.keys(patch).length === 0) return item;
  try {
    return await conditionalUpdate(client, table, item.id, patch, when.equals('version', item.version));
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    throw new StaleWorkflowError(item.id, 'it moved while its content was being erased');
  }
};
