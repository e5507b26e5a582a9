import { createRequire } from 'node:module';
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/** What an index rebuild found and fixed, summed over every table and index. */
export interface IndexRepair {
  /** Index entries whose item is gone or says otherwise: removed. */
  stale: number;
  /** Items whose index entry was missing: added. */
  missing: number;
  /** Index entries checked and written again. */
  entries: number;
}

/** The few parts of dynalite's LevelDB store the rebuild uses (dynalite 4, `db/index.js`). */
interface PrefixedDb {
  createKeyStream(): AsyncIterable<string>;
  createValueStream(): AsyncIterable<unknown>;
  batch(ops: { type: 'put' | 'del'; key: string; value?: unknown }[], cb: (error?: Error) => void): void;
  get(key: string, cb: (error: Error | null, value?: unknown) => void): void;
  put(key: string, value: unknown, cb: (error?: Error | null) => void): void;
}
interface TableDescription {
  TableName: string;
  TableArn?: string;
  KeySchema: unknown[];
  AttributeDefinitions?: { AttributeName: string; AttributeType: string }[];
  GlobalSecondaryIndexes?: { IndexName: string }[];
  LocalSecondaryIndexes?: { IndexName: string }[];
}
interface DynaliteDb {
  create(options: { path: string }): {
    db: { close(): Promise<void> };
    tableDb: PrefixedDb;
    getItemDb(table: string): PrefixedDb;
    getIndexDb(type: 'Local' | 'Global', table: string, index: string): PrefixedDb;
  };
  getIndexActions(
    indexes: unknown[],
    existing: undefined,
    item: unknown,
    table: TableDescription,
  ): { puts: { index: string; key: string; item: unknown }[] };
}

// dynalite's store module: the code that decides how an item maps to its index entries, so the
// rebuild writes exactly what dynalite itself would (no second copy of that mapping here).
const dynaliteDb = createRequire(import.meta.url)('dynalite/db/index.js') as DynaliteDb;

const BATCH = 500;

const batch = (db: PrefixedDb, ops: Parameters<PrefixedDb['batch']>[0]) =>
  new Promise<void>((resolve, reject) => db.batch(ops, (error) => (error ? reject(error) : resolve())));

/** Writes `ops` in batches of `BATCH`. */
const writeAll = async (db: PrefixedDb, ops: Parameters<PrefixedDb['batch']>[0]) => {
  for (let i = 0; i < ops.length; i += BATCH) await batch(db, ops.slice(i, i + BATCH));
};

/**
 * Rebuilds every secondary index of the dynalite store at `path` from its items.
 *
 * Why: dynalite writes an item and its index entries as separate LevelDB writes (the index
 * first). A `kill -9` between them leaves an index entry with no item behind it, or an item whose
 * entry was removed and not yet replaced; dynalite never repairs either, so a Query on the index
 * answers a workflow that does not exist, forever. Each item is one atomic LevelDB write, so the
 * items are the truth and the indexes can always be derived from them again, as DynamoDB derives
 * a new GSI from its table. Run it before dynalite opens the store (it takes LevelDB's lock).
 */
