import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderSchema } from '../../lambdas/shared/documents/index.js';
import { cachedProviders, loadProviders, putProviders } from '../../lambdas/shared/providersStore.js';
import { countCalls } from '../support/callCounter.js';
import { startStoreFixture } from '../support/localDynamo.js';

let fixture: Awaited<ReturnType<typeof startStoreFixture>>;
let table: string;

beforeAll(async () => {
  fixture = await startStoreFixture();
  table = fixture.dynamo.tables.providers;
});
afterAll(async () => {
  await fixture.close();
});

describe('the providers lookup (dynalite)', () => {
  it('sees an import at the next validation, though its cache has not expired', async () => {
    // Prepare: lookups whose clock never moves, so only the import stamp can make them reload.
    const providers = cachedProviders(fixture.client, table, { ttlMs: 60_000, now: () => 0 });
    const before = await providers()({ name: 'Lieferant GmbH' });

    // Act
    await putProviders(fixture.client, table, [{ id: 'lieferant', name: 'Lieferant GmbH' }]);
    const after = await providers()({ name: 'Lieferant GmbH' });

    // Assess
    expect(before).toBeUndefined();
    expect(after?.id).toBe('lieferant');
  });

  it('reads the import stamp once per validation, however many lookups it makes', async () => {
    // Prepare: a warm cache, then one validation's lookups (a name, then two tax ids).
    const providers = cachedProviders(fixture.client, table, { ttlMs: 60_000, now: () => 0 });
    await providers()({ name: 'Warm Up Ltd' });
    const calls = countCalls(fixture.client);

    // Act
    const lookup = providers();
    await lookup({ name: 'Lieferant GmbH' });
    await lookup({ name: '', taxId: 'DE123456789' });
    await lookup({ name: '', taxId: 'DE987654321' });
    calls.stop();

    // Assess
    expect(calls.snapshot()).toEqual({ GetItem: 1 });
  });

  it('keeps its cache for a write that bypassed the import until the cache expires', async () => {
    // Prepare
    let now = 0;
    const providers = cachedProviders(fixture.client, table, { ttlMs: 60_000, now: () => now });
    await providers()({ name: 'Warm Up Ltd' });
    await fixture.client.send(
      new PutCommand({ TableName: table, Item: { id: 'direct', name: 'Direct Writes Ltd' } }),
    );

    // Act
    const cached = await providers()({ name: 'Direct Writes Ltd' });
    now = 60_001;
    const reloaded = await providers()({ name: 'Direct Writes Ltd' });

    // Assess
    expect(cached).toBeUndefined();
    expect(reloaded?.id).toBe('direct');
  });

  it('lists providers without the import stamp, and refuses a provider id that could be one', async () => {
    // Act
    const listed = await loadProviders(fixture.client, table);
    const reserved = ProviderSchema.safeParse({ id: '#import-stamp', name: 'Sneaky Ltd' });

    // Assess
    expect(listed.map((p) => p.id).sort()).toEqual(['direct', 'lieferant']);
    expect(reserved.success).toBe(false);
  });
});
