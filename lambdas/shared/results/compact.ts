import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  paginateListObjectsV2,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { DocType } from '../documents/index.js';
import { RESULT_COLUMNS } from './columns.js';
import { BadResultDateError, ResultStoreUnavailableError } from './errors.js';
import { parquetKey, RESULTS_PREFIX, resultDate, resultDayPrefix } from './keys.js';
import { resultsParquet } from './parquet.js';
import type { ResultRecord } from './record.js';

/** What compaction works with: the documents bucket. */
export interface CompactionDeps {
  s3: S3Client;
  bucket: string;
}

/** Which days to compact: given ones, every day that has results, or (default) today and yesterday. */
export interface CompactionRequest {
  /** `YYYY-MM-DD` days (UTC), or `all` for every day with JSON results. */
  dates?: readonly string[] | 'all';
  /** Only this tenant (default: every tenant with results). */
  tenant?: string;
  /** The clock the default days are taken from. */
  now?: () => Date;
}

/** What compaction did for one tenant, doc type and day. */
export interface DayCompaction {
  tenant: string;
  docType: DocType;
  date: string;
  /** Rows in the file written (0 when the day's file was removed). */
  rows: number;
  key: string;
  action: 'written' | 'removed' | 'nothing';
  /** JSON results that could not be read (not Docket's shape), left out of the file and named here. */
  unreadable: string[];
}

/** Results fetched at once: enough to keep S3 busy, few enough for a small Lambda. */
const FETCH_CONCURRENCY = 16;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day `YYYY-MM-DD` (2026-02-30 is not one), else BadResultDateError. */
const assertDay = (date: string): void => {
  const day = new Date(`${date}T00:00:00Z`);
  if (!DAY.test(date) || Number.isNaN(day.getTime()) || resultDate(day) !== date) {
    throw new BadResultDateError(date);
  }
};
const DOC_TYPES = Object.keys(RESULT_COLUMNS) as DocType[];

const unavailable = (what: string, cause: unknown) =>
  new ResultStoreUnavailableError(`S3 could not ${what}; compaction will try again.`, { cause });

/** Keys (or, with a delimiter, common prefixes) under a prefix, every page. */
const list = async (deps: CompactionDeps, prefix: string, delimiter?: string): Promise<string[]> => {
  const found: string[] = [];
  try {
    const pages = paginateListObjectsV2(
      { client: deps.s3 },
      { Bucket: deps.bucket, Prefix: prefix, ...(delimiter && { Delimiter: delimiter }) },
    );
    for await (const page of pages) {
      if (delimiter) for (const p of page.CommonPrefixes ?? []) found.push(p.Prefix as string);
      else for (const o of page.Contents ?? []) found.push(o.Key as string);
    }
  } catch (error) {
    throw unavailable(`list ${prefix}`, error);
  }
  return found;
};

const isResult = (value: unknown): value is ResultRecord => {
  const r = value as Partial<ResultRecord> | null;
  return (
    typeof r?.id === 'string' &&
    typeof r.tenant === 'string' &&
    typeof r.completedAt === 'string' &&
    typeof r.fields === 'object' &&
    r.fields !== null
  );
};

/** Reads a day's JSON results; a result not of Docket's shape is named, not thrown. */
const readResults = async (deps: CompactionDeps, keys: readonly string[]) => {
  const records: ResultRecord[] = [];
  const unreadable: string[] = [];
  const queue = [...keys];
  const worker = async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
      let text: string;
      try {
        const { Body } = await deps.s3.send(new GetObjectCommand({ Bucket: deps.bucket, Key: key }));
        text = await (Body as { transformToString: () => Promise<string> }).transformToString();
      } catch (error) {
        // Listed a moment ago: gone now means erased meanwhile, and the next run agrees.
        if ((error as Error).name === 'NoSuchKey') continue;
        throw unavailable(`read ${key}`, error);
      }
      try {
        const parsed: unknown = JSON.parse(text);
        if (isResult(parsed)) records.push(parsed);
        else unreadable.push(key);
      } catch {
        unreadable.push(key);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, keys.length) }, worker));
  // The same records in the same order make the same bytes: a rerun rewrites the file unchanged.
  records.sort((a, b) => a.completedAt.localeCompare(b.completedAt) || a.id.localeCompare(b.id));
  return { records, unreadable: unreadable.sort() };
};

