import {
  type DynamoDBDocumentClient,
  GetCommand,
  paginateQuery,
  paginateScan,
  type QueryCommandInput,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { WorkflowState } from '../../../statemachine/index.js';
import { compileCondition, when } from './conditions.js';
import { InvalidCursorError } from './errors.js';
import { counterpartyKey } from './projection.js';
import { Index } from './tables.js';
import type { WorkflowItem } from './types.js';

/** A page of a listing and the cursor of the next one. */
export interface Page<T> {
  items: T[];
  cursor?: string;
}

/** Filters of `list`. */
export interface ListQuery {
  tenant?: string;
  state?: WorkflowState;
  limit?: number;
  cursor?: string;
}

const encodeCursor = (key: Record<string, unknown> | undefined): string | undefined =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : undefined;

/**
 * The key attributes a cursor of a listing holds, the value one must have (the tenant) and the
 * prefix one must start with (the state, in a listing by state): a start key outside the query's
 * key condition is a DynamoDB validation error, or a page of another tenant.
 */
interface CursorShape {
  keys: readonly string[];
  equals?: Record<string, string>;
  prefixes?: Record<string, string>;
}

/**
 * A cursor back into the key it was made from. A cursor comes from outside (a query string), so
 * it must be exactly a key of this listing, with the caller's tenant: anything else would be a
 * DynamoDB validation error, or a start key in another tenant's partition.
 */
const decodeCursor = (
  cursor: string | undefined,
  shape: CursorShape,
): Record<string, unknown> | undefined => {
  if (cursor === undefined) return undefined;
  if (cursor.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new InvalidCursorError('not base64url');
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch (error) {
    throw new InvalidCursorError('not JSON', { cause: error });
  }
  if (typeof key !== 'object' || key === null || Array.isArray(key))
    throw new InvalidCursorError('not a key');
  const entries = Object.entries(key);
  const keys = entries.map(([name]) => name).sort();
  if (keys.join() !== [...shape.keys].sort().join())
    throw new InvalidCursorError('not a key of this listing');
  if (entries.some(([, value]) => typeof value !== 'string' || value.length === 0 || value.length > 1024)) {
    throw new InvalidCursorError('not a key of this listing');
  }
  const values = key as Record<string, string>;
  const fits =
    Object.entries(shape.equals ?? {}).every(([name, value]) => values[name] === value) &&
    Object.entries(shape.prefixes ?? {}).every(([name, prefix]) => values[name]?.startsWith(prefix));
  if (!fits) throw new InvalidCursorError('of another listing');
  return key as Record<string, unknown>;
};

/** The pages of a listing from `cursor` on, `limit` items each. */
type Pages = AsyncIterable<{ Items?: Record<string, unknown>[]; LastEvaluatedKey?: Record<string, unknown> }>;

/** The page's items: the paginator types them as plain records; the table holds workflow items. */
const itemsOfPage = (page: { Items?: Record<string, unknown>[] }) =>
  (page.Items ?? []) as unknown as WorkflowItem[];

const firstPage = async (pages: Pages): Promise<Page<WorkflowItem>> => {
  for await (const page of pages) {
    return { items: itemsOfPage(page), cursor: encodeCursor(page.LastEvaluatedKey) };
  }
  return { items: [] };
};

async function* itemsOf(pages: Pages): AsyncGenerator<WorkflowItem> {
  for await (const page of pages) yield* itemsOfPage(page);
}

/**
 * Reads of the workflows table: one item by id (consistent), listings by tenant and state, the
 * review queue, completed documents by counterparty. Paging goes through the SDK paginators; a
 * cursor is the opaque `LastEvaluatedKey` of the page before.
 */
export class WorkflowQueries {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The workflow, or `undefined` (also for another tenant's, when `tenant` is given). */
  async find(id: string, options: { tenant?: string } = {}): Promise<WorkflowItem | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { id }, ConsistentRead: true }),
    );
    const item = Item as (WorkflowItem & { state?: unknown }) | undefined;
    // Extraction-cache records share the table and have no state.
    if (!item || item.state === undefined) return undefined;
    if (options.tenant !== undefined && item.tenant !== options.tenant) return undefined;
    return item;
  }

  /** One page of workflows: by tenant (and state) through the GSI, across tenants by Scan. */
  list(query: ListQuery = {}): Promise<Page<WorkflowItem>> {
    return firstPage(this.pages(query));
  }

  /** Every workflow matching the query. */
  listAll(query: Omit<ListQuery, 'cursor'> = {}): AsyncGenerator<WorkflowItem> {
    return itemsOf(this.pages(query));
  }

  /** The review queue of a tenant, most urgent first (sparse GSI). */
  reviewQueue(
    tenant: string,
    options: { limit?: number; cursor?: string } = {},
  ): Promise<Page<WorkflowItem>> {
    return firstPage(
      paginateQuery(
        {
          client: this.client,
          pageSize: options.limit ?? 50,
          startingToken: decodeCursor(options.cursor, {
            keys: ['id', 'reviewTenant', 'reviewRank'],
            equals: { reviewTenant: tenant },
          }),
        },
        {
          TableName: this.table,
          IndexName: Index.reviewQueue,
          KeyConditionExpression: 'reviewTenant = :t',
          ExpressionAttributeValues: { ':t': tenant },
          ScanIndexForward: false,
        },
      ),
    );
  }

  /**
   * Completed documents of a tenant with this type and counterparty (normalised name), newest
   * first by document date: what compare needs, read from the sparse counterparty index.
   */
  completedByCounterparty(
    tenant: string,
    docType: string,
    counterparty: string,
  ): AsyncGenerator<WorkflowItem> {
    return itemsOf(
      paginateQuery(
        { client: this.client },
        {
          TableName: this.table,
          IndexName: Index.byCounterparty,
          KeyConditionExpression: 'refKey = :k',
          ExpressionAttributeValues: { ':k': counterpartyKey(tenant, docType, counterparty) },
          ScanIndexForward: false,
        },
      ),
    );
  }

  /**
   * The tenants that have workflows: one Scan of the table reading only `tenant` (memory holds
   * the set of tenants, not the workflows).
   */
  async tenants(): Promise<string[]> {
    const filter = compileCondition(when.present('state'));
    const found = new Set<string>();
    const pages = paginateScan(
      { client: this.client },
      {
        TableName: this.table,
        ProjectionExpression: '#tenant',
        FilterExpression: filter.ConditionExpression,
        ExpressionAttributeNames: { ...filter.ExpressionAttributeNames, '#tenant': 'tenant' },
        ExpressionAttributeValues: filter.ExpressionAttributeValues,
      },
    );
    for await (const page of pages) for (const item of page.Items ?? []) found.add(item.tenant as string);
    return [...found].sort();
  }

  private pages(query: ListQuery): Pages {
    const config = (shape: CursorShape) => ({
      client: this.client,
      pageSize: query.limit ?? 100,
      startingToken: decodeCursor(query.cursor, shape),
    });
    if (query.tenant !== undefined) {
      const input: QueryCommandInput = {
        TableName: this.table,
        IndexName: Index.byTenantState,
        KeyConditionExpression: query.state
          ? 'gsiTenant = :t AND begins_with(gsiStateKey, :s)'
          : 'gsiTenant = :t',
        ExpressionAttributeValues: { ':t': query.tenant, ...(query.state && { ':s': `${query.state}#` }) },
      };
      return paginateQuery(
        config({
          keys: ['id', 'gsiTenant', 'gsiStateKey'],
          equals: { gsiTenant: query.tenant },
          ...(query.state && { prefixes: { gsiStateKey: `${query.state}#` } }),
        }),
        input,
      );
    }
    // Cache records share the table; only workflows have a state.
    const filter = compileCondition(query.state ? when.equals('state', query.state) : when.present('state'));
    const input: ScanCommandInput = {
      TableName: this.table,
      FilterExpression: filter.ConditionExpression,
      ExpressionAttributeNames: filter.ExpressionAttributeNames,
      ExpressionAttributeValues: filter.ExpressionAttributeValues,
    };
    return paginateScan(config({ keys: ['id'] }), input);
  }
}
