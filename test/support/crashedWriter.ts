import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { entryHash, GENESIS_HASH, type LogEntry } from '../../lambdas/shared/store/index.js';

/**
 * Writes the log entry a store writer would have left if it died between its two writes: the
 * entry chained after `prevHash` (the workflow's head: `GENESIS_HASH` for its first), the item
 * never updated. A crash test setup, written with the same chain the store computes.
 */
export const writeCrashedEntry = async (
  client: DynamoDBDocumentClient,
  table: string,
  fields: Omit<LogEntry, 'hash' | 'prevHash' | 'patch'> & { patch?: LogEntry['patch'] },
  prevHash: string = GENESIS_HASH,
): Promise<LogEntry> => {
  const linked = { patch: {}, ...fields, prevHash };
  const entry = { ...linked, hash: entryHash(linked) };
  await client.send(new PutCommand({ TableName: table, Item: entry }));
  return entry;
};
