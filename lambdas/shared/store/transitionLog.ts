import { type DynamoDBDocumentClient, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { LogEntry } from './types.js';
import { putIfAbsent } from './writes.js';

/**
 * The transition log (pk `workflowId`, sk `seq`): append-only, write-once. Appending is the lock
 * of the commit protocol: only one writer can take a sequence number.
 */
export class TransitionLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** Puts the entry if its sequence number is free; false when another writer holds it. */
  append(entry: LogEntry): Promise<boolean> {
    return putIfAbsent(this.client, this.table, { ...entry }, 'workflowId');
  }

  /** The entries of a workflow after `afterSeq`, oldest first (consistent reads, every page). */
  async entries(workflowId: string, afterSeq = 0): Promise<LogEntry[]> {
    const entries: LogEntry[] = [];
    const pages = paginateQuery(
      { client: this.client },
      {
        TableName: this.table,
        KeyConditionExpression: 'workflowId = :id AND seq > :after',
        ExpressionAttributeValues: { ':id': workflowId, ':after': afterSeq },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) entries.push(...((page.Items ?? []) as LogEntry[]));
    return entries;
  }
}
