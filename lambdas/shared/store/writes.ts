import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Condition, compileCondition, when } from './conditions.js';
import type { WorkflowItem } from './types.js';
import { buildUpdate, isConditionFailed } from './updateExpression.js';

/**
 * UpdateItem of `patch` (dotted keys, null removes) on `condition`, returning the new item. A
 * condition that does not hold rejects with DynamoDB's ConditionalCheckFailedException.
 */
export const conditionalUpdate = async (
  client: DynamoDBDocumentClient,
  table: string,
  id: string,
  patch: Record<string, unknown>,
  condition: Condition,
): Promise<WorkflowItem> => {
  const update = buildUpdate(patch);
  const compiled = compileCondition(condition);
  const values = { ...update.ExpressionAttributeValues, ...compiled.ExpressionAttributeValues };
  const { Attributes } = await client.send(
    new UpdateCommand({
      TableName: table,
      Key: { id },
      UpdateExpression: update.UpdateExpression,
      ConditionExpression: compiled.ConditionExpression,
      ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...compiled.ExpressionAttributeNames },
      // DynamoDB refuses an empty map: a REMOVE on an attribute_exists condition has no values.
      ...(Object.keys(values).length > 0 && { ExpressionAttributeValues: values }),
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as WorkflowItem;
};

/**
 * Puts a record only if no record has its key (`keyAttribute`, the partition key): the first
 * writer wins, and the others learn it from `false`.
 */
export const putIfAbsent = async (
  client: DynamoDBDocumentClient,
  table: string,
  item: Record<string, unknown>,
  keyAttribute: string,
): Promise<boolean> => {
  const condition = compileCondition(when.absent<Record<string, unknown>>(keyAttribute));
  try {
    await client.send(new PutCommand({ TableName: table, Item: item, ...condition }));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
};
