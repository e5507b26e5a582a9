import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { afterAll, describe, expect, it } from 'vitest';
import { createTableInput, Index, WORKFLOWS_TABLE } from '../../../lambdas/shared/store/index.js';
import { createActiveTable, type LocalDynamo, startLocalDynamo } from '../../../local/emulators/dynamo.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** dynalite's store module: the test leaves the store exactly as dynalite's own write order would. */
const dynaliteDb = createRequire(import.meta.url)('dynalite/db/index.js');

const clientOf = (dynamo: LocalDynamo) =>
  new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

const workflow = (id: string, state: string) => ({
  id: { S: id },
  state: { S: state },
  gsiTenant: { S: 'acme' },
  gsiStateKey: { S: `${state}#2026-11-25T00:00:00.000Z` },
});

/**
 * What `kill -9` leaves when it lands inside one dynalite write: dynalite updates an item's
 * index entries first and the item after, as two LevelDB writes; this applies the first and
 * never the second. The `.open` mark stays, as it does when the process dies.
 */
const crashMidWrite = async (path: string, writes: { before?: object; after: object }[]) => {
  const store = dynaliteDb.create({ path });
  const table = await new Promise((resolve, reject) =>
    store.getTable('docket-workflows', false, (error: Error | null, t: unknown) =>
      error ? reject(error) : resolve(t),
    ),
  );
  for (const { before, after } of writes) {
    await new Promise<void>((resolve, reject) =>
      dynaliteDb.updateIndexes(store, table, before, after, (error?: Error) =>
        error ? reject(error) : resolve(),
      ),
    );
  }
  await store.db.close();
};

const byState = async (client: DynamoDBClient, state: string) => {
  const page = await client.send(
    new QueryCommand({
      TableName: 'docket-workflows',
      IndexName: 'byTenantState',
      KeyConditionExpression: 'gsiTenant = :t AND begins_with(gsiStateKey, :s)',
      ExpressionAttributeValues: { ':t': { S: 'acme' }, ':s': { S: `${state}#` } },
    }),
  );
  return (page.Items ?? []).map((i) => i.id?.S);
};

describe('local DynamoDB after kill -9 inside a write', () => {
  it('rebuilds the indexes from the items on the next start: no phantom, no lost entry', async () => {
    // Prepare: one workflow stored, then two writes cut between index and item.
    const dir = await mkdtemp(join(tmpdir(), 'docket-dynamo-crash-'));
    dirs.push(dir);
    const path = join(dir, 'dynamodb');
    const first = await startLocalDynamo({ path });
    const client = clientOf(first);
    await client.send(
      new PutItemCommand({ TableName: 'docket-workflows', Item: workflow('wf-a', 'pending') }),
    );
    client.destroy();
    await first.close();
    await crashMidWrite(path, [
      // wf-a moving from pending to parsing: its index entry moved, the item did not.
      { before: workflow('wf-a', 'pending'), after: workflow('wf-a', 'parsing_pdf') },
      // wf-b being created: its index entry written, the item never.
      { after: workflow('wf-b', 'pending') },
    ]);
    await writeFile(`${path}.open`, 'killed\n');

    // Act
    const second = await startLocalDynamo({ path });
    const after = clientOf(second);
    const pending = await byState(after, 'pending');
    const parsing = await byState(after, 'parsing_pdf');
    after.destroy();
    await second.close();

    // Assess: the index says what the items say.
    expect(second.indexRepair).toEqual({ stale: 2, missing: 1, entries: 1 });
    expect(pending).toEqual(['wf-a']);
    expect(parsing).toEqual([]);
  });

  it('rebuilds nothing after a clean close', async () => {
    // Prepare
    const dir = await mkdtemp(join(tmpdir(), 'docket-dynamo-clean-'));
    dirs.push(dir);
    const path = join(dir, 'dynamodb');
    const first = await startLocalDynamo({ path });
    const client = clientOf(first);
    await client.send(
      new PutItemCommand({ TableName: 'docket-workflows', Item: workflow('wf-a', 'pending') }),
    );
    client.destroy();
    await first.close();

    // Act
    const second = await startLocalDynamo({ path });
    const after = clientOf(second);
    const pending = await byState(after, 'pending');
    after.destroy();
    await second.close();

    // Assess
    expect(second.indexRepair).toBeUndefined();
    expect(pending).toEqual(['wf-a']);
  });
});

describe('local DynamoDB made by an earlier version', () => {
  it('gains the indexes the table specs added since, filled from the items, once', async () => {
    // Prepare: a store whose workflows table predates the outbox index, with an item that needs it.
    const dir = await mkdtemp(join(tmpdir(), 'docket-dynamo-old-'));
    dirs.push(dir);
    const path = join(dir, 'dynamodb');
    const old = dynalite({ path, createTableMs: 0 });
    await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', () => resolve()));
    const oldClient = new DynamoDBClient({
      endpoint: `http://127.0.0.1:${(old.address() as AddressInfo).port}`,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const spec = {
      ...WORKFLOWS_TABLE,
      indexes: WORKFLOWS_TABLE.indexes.filter((i) => i.indexName !== Index.pendingOutbox),
    };
    await createActiveTable(oldClient, createTableInput(spec, 'docket-workflows'));
    await oldClient.send(
      new PutItemCommand({
        TableName: 'docket-workflows',
        Item: {
          ...workflow('wf-o', 'cancelled'),
          outboxPending: { S: 'pending' },
          outboxAt: { S: '2026-11-25T00:00:00.000Z' },
        },
      }),
    );
    oldClient.destroy();
    await new Promise<void>((resolve) => old.close(() => resolve()));

    // Act
    const upgraded = await startLocalDynamo({ path });
    const client = clientOf(upgraded);
    const page = await client.send(
      new QueryCommand({
        TableName: 'docket-workflows',
        IndexName: Index.pendingOutbox,
        KeyConditionExpression: 'outboxPending = :p',
        ExpressionAttributeValues: { ':p': { S: 'pending' } },
      }),
    );
    client.destroy();
    await upgraded.close();
    const again = await startLocalDynamo({ path });
    await again.close();

    // Assess
    expect(upgraded.indexesAdded).toEqual([`docket-workflows/${Index.pendingOutbox}`]);
    expect((page.Items ?? []).map((i) => i.id?.S)).toEqual(['wf-o']);
    expect(again.indexesAdded).toBeUndefined();
  });
});