const exists = async (deps: CompactionDeps, key: string): Promise<boolean> => {
  try {
    await deps.s3.send(new HeadObjectCommand({ Bucket: deps.bucket, Key: key }));
    return true;
  } catch (error) {
    if ((error as Error).name === 'NotFound' || (error as Error).name === 'NoSuchKey') return false;
    throw unavailable(`read ${key}`, error);
  }
};

/**
 * Rewrites one day's Parquet file of a tenant and doc type from that day's JSON results: one PUT
 * of the whole file (atomic in S3: a reader sees the old file or the new one, never half), or a
 * delete when the day has no result left (all erased). Idempotent: the same results give the same
 * bytes at the same key.
 */
export const compactDay = async (
  deps: CompactionDeps,
  tenant: string,
  docType: DocType,
  date: string,
): Promise<DayCompaction> => {
  assertDay(date);
  const key = parquetKey(tenant, docType, date);
  const jsonKeys = (await list(deps, resultDayPrefix(tenant, docType, date))).filter((k) =>
    k.endsWith('.json'),
  );
  const { records, unreadable } = await readResults(deps, jsonKeys);
  const report = { tenant, docType, date, key, rows: records.length, unreadable };
  try {
    if (records.length === 0) {
      if (!(await exists(deps, key))) return { ...report, action: 'nothing' };
      await deps.s3.send(new DeleteObjectCommand({ Bucket: deps.bucket, Key: key }));
      return { ...report, action: 'removed' };
    }
    await deps.s3.send(
      new PutObjectCommand({
        Bucket: deps.bucket,
        Key: key,
        Body: resultsParquet(docType, records),
        ContentType: 'application/vnd.apache.parquet',
      }),
    );
  } catch (error) {
    if (error instanceof ResultStoreUnavailableError) throw error;
    throw unavailable(`write ${key}`, error);
  }
  return { ...report, action: 'written' };
};

/** The last segment of a common prefix: `results/acme/` -> `acme`, `.../date=2026-11-27/` -> `2026-11-27`. */
const segment = (prefix: string, strip = '') => (prefix.split('/').at(-2) ?? '').slice(strip.length);

/**
 * Compaction: for each tenant with results (or the one asked for), each doc type and each day
 * asked for, rewrites that day's Parquet file (compactDay). The schedule asks for today and
 * yesterday (UTC; yesterday for results written just after midnight of a workflow completed
 * before it); `docket results compact` for any day, or all of them.
 */
export const compactResults = async (
  deps: CompactionDeps,
  request: CompactionRequest = {},
): Promise<DayCompaction[]> => {
  const explicit = Array.isArray(request.dates) ? request.dates : undefined;
  for (const date of explicit ?? []) assertDay(date);
  const now = (request.now ?? (() => new Date()))();
  const recent = [resultDate(new Date(now.getTime() - 86_400_000)), resultDate(now)];
  const tenants =
    request.tenant !== undefined
      ? [request.tenant]
      : (await list(deps, RESULTS_PREFIX, '/')).map((p) => segment(p));
  const done: DayCompaction[] = [];
  for (const tenant of tenants) {
    for (const docType of DOC_TYPES) {
      const dates =
        request.dates === 'all'
          ? (await list(deps, `${RESULTS_PREFIX}${tenant}/${docType}/`, '/')).map((p) => segment(p, 'date='))
          : (explicit ?? recent);
      for (const date of dates) done.push(await compactDay(deps, tenant, docType, date));
    }
  }
  return done;
};
