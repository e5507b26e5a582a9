import { access, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { createTableInput, TABLES, type TableSpec } from '../../lambdas/shared/store/index.js';
import { installDynaliteTableCache } from './dynaliteTableCache.js';
import { addMissingIndexes, type IndexRepair, rebuildIndexes } from './dynamoIndexes.js';
import { syncDirectory } from './s3/atomicFile.js';

/** A running dynalite and the table names created in it. */
export interface LocalDynamo {
  endpoint: string;
  port: number;
  tables: Record<TableSpec['id'], string>;
  /** Set when the store on disk was not closed cleanly last time: what rebuilding its indexes fixed. */
  indexRepair?: IndexRepair;
  /** Indexes (`table/index`) the specs gained since the store on disk was made, added and filled. */
  indexesAdded?: string[];
  close: () => Promise<void>;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Creates a table and returns once it is ACTIVE. dynalite, like DynamoDB, answers CreateTable
 * with CREATING and flips the status on a timer (even at `createTableMs: 0`); an item written
 * before the flip gets ResourceNotFoundException, which a busy machine made happen.
 */
export const createActiveTable = async (client: DynamoDBClient, input: CreateTableCommandInput) => {
  await client.send(new CreateTableCommand(input));
  // The waiter checks at once; the short delays suit an emulator that flips within milliseconds.
  await waitUntilTableExists(
    { client, minDelay: 0.02, maxDelay: 0.5, maxWaitTime: 60 },
    { TableName: input.TableName },
  );
};

/**
 * Marks the store at `path` open until a clean close, and rebuilds its indexes first when the
 * mark is still there from last time (`kill -9`, power cut: see `rebuildIndexes` for why) or
 * `rebuild` asks (an index was added).
 */
const openStore = async (path: string, rebuild: boolean) => {
  const marker = `${path}.open`;
  const indexRepair = rebuild || (await exists(marker)) ? await rebuildIndexes(path) : undefined;
  await writeFile(marker, `${process.pid}\n`, { flush: true });
  await syncDirectory(dirname(marker));
  return {
    indexRepair,
    markClosed: async () => {
      await rm(marker, { force: true });
      await syncDirectory(dirname(marker));
    },
  };
};

/**
 * Starts dynalite on 127.0.0.1 (port 0 picks a free one), on disk when `path` is given, and
 * creates the Docket tables from the same specs CDK uses if they do not exist yet. A store on disk
 * that was not closed cleanly gets its indexes rebuilt before it serves.
 */
export const startLocalDynamo = async (
  options: { port?: number; path?: string; tablePrefix?: string; region?: string } = {},
): Promise<LocalDynamo> => {
  const prefix = options.tablePrefix ?? 'docket';
  const tables = Object.fromEntries(TABLES.map((t) => [t.id, `${prefix}-${t.id}`])) as LocalDynamo['tables'];
  // A store from an earlier version lacks the indexes added since (the outbox index, ...).
  const indexesAdded =
    options.path && (await exists(options.path))
      ? await addMissingIndexes(
          options.path,
          TABLES.map((spec) => createTableInput(spec, tables[spec.id])),
        )
      : [];
  const store = options.path ? await openStore(options.path, indexesAdded.length > 0) : undefined;
  installDynaliteTableCache();
  const server = dynalite({ path: options.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const endpoint = `http://127.0.0.1:${port}`;

  const admin = new DynamoDBClient({
    endpoint,
    region: options.region ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // DescribeTable per table, not ListTables: dynalite 4 lists tables by iterating every key in
  // the store (its prefixed-db wrapper filters a full key stream), which made each start read
  // every item and index entry ever written (about a second per 20,000 workflows).
  for (const spec of TABLES) {
    const name = tables[spec.id];
    const exists = await admin.send(new DescribeTableCommand({ TableName: name })).then(
      () => true,
      (error: unknown) => {
        if (error instanceof ResourceNotFoundException) return false;
        throw error;
      },
    );
    if (!exists) await createActiveTable(admin, createTableInput(spec, name));
  }
  admin.destroy();

  return {
    endpoint,
    port,
    tables,
    ...(store?.indexRepair && { indexRepair: store.indexRepair }),
    ...(indexesAdded.length > 0 && { indexesAdded }),
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections?.();
      });
      // Only once dynalite has closed LevelDB: a crash before this line rebuilds next time.
      await store?.markClosed();
    },
  };
};
