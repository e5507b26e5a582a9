import {
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  paginateScan,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { type Provider, type ProviderLookup, ProviderSchema, providerLookupFrom } from './documents/index.js';
import { UnprocessedWritesError } from './errors.js';
import { exponentialBackoff, retry } from './retry.js';

/**
 * The id of the table's one non-provider item: a counter every import bumps, so a lookup sees an
 * import at its next call (one consistent GetItem) instead of after its cache expires. Provider
 * ids cannot start with `#` (ProviderSchema), so it never collides with one.
 */
export const PROVIDERS_STAMP_ID = '#import-stamp';

/** Every provider in the table (it holds hundreds, not millions: one paginated Scan). */
export const loadProviders = async (client: DynamoDBDocumentClient, table: string): Promise<Provider[]> => {
  const providers: Provider[] = [];
  for await (const page of paginateScan({ client }, { TableName: table })) {
    for (const item of page.Items ?? []) {
      const parsed = ProviderSchema.safeParse(item);
      if (parsed.success) providers.push(parsed.data);
    }
  }
  return providers;
};

const importStamp = async (client: DynamoDBDocumentClient, table: string): Promise<number> => {
  const { Item } = await client.send(
    new GetCommand({ TableName: table, Key: { id: PROVIDERS_STAMP_ID }, ConsistentRead: true }),
  );
  return typeof Item?.version === 'number' ? Item.version : 0;
};

/**
 * Provider lookups over the Providers table, one per validation: `providers()` gives a lookup
 * that reads the import stamp (one consistent GetItem) at its first call and reloads the
 * providers when an import happened since they were loaded, so a document uploaded right after
 * `docket providers import` is checked against what was imported. Every later call of the same
 * lookup (a vendor's name, then each tax id it states) uses that snapshot without reading again.
 * The providers are also reloaded at most every `ttlMs` per container (a write that bypassed the
 * import), so a burst of validations costs one Scan. A read error rejects the lookup's calls
 * (validation makes it retryable).
 */
export const cachedProviders = (
  client: DynamoDBDocumentClient,
  table: string,
  options: { ttlMs?: number; now?: () => number } = {},
): (() => ProviderLookup) => {
  const ttl = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  let cache: { at: number; stamp: number; lookup: Promise<ProviderLookup> } | undefined;
  const current = async (): Promise<ProviderLookup> => {
    const stamp = await importStamp(client, table);
    if (!cache || cache.stamp !== stamp || now() - cache.at > ttl) {
      const lookup = loadProviders(client, table).then(providerLookupFrom);
      const loading = { at: now(), stamp, lookup };
      cache = loading;
      lookup.catch(() => {
        if (cache === loading) cache = undefined;
      });
    }
    return cache.lookup;
  };
  return () => {
    let snapshot: Promise<ProviderLookup> | undefined;
    return async (query) => {
      snapshot ??= current();
      return (await snapshot)(query);
    };
  };
};

/**
 * Writes providers (upsert by id), 25 per batch, retrying what DynamoDB leaves unprocessed, then
 * bumps the import stamp so every lookup reloads at its next call.
 */
export const putProviders = async (
  client: DynamoDBDocumentClient,
  table: string,
  providers: readonly Provider[],
): Promise<number> => {
  for (let i = 0; i < providers.length; i += 25) {
    let requests = providers.slice(i, i + 25).map((p) => ({ PutRequest: { Item: p } }));
    await retry(
      async () => {
        const { UnprocessedItems } = await client.send(
          new BatchWriteCommand({ RequestItems: { [table]: requests } }),
        );
        requests = (UnprocessedItems?.[table] ?? []) as typeof requests;
        if (requests.length > 0) throw new UnprocessedWritesError(table, requests.length);
      },
      // Until every write is processed; a failed call itself is not retried here.
      {
        attempts: Number.POSITIVE_INFINITY,
        delayMs: exponentialBackoff(50, 1000),
        retryOn: (error) => error instanceof UnprocessedWritesError,
      },
    );
  }
  await client.send(
    new UpdateCommand({
      TableName: table,
      Key: { id: PROVIDERS_STAMP_ID },
      UpdateExpression: 'ADD version :one SET importedAt = :at',
      ExpressionAttributeValues: { ':one': 1, ':at': new Date().toISOString() },
    }),
  );
  return providers.length;
};