export const rebuildIndexes = async (path: string): Promise<IndexRepair> => {
  const store = dynaliteDb.create({ path });
  const repair: IndexRepair = { stale: 0, missing: 0, entries: 0 };
  try {
    for await (const value of store.tableDb.createValueStream()) {
      const table = value as TableDescription;
      for (const type of ['Global', 'Local'] as const) {
        const indexes = table[`${type}SecondaryIndexes`] ?? [];
        if (indexes.length === 0) continue;
        // Keys only in memory (not the items), so a large table rebuilds in flat memory.
        const expected = new Map(indexes.map((i) => [i.IndexName, new Set<string>()]));
        const items = () => store.getItemDb(table.TableName).createValueStream();
        for await (const item of items()) {
          for (const put of dynaliteDb.getIndexActions(indexes, undefined, item, table).puts)
            expected.get(put.index)?.add(put.key);
        }
        for (const [name, keys] of expected) {
          const indexDb = store.getIndexDb(type, table.TableName, name);
          const stale: string[] = [];
          let present = 0;
          for await (const key of indexDb.createKeyStream()) {
            if (keys.has(key)) present += 1;
            else stale.push(key);
          }
          await writeAll(
            indexDb,
            stale.map((key) => ({ type: 'del' as const, key })),
          );
          repair.stale += stale.length;
          repair.missing += keys.size - present;
          repair.entries += keys.size;
        }
        // Every entry written again from its item: a crash can also leave an entry under the
        // right key holding the item as it was about to become.
        const pending = new Map<string, { type: 'put'; key: string; value: unknown }[]>();
        const flush = async (index: string) => {
          const ops = pending.get(index) ?? [];
          pending.delete(index);
          if (ops.length > 0) await batch(store.getIndexDb(type, table.TableName, index), ops);
        };
        for await (const item of items()) {
          for (const put of dynaliteDb.getIndexActions(indexes, undefined, item, table).puts) {
            const ops = pending.get(put.index) ?? [];
            ops.push({ type: 'put', key: put.key, value: put.item });
            pending.set(put.index, ops);
            if (ops.length >= BATCH) await flush(put.index);
          }
        }
        for (const index of [...pending.keys()]) await flush(index);
      }
    }
  } finally {
    await store.db.close();
  }
  return repair;
};

/**
 * Adds to the tables of the dynalite store at `path` the global secondary indexes their specs
 * gained after the store was made (a data directory from an earlier version: dynalite's
 * UpdateTable cannot create an index). Each is described as dynalite's CreateTable would have
 * described it; its entries are then written by `rebuildIndexes`, which the caller runs when this
 * added any, as DynamoDB backfills a new index from its table. Run it before dynalite opens the
 * store. Returns `table/index` of each index added.
 */
export const addMissingIndexes = async (
  path: string,
  wanted: readonly CreateTableCommandInput[],
): Promise<string[]> => {
  const store = dynaliteDb.create({ path });
  const added: string[] = [];
  try {
    for (const input of wanted) {
      const table = await new Promise<TableDescription | undefined>((resolve, reject) =>
        store.tableDb.get(input.TableName as string, (error, value) =>
          error && error.name !== 'NotFoundError' && (error as { code?: string }).code !== 'LEVEL_NOT_FOUND'
            ? reject(error)
            : resolve(value as TableDescription | undefined),
        ),
      );
      if (!table) continue;
      const have = new Set((table.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
      const missing = (input.GlobalSecondaryIndexes ?? []).filter((i) => !have.has(i.IndexName as string));
      if (missing.length === 0) continue;
      const attributes = new Map((table.AttributeDefinitions ?? []).map((a) => [a.AttributeName, a]));
      for (const a of input.AttributeDefinitions ?? [])
        attributes.set(a.AttributeName as string, a as { AttributeName: string; AttributeType: string });
      const updated: TableDescription = {
        ...table,
        AttributeDefinitions: [...attributes.values()],
        GlobalSecondaryIndexes: [
          ...(table.GlobalSecondaryIndexes ?? []),
          ...missing.map((index) => ({
            ...index,
            IndexName: index.IndexName as string,
            IndexArn: `${table.TableArn}/index/${index.IndexName}`,
            IndexSizeBytes: 0,
            ItemCount: 0,
            IndexStatus: 'ACTIVE',
            ProvisionedThroughput: { ReadCapacityUnits: 0, WriteCapacityUnits: 0, NumberOfDecreasesToday: 0 },
          })),
        ],
      };
      await new Promise<void>((resolve, reject) =>
        store.tableDb.put(table.TableName, updated, (error) => (error ? reject(error) : resolve())),
      );
      added.push(...missing.map((i) => `${table.TableName}/${i.IndexName}`));
    }
  } finally {
    await store.db.close();
  }
  return added;
};
