import { DeleteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { WorkflowItem } from './types.js';
import { isConditionFailed } from './updateExpression.js';
import { putIfAbsent } from './writes.js';

/** A cached extraction, reused by uploads of the same content (seed 002). */
export interface ExtractionCacheRecord {
  tenant: string;
  sha256: string;
  workflowId: string;
  artifacts: { text: string; extraction: string };
  pageCount: number;
  docType?: 'contract' | 'invoice';
}

const cacheId = (tenant: string, sha256: string) => `cache#${tenant}#${sha256}`;

/**
 * Content-hash records in the workflows table (`id` = `cache#{tenant}#{sha256}`): they carry no
 * state and no index attributes, so they never show in a listing or a GSI.
 */
export class ExtractionCache {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** Records a finished extraction for reuse; the first writer for a content hash wins. */
  put(record: ExtractionCacheRecord): Promise<boolean> {
    return putIfAbsent(
      this.client,
      this.table,
      { id: cacheId(record.tenant, record.sha256), kind: 'cache', ...record },
      'id',
    );
  }

  /** The cached extraction for this tenant's content hash, if any. */
  async find(tenant: string, sha256: string): Promise<ExtractionCacheRecord | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { id: cacheId(tenant, sha256) }, ConsistentRead: true }),
    );
    return Item as ExtractionCacheRecord | undefined;
  }

  /**
   * Deletes the record of `tenant` and `sha256` if it names `workflowId` (erasure: its id holds the
   * content's hash, its artifacts are that workflow's); another workflow's record is left alone.
   * True when one was deleted.
   */
  async remove(tenant: string, sha256: string, workflowId: string): Promise<boolean> {
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { id: cacheId(tenant, sha256) },
          ConditionExpression: 'workflowId = :id',
          ExpressionAttributeValues: { ':id': workflowId },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }

  /** The cached extraction a workflow was marked (at ingest) to reuse, if there is one. */
  async forWorkflow(item: WorkflowItem): Promise<ExtractionCacheRecord | undefined> {
    if (!item.cachedFrom || !item.source?.sha256) return undefined;
    return this.find(item.tenant, item.source.sha256);
  }
}
