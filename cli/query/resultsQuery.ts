import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { GetObjectCommand, paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';
import type { DocType } from '../../lambdas/shared/documents/index.js';
import { ColumnKind, RESULT_COLUMNS, resultTableName } from '../../lambdas/shared/results/columns.js';
import { RESULTS_PARQUET_PREFIX } from '../../lambdas/shared/results/keys.js';
import { BadQueryError, NoResultsYetError } from '../errors.js';

/** What a query returns: the column names in order, and rows of JSON-friendly values. */
export interface QueryResult {
  columns: string[];
  /**
   * Each row by column name: DECIMALs and timestamps as strings (exact), integers as numbers
   * (a 64-bit one past 2^53 as a string), booleans, null.
   */
  rows: Record<string, unknown>[];
  /** How many Parquet files the views were made over. */
  files: number;
}

const DOC_TYPES = Object.keys(RESULT_COLUMNS) as DocType[];

/** The Parquet files under results-parquet/ (one tenant's with `tenant`), listed page by page. */
const listParquet = async (s3: S3Client, bucket: string, tenant?: string): Promise<string[]> => {
  const keys: string[] = [];
  const prefix = `${RESULTS_PARQUET_PREFIX}${tenant ? `${tenant}/` : ''}`;
  for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: bucket, Prefix: prefix })) {
    for (const o of page.Contents ?? []) if (o.Key?.endsWith('.parquet')) keys.push(o.Key);
  }
  return keys;
};

/** Fetches each object into `dir` under its own key (a key that would leave `dir` is skipped). */
const download = async (s3: S3Client, bucket: string, keys: readonly string[], dir: string) => {
  const files = new Map<string, string>();
  for (const key of keys) {
    const file = join(dir, key);
    if (relative(dir, file).startsWith('..')) continue;
    const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(
      file,
      await (Body as { transformToByteArray: () => Promise<Uint8Array> }).transformToByteArray(),
    );
    files.set(key, file);
  }
  return files;
};

/** 64-bit and wider integers, which DuckDB gives as strings in JSON (a count, a sum of ints). */
const WIDE_INTEGERS = new Set(['BIGINT', 'UBIGINT', 'HUGEINT', 'UHUGEINT']);
/** A wide integer as a number when a number holds it exactly, else left a string. */
const exactNumber = (value: unknown): unknown =>
  typeof value === 'string' && Number.isSafeInteger(Number(value)) ? Number(value) : value;

const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;
const sqlName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The table of a doc type, loaded in memory: its files read by name (a file written before a
 * column existed has it null), plus `date` as Athena's partition key gives it; with no file, an
 * empty table of the same typed columns, so a query of a type with no results yet answers no rows.
 */
const tableSql = (docType: DocType, files: readonly string[]): string => {
  const name = sqlName(resultTableName(docType));
  const date = `strftime(completedAt, '%Y-%m-%d') AS date`;
  if (files.length > 0) {
    const list = files.map(sqlString).join(', ');
    return `CREATE TABLE ${name} AS SELECT *, ${date} FROM read_parquet([${list}], union_by_name = true)`;
  }
  const columns = RESULT_COLUMNS[docType].map(
    (c) => `CAST(NULL AS ${ColumnKind[c.kind].duckdb}) AS ${sqlName(c.name)}`,
  );
  return `CREATE TABLE ${name} AS SELECT ${columns.join(', ')}, CAST(NULL AS VARCHAR) AS date WHERE false`;
};

/** The tables a query can name, with their columns, for an error message. */
export const describeTables = (): string =>
  DOC_TYPES.map(
    (t) => `${resultTableName(t)} (${[...RESULT_COLUMNS[t].map((c) => c.name), 'date'].join(', ')})`,
  ).join('; ');

/**
 * Runs `sql` with DuckDB over the compacted Parquet results: lists results-parquet/ of the bucket
 * with the S3 API (the local S3 or AWS), fetches the files into a temp directory, loads a table
 * per doc type (`invoices`, `contracts`) from them and runs the query in memory. DuckDB reads those
 * files only: no extension is installed or loaded (no httpfs, nothing downloaded), and before the
 * query runs external access is switched off and the configuration locked, so the SQL can read no
 * other file or URL and install nothing.
 */
export const queryResults = async (options: {
  s3: S3Client;
  bucket: string;
  sql: string;
  tenant?: string;
}): Promise<QueryResult> => {
  const keys = await listParquet(options.s3, options.bucket, options.tenant);
  if (keys.length === 0) {
    throw new NoResultsYetError(
      `No Parquet results in ${options.bucket}/${RESULTS_PARQUET_PREFIX}${options.tenant ? `${options.tenant}/` : ''} yet. ` +
        'A completed workflow is written as JSON when its event goes out, and compacted to Parquet every 15 minutes: ' +
        'run `docket results compact` to compact now, then query again.',
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'docket-query-'));
  // Loaded here: DuckDB's native binding is the largest thing the CLI loads, and only query needs it.
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const connection = await instance.connect();
  try {
    const files = await download(options.s3, options.bucket, keys, dir);
    for (const docType of DOC_TYPES) {
      const ofType = keys.filter((k) => k.split('/')[2] === docType).flatMap((k) => files.get(k) ?? []);
      await connection.run(tableSql(docType, ofType));
    }
    // The query itself reaches nothing outside: no file, no URL, no extension to install or load.
    await connection.run('SET enable_external_access = false');
    await connection.run('SET lock_configuration = true');
    let reader: Awaited<ReturnType<typeof connection.runAndReadAll>>;
    try {
      reader = await connection.runAndReadAll(options.sql);
    } catch (error) {
      throw new BadQueryError(
        `DuckDB could not run the query: ${(error as Error).message.split('\n')[0]}. Tables: ${describeTables()}.`,
        { cause: error },
      );
    }
    const columns = reader.columnNames();
    const wide = new Set(
      reader
        .columnTypes()
        .flatMap((type, i) => (WIDE_INTEGERS.has(type.toString()) ? [columns[i] as string] : [])),
    );
    const rows = (reader.getRowObjectsJson() as Record<string, unknown>[]).map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, wide.has(k) ? exactNumber(v) : v])),
    );
    return { columns, rows, files: files.size };
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(dir, { recursive: true, force: true });
  }
};
