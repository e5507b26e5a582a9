import type { PdfText } from '../shared/pdfText.js';
import { isParseError, ParseWorkerFailed, type SerializedParseError, serializeParseError } from './errors.js';
import { extractPdfText, type ParseProgress } from './pdfText.js';

/**
 * Set in the environment of the child process `parsePdf` forks, so the same file loaded anywhere
 * else stays inert.
 */
export const PARSE_CHILD_ENV = 'DOCKET_PARSE_CHILD';

/** What the guard sends the child: one job, then it waits for the verdict. */
export interface ParseJob {
  kind: 'job';
  bytes: Uint8Array;
  maxPages: number;
  /** The guard's memory bound, named in PdfTooComplex when an allocation fails in the child. */
  maxRssBytes: number;
}

/**
 * What the child sends back: `ready` once it listens for the job (a message sent earlier could be
 * dropped while the child is still loading), progress and RSS any number of times, then exactly
 * one verdict.
 */
export type ParseChildMessage =
  | { kind: 'ready' }
  | { kind: 'progress'; progress: ParseProgress }
  | { kind: 'rss'; bytes: number }
  | { kind: 'result'; text: PdfText }
  | { kind: 'failure'; error: SerializedParseError };

/**
 * How often the child reports its own RSS. Only a fallback for systems without `/proc` (macOS):
 * the report stalls while pdf.js runs synchronous code, which reading `/proc` from the parent does
 * not.
 */
const SELF_REPORT_MS = 25;

/**
 * True in the child process started by `parsePdf`. The guard forks the very file that holds it
 * (the Lambda bundle, once bundled), so every top-level statement of that file runs in the child
 * too: an entry point that does work at top level must skip it when this is true.
 */
export const isParseChild = (): boolean => process.env[PARSE_CHILD_ENV] === '1' && process.send !== undefined;

const send = (message: ParseChildMessage): Promise<void> =>
  new Promise((resolve) => {
    process.send?.(message, undefined, undefined, () => resolve());
  });

/** Extracts the text of one job and reports the verdict. */
const runJob = async (job: ParseJob): Promise<void> => {
  try {
    const text = await extractPdfText(job.bytes, {
      maxPages: job.maxPages,
      maxRssBytes: job.maxRssBytes,
      onProgress: (progress) => void send({ kind: 'progress', progress }),
    });
    await send({ kind: 'result', text });
  } catch (error) {
    const parseError = isParseError(error)
      ? error
      : new ParseWorkerFailed({ reason: error instanceof Error ? error.message : String(error) });
    await send({ kind: 'failure', error: serializeParseError(parseError) });
  }
};

/**
 * Serves parse jobs when this process is the guard's child, and does nothing otherwise. Called
 * at the top level of `parsePdf.ts`, the file the guard forks.
 */
export const runParseChildIfSpawned = (): void => {
  if (!isParseChild()) return;
  // The guard's bounds live in the parent: a child whose parent has gone must not run on unbounded.
  process.once('disconnect', () => process.exit(1));
  setInterval(() => void send({ kind: 'rss', bytes: process.memoryUsage.rss() }), SELF_REPORT_MS).unref();
  // Jobs come one at a time: the guard sends the next only after this one's verdict, and keeps
  // the child between documents only when the verdict was text.
  process.on('message', (job: ParseJob) => {
    void runJob(job);
  });
  void send({ kind: 'ready' });
};
