import { createRequire } from 'node:module';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DynamoDBClient,
  PutItemCommand,
  ResourceNotFoundException,
  waitUntilTableExists,
  waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installDynaliteTableCache } from '../../../local/emulators/dynaliteTableCache.js';
import { type LocalDynamo, startLocalDynamo } from '../../../local/emulators/dynamo.js';

type Callback = (error: Error | null, value?: unknown) => void;
interface Store {
  tableDb: {
    get(key: string, cb: Callback): void;
    put(key: string, value: unknown, cb: (error?: Error | null) => void): void;
  };
  getTable(name: string, checkStatus: boolean | Callback, cb?: Callback): void;
}
const dynaliteDb = createRequire(import.meta.url)('dynalite/db/index.js') as { create(o: object): Store };

const getTable = (store: Store, name: string, checkStatus?: false) =>
  new Promise<{ TableStatus: string; marker?: number }>((resolve, reject) => {
    const cb: Callback = (error, table) => (error ? reject(error) : resolve(table as never));
    if (checkStatus === false) store.getTable(name, false, cb);
    else store.getTable(name, cb);
  });
const putTable = (store: Store, name: string, value: object) =>
  new Promise<void>((resolve, reject) =>
    store.tableDb.put(name, value, (error) => (error ? reject(error) : resolve())),
  );

/** Counts the reads of table descriptions that reach LevelDB. */
const countReads = (store: Store) => {
  const counter = { reads: 0 };
  const get = store.tableDb.get.bind(store.tableDb);
  store.tableDb.get = (key, cb) => {
    counter.reads++;
    get(key, cb);
  };
  return counter;
};

describe('dynalite table cache, on its store', () => {
  it('reads a table description once for item requests and again after a write', async () => {
    // Prepare
    installDynaliteTableCache();
    const store = dynaliteDb.create({});
    await putTable(store, 't', { TableName: 't', TableStatus: 'ACTIVE', marker: 1 });
    const counter = countReads(store);

    // Act
    const first = await getTable(store, 't');
    const second = await getTable(store, 't');
    await putTable(store, 't', { TableName: 't', TableStatus: 'ACTIVE', marker: 2 });
    const third = await getTable(store, 't');

    // Assess
    expect([first.marker, second.marker, third.marker]).toEqual([1, 1, 2]);
    expect(counter.reads).toBe(2);
  });

  it('always reads LevelDB for table requests, which change what they get', async () => {
    // Prepare
    installDynaliteTableCache();
    const store = dynaliteDb.create({});
    await putTable(store, 't', { TableName: 't', TableStatus: 'ACTIVE' });
    await getTable(store, 't');
    const counter = countReads(store);

    // Act
    const described = await getTable(store, 't', false);
    described.TableStatus = 'DELETING';
    const forItem = await getTable(store, 't');

    // Assess: the table request read LevelDB; its change did not reach the cached description.
    expect(counter.reads).toBe(1);
    expect(forItem.TableStatus).toBe('ACTIVE');
  });
});

describe('dynalite table cache, over the DynamoDB API', () => {
  let dynamo: LocalDynamo;
  let client: DynamoDBClient;
  beforeAll(async () => {
    dynamo = await startLocalDynamo();
    client = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  });
  afterAll(async () => {
    client.destroy();
    await dynamo.close();
  });

  const waiter = { minDelay: 0.02, maxDelay: 0.5, maxWaitTime: 60 };
  const create = async (key: string) => {
    await client.send(
      new CreateTableCommand({
        TableName: 'cache-probe',
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [{ AttributeName: key, KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: key, AttributeType: 'S' }],
      }),
    );
    await waitUntilTableExists({ client, ...waiter }, { TableName: 'cache-probe' });
  };

  it('follows a table deleted and created again with another key', async () => {
    // Prepare: the old description is cached by an item request.
    await create('a');
    await client.send(new PutItemCommand({ TableName: 'cache-probe', Item: { a: { S: '1' } } }));

    // Act
    await client.send(new DeleteTableCommand({ TableName: 'cache-probe' }));
    await waitUntilTableNotExists({ client, ...waiter }, { TableName: 'cache-probe' });
    const whileGone = await client
      .send(new PutItemCommand({ TableName: 'cache-probe', Item: { a: { S: '2' } } }))
      .catch((error: unknown) => error);
    await create('b');
    const newKey = await client.send(
      new PutItemCommand({ TableName: 'cache-probe', Item: { b: { S: '3' } } }),
    );
    const oldKey = await client
      .send(new PutItemCommand({ TableName: 'cache-probe', Item: { a: { S: '4' } } }))
      .catch((error: unknown) => error);

    // Assess
    expect(whileGone).toBeInstanceOf(ResourceNotFoundException);
    expect(newKey.$metadata.httpStatusCode).toBe(200);
    expect((oldKey as Error).name).toBe('ValidationException');
  });
});
