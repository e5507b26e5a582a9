import type { DocType } from '../documents/index.js';

/** Prefix of the JSON results: one object per completed workflow. */
export const RESULTS_PREFIX = 'results/';
/** Prefix of the compacted Parquet results: one file per tenant, doc type and day. */
export const RESULTS_PARQUET_PREFIX = 'results-parquet/';
/** The one file a day's compaction writes (a fixed name, so a rerun replaces it). */
export const PARQUET_PART = 'part-0.parquet';

/** A completion date as the partitions name it: `YYYY-MM-DD`, in UTC. */
export const resultDate = (completedAt: string | Date): string =>
  new Date(completedAt).toISOString().slice(0, 10);

/** `results/{tenant}/{docType}/date=YYYY-MM-DD/`: a day's JSON results of one tenant and type. */
export const resultDayPrefix = (tenant: string, docType: DocType, date: string): string =>
  `${RESULTS_PREFIX}${tenant}/${docType}/date=${date}/`;

/** Where a completed workflow's JSON result goes: keyed by what never changes, so a rewrite lands on it. */
export const resultKey = (tenant: string, docType: DocType, completedAt: string, id: string): string =>
  `${resultDayPrefix(tenant, docType, resultDate(completedAt))}${id}.json`;

/**
 * `results-parquet/{tenant}/{docType}/date=YYYY-MM-DD/part-0.parquet`: the Glue tables' partition
 * projection template is `results-parquet/${tenant}/{docType}/date=${date}/`.
 */
export const parquetKey = (tenant: string, docType: DocType, date: string): string =>
  `${RESULTS_PARQUET_PREFIX}${tenant}/${docType}/date=${date}/${PARQUET_PART}`;
