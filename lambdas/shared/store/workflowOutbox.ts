import { type DynamoDBDocumentClient, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { when } from './conditions.js';
import { TransitionContentionError } from './errors.js';
import { OUTBOX_PENDING } from './outbox.js';
import { WorkflowQueries } from './queries.js';
import { Index } from './tables.js';
import type { WorkflowItem } from './types.js';
import { isConditionFailed } from './updateExpression.js';
import { conditionalUpdate } from './writes.js';

/** How many times a clear re-reads an item that moved under it before giving up. */
const CLEAR_ATTEMPTS = 5;

/**
 * The deliverer's side of the outbox: the items that hold events (the sparse `pendingOutbox`
 * index), and the conditional writes that take a published event off an item. It needs the
 * workflows table only.
 */
export class WorkflowOutbox {
  private readonly queries: WorkflowQueries;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {
    this.queries = new WorkflowQueries(client, table);
  }

  /**
   * Items the outbox index lists, oldest event first. The index is eventually consistent: read
   * each item again (`find`) before acting on what its outbox holds.
   */
  async *pending(pageSize = 100): AsyncGenerator<WorkflowItem> {
    const pages = paginateQuery(
      { client: this.client, pageSize },
      {
        TableName: this.table,
        IndexName: Index.pendingOutbox,
        KeyConditionExpression: 'outboxPending = :p',
        ExpressionAttributeValues: { ':p': OUTBOX_PENDING },
        ScanIndexForward: true,
      },
    );
    for await (const page of pages) yield* (page.Items ?? []) as unknown as WorkflowItem[];
  }

  /** The item, read consistently, or `undefined`. */
  find(id: string): Promise<WorkflowItem | undefined> {
    return this.queries.find(id);
  }

  /**
   * Takes a published event off the item, on condition that it is still there: of two deliverers
   * that published the same event, one clears it and the other learns it was gone (`false`).
   * Taking the last event also takes the item out of the index, on condition that no transition
   * added one meanwhile (its version is unchanged).
   */
  async clear(item: WorkflowItem, eventId: string): Promise<boolean> {
    let current = item;
    for (let attempt = 1; attempt <= CLEAR_ATTEMPTS; attempt++) {
      if (!current.outbox?.[eventId]) return false;
      const last = Object.keys(current.outbox).length === 1;
      const held = when.present(`outbox.${eventId}`);
      try {
        await conditionalUpdate(
          this.client,
          this.table,
          current.id,
          { [`outbox.${eventId}`]: null, ...(last && { outboxPending: null, outboxAt: null }) },
          last ? when.all(held, when.equals('version', current.version)) : held,
        );
        return true;
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
      const fresh = await this.queries.find(current.id);
      if (!fresh) return false;
      current = fresh;
    }
    throw new TransitionContentionError(item.id, CLEAR_ATTEMPTS);
  }

  /**
   * Takes an item whose outbox is empty out of the index (two deliverers that each cleared one of
   * two events both left the marker). Left alone when a transition moved it since it was read.
   */
  async settle(item: WorkflowItem): Promise<void> {
    if (item.outboxPending === undefined || Object.keys(item.outbox ?? {}).length > 0) return;
    try {
      await conditionalUpdate(
        this.client,
        this.table,
        item.id,
        { outboxPending: null, outboxAt: null },
        when.equals('version', item.version),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }
}
