import { BatchWriteCommand, type DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { type Provider, type ProviderLookup, ProviderSchema, providerLookupFrom } from './documents/index.js';
import { UnprocessedWritesError } from './errors.js';
import { exponentialBackoff, retry } from './retry.js';

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

/**
 * A provider lookup over the Providers table, reloaded at most every `ttlMs` per container so a
 * burst of validations costs one Scan. A read error rejects (validation makes it retryable).
 */
export const cachedProviderLookup = (
  client: DynamoDBDocumentClient,
  table: string,
  options: { ttlMs?: number; now?: () => number } = {},
): ProviderLookup => {
  const ttl = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  let cache: { at: number; lookup: Promise<ProviderLookup> } | undefined;
  return async (query) => {
    if (!cache || now() - cache.at > ttl) {
      const lookup = loadProviders(client, table).then(providerLookupFrom);
      cache = { at: now(), lookup };
      lookup.catch(() => {
        cache = undefined;
      });
    }
    return (await cache.lookup)(query);
  };
};

/** Writes providers (upsert by id), 25 per batch, retrying what DynamoDB leaves unprocessed. */
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
  return providers.length;
};
