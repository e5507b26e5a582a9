import type { PdfText } from '../shared/pdfText.js';
import { checkPdfBytes } from './checkPdfBytes.js';
import { type ParseError, ParseWorkerFailed, PdfTooComplex, reviveParseError, TooLarge } from './errors.js';
import { type ChildKind, type GuardedRunStats, runGuarded } from './guardedChild.js';
import { isParseChild, PARSE_CHILD_ENV, type ParseJob, runParseChildIfSpawned } from './parseChild.js';
import {
  DEFAULT_PARSE_LIMITS,
  type ParseLimits,
  type ParseLimitsInput,
  resolveParseLimits,
} from './parseLimits.js';
import type { PdfReading } from './pdfText.js';

// This file is also the parse child's entry: `parsePdf` forks a process on this very file (on the
// whole Lambda bundle once esbuild has inlined it), and there this call serves the job.
runParseChildIfSpawned();

/**
 * Rejects a file over the size limit. Call it with the S3 object's `ContentLength` before
 * downloading, so an oversized upload is refused without being read.
 *
 * @throws TooLarge
 */
export const checkPdfSize = (byteLength: number, maxBytes: number = DEFAULT_PARSE_LIMITS.maxBytes): void => {
  if (byteLength > maxBytes) throw new TooLarge({ byteLength, maxBytes });
};

/** Figures of one guarded parse, for logs and metrics. */
export interface ParseRunStats extends GuardedRunStats {
  /** `text`, or the name of the error thrown. */
  outcome: 'text' | ParseError['name'];
}

/** Optional hooks of `parsePdf`. */
export interface ParseRunOptions {
  /** Called once with the figures of the run, whatever its outcome. */
  onStats?: (stats: ParseRunStats) => void;
}

/** The parse child: this file, its heap capped at the memory bound. */
const parseChildKind = (limits: ParseLimits): ChildKind => ({
  moduleUrl: import.meta.url,
  env: PARSE_CHILD_ENV,
  heapCapMb: limits.maxRssBytes / 2 ** 20,
  keepBelowRssBytes: limits.maxRssBytes / 2,
});

/** Runs `readPdf` in a child process and kills it at the first bound it crosses. */
const runGuardedParse = (
  bytes: Uint8Array,
  limits: ParseLimits,
  options: ParseRunOptions,
): Promise<PdfReading> =>
  runGuarded<PdfReading>(parseChildKind(limits), {
    job: { bytes, maxPages: limits.maxPages, maxRssBytes: limits.maxRssBytes } satisfies ParseJob,
    maxRssBytes: limits.maxRssBytes,
    timeoutMs: limits.timeoutMs,
    boundError: (bound, progress) =>
      new PdfTooComplex({
        bound: bound === 'memory' ? 'memory' : 'time',
        limit: bound === 'memory' ? limits.maxRssBytes : limits.timeoutMs,
        pagesDone: progress?.pagesDone ?? 0,
        pageCount: progress?.pageCount,
      }),
    workerFailed: (reason, cause) =>
      new ParseWorkerFailed({ reason: reason.replace('child process', 'parse process') }, { cause }),
    revive: (error) => reviveParseError(error as Parameters<typeof reviveParseError>[0]),
    ...(options.onStats && { onStats: options.onStats as (stats: GuardedRunStats) => void }),
  });

/**
 * Parses an untrusted PDF under guard: size and leading bytes are checked first, then
 * `readPdf` runs in a child process that is killed when the wall time or its RSS crosses
 * its bound. pdf.js decompresses into buffers outside the V8 heap, so heap limits alone cannot
 * hold memory down; and a process, unlike a worker thread, gives all of it back when killed (a
 * worker's freed buffers stay in the parent's malloc arenas). Limits are validated with zod;
 * omitted ones take `DEFAULT_PARSE_LIMITS`. Works unchanged when bundled into a single file: the
 * child runs that same file (see `isParseChild`).
 *
 * @throws TooLarge, EmptyFile, UnsupportedFileType, CorruptPdf, EncryptedPdf, TooManyPages,
 *   PdfTooComplex (time or memory bound), all permanent; ParseWorkerFailed (transient) when the
 *   child dies for a reason unrelated to the document; ConfigurationError for invalid limits.
 */
export const parsePdf = async (
  bytes: Uint8Array,
  limits: ParseLimitsInput = {},
  options: ParseRunOptions = {},
): Promise<PdfText> => (await readPdfGuarded(bytes, limits, options)).text;

/**
 * `parsePdf` with the list of XML attachments left out of the artifact (too large, not UTF-8),
 * for the parse stage to record.
 */
export const readPdfGuarded = async (
  bytes: Uint8Array,
  limits: ParseLimitsInput = {},
  options: ParseRunOptions = {},
): Promise<PdfReading> => {
  if (isParseChild()) {
    // The child runs every top-level statement of the file it was forked on; a caller there that
    // parses again would fork without end.
    throw new Error(
      'parsePdf was called inside the parse child: keep top-level code free of work (see isParseChild).',
    );
  }
  const resolved = resolveParseLimits(limits);
  checkPdfSize(bytes.byteLength, resolved.maxBytes);
  checkPdfBytes(bytes);
  return runGuardedParse(bytes, resolved, options);
};
