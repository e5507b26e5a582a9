import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/**
 * Reads Parquet bytes back with DuckDB (an independent reader of what hyparquet-writer wrote):
 * `sql` runs with the file as the view `t`; rows as JSON-friendly objects, and the column types.
 */
export const readParquet = async (bytes: Uint8Array, sql = 'SELECT * FROM t') => {
  const dir = await mkdtemp(join(tmpdir(), 'docket-parquet-'));
  const file = join(dir, 'part-0.parquet');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await writeFile(file, bytes);
    await connection.run(`CREATE VIEW t AS SELECT * FROM read_parquet('${file}')`);
    const types = (await connection.runAndReadAll('DESCRIBE t')).getRowObjectsJson();
    const rows = (await connection.runAndReadAll(sql)).getRowObjectsJson();
    return { rows, types: Object.fromEntries(types.map((t) => [t.column_name, t.column_type])) };
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(dir, { recursive: true, force: true });
  }
};
