import { createRequire } from 'node:module';

/**
 * dynalite (4.x) reads a table's description from LevelDB on every request, to check that the
 * table exists and to learn its keys and indexes. On the pipeline bench that read was the largest
 * single cost of the local DynamoDB (about 2 s of the runtime thread's CPU per 200 documents:
 * LevelDB's get and the JSON decode of a description with four indexes), for a value that changes
 * only when a table is created, updated or deleted.
 *
 * This keeps the description of each table item requests read in memory, per store, and drops it
 * whenever anything writes a table description. Only item requests (`checkStatus` set: GetItem,
 * PutItem, Query, ...) are answered from memory; they only read the description, so they can
 * share one object. Table requests (DescribeTable, UpdateTable, DeleteTable, ...) read LevelDB as
 * before: UpdateTable and DeleteTable change the object they get before they write it back. What
 * a request sees is what it saw before; only the repeated read is gone. `npm run bench:store`
 * (client and dynalite in one thread) went from 124-154 to 162-212 transitions/s with it.
 */

type Callback = (error: Error | null, table?: TableDescription) => void;
interface TableDescription {
  TableStatus?: string;
}
interface TableDb {
  put(key: string, value: unknown, cb: (error?: Error | null) => void): void;
  del(key: string, cb: (error?: Error | null) => void): void;
  batch(ops: unknown[], cb: (error?: Error | null) => void): void;
}
interface Store {
  tableDb: TableDb;
  getTable(name: string, checkStatus: boolean | Callback, cb?: Callback): void;
}
interface DynaliteDbModule {
  create(options: unknown): Store;
}

const PATCHED = Symbol.for('docket.dynaliteTableCache');

/** Wraps one store's `getTable` with the cache and its table writes with the invalidation. */
const cacheTables = (store: Store): Store => {
  const cache = new Map<string, TableDescription>();
  // Bumped around every table write: a read that started before a write must not fill the
  // cache with what it read, as LevelDB may have answered it from before the write.
  let writes = 0;
  const { tableDb } = store;
  for (const method of ['put', 'del', 'batch'] as const) {
    const write = tableDb[method].bind(tableDb) as (...args: unknown[]) => void;
    tableDb[method] = ((...args: unknown[]) => {
      const cb = args.pop() as (error?: Error | null) => void;
      writes++;
      cache.clear();
      write(...args, (error?: Error | null) => {
        writes++;
        cache.clear();
        cb(error);
      });
    }) as never;
  }
  const read = store.getTable.bind(store);
  store.getTable = (name, checkStatus, cb) => {
    // dynalite's own calling convention: `getTable(name, cb)` checks the status.
    const done = (typeof checkStatus === 'function' ? checkStatus : cb) as Callback;
    const itemRequest = checkStatus !== false;
    const hit = itemRequest ? cache.get(name) : undefined;
    if (hit) {
      process.nextTick(done, null, hit);
      return;
    }
    const startedAt = writes;
    read(name, itemRequest, (error, table) => {
      if (!error && table && itemRequest && startedAt === writes) cache.set(name, table);
      done(error, table);
    });
  };
  return store;
};

/**
 * Makes every dynalite store created from now on in this process cache its table descriptions
 * (idempotent). Call before `dynalite()`: it creates its store through the same module.
 */
export const installDynaliteTableCache = (): void => {
  const db = createRequire(import.meta.url)('dynalite/db/index.js') as DynaliteDbModule & {
    [PATCHED]?: true;
  };
  if (db[PATCHED]) return;
  const create = db.create;
  db.create = (options) => cacheTables(create(options));
  db[PATCHED] = true;
};
