import { isParseError, ParseWorkerFailed, type SerializedParseError, serializeParseError } from './errors.js';
import { isGuardedChild, serveChildJobs } from './guardedChild.js';
import { type PdfReading, readPdf } from './pdfText.js';

/**
 * Set in the environment of the child process `parsePdf` forks, so the same file loaded anywhere
 * else stays inert.
 */
export const PARSE_CHILD_ENV = 'DOCKET_PARSE_CHILD';

/** What the guard sends the child: one job, then it waits for the verdict. */
export interface ParseJob {
  bytes: Uint8Array;
  maxPages: number;
  /** The guard's memory bound, named in PdfTooComplex when an allocation fails in the child. */
  maxRssBytes: number;
}

/**
 * True in the child process started by `parsePdf`. The guard forks the very file that holds it
 * (the Lambda bundle, once bundled), so every top-level statement of that file runs in the child
 * too: an entry point that does work at top level must skip it when this is true.
 */
export const isParseChild = (): boolean => isGuardedChild(PARSE_CHILD_ENV);

/** Reads one PDF. */
const runJob = (job: ParseJob, report: (progress: { pagesDone: number; pageCount: number }) => void) =>
  readPdf(job.bytes, {
    maxPages: job.maxPages,
    maxRssBytes: job.maxRssBytes,
    onProgress: report,
  }) satisfies Promise<PdfReading>;

/** Anything thrown becomes a parse error the parent can revive. */
const toSerialized = (error: unknown): SerializedParseError =>
  serializeParseError(
    isParseError(error)
      ? error
      : new ParseWorkerFailed({ reason: error instanceof Error ? error.message : String(error) }),
  );

/**
 * Serves parse jobs when this process is the guard's child, and does nothing otherwise. Called
 * at the top level of `parsePdf.ts`, the file the guard forks.
 */
export const runParseChildIfSpawned = (): void => serveChildJobs(PARSE_CHILD_ENV, runJob, toSerialized);
