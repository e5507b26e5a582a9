import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PdfText } from '../shared/pdfText.js';
import { checkPdfBytes } from './checkPdfBytes.js';
import { type ParseError, ParseWorkerFailed, PdfTooComplex, reviveParseError, TooLarge } from './errors.js';
import {
  isParseChild,
  PARSE_CHILD_ENV,
  type ParseChildMessage,
  type ParseJob,
  runParseChildIfSpawned,
} from './parseChild.js';
import { forkParseChild, type ParseChild, ParseChildPool } from './parseChildPool.js';
import {
  DEFAULT_PARSE_LIMITS,
  type ParseLimits,
  type ParseLimitsInput,
  resolveParseLimits,
} from './parseLimits.js';
import type { ParseProgress } from './pdfText.js';
import { readProcessMemory } from './readProcessMemory.js';

// This file is also the parse child's entry: `parsePdf` forks a process on this very file (on the
// whole Lambda bundle once esbuild has inlined it), and there this call serves the job.
runParseChildIfSpawned();

/** How often the child's RSS is sampled. */
const RSS_SAMPLE_MS = 10;
const MIB = 1024 * 1024;
/**
 * The child is killed this far below the RSS bound, so that what it allocates between two samples
 * (pdf.js copies a decode buffer when it doubles it: up to a few MB per millisecond) stays under
 * the bound. bench/parse.bench.ts prints the resulting peak for the flate bomb.
 */
const rssHeadroom = (maxRssBytes: number): number => Math.max(32 * MIB, maxRssBytes / 16);
/** Last bytes of the child's stderr kept to tell a V8 heap exhaustion from other crashes. */
const STDERR_TAIL = 4096;

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
export interface ParseRunStats {
  /** Wall time from fork to verdict, child start included. */
  durationMs: number;
  /**
   * Peak RSS of the parse process: the kernel's high-water mark at the last 10 ms sample (where
   * `/proc` exists; elsewhere the highest RSS the child reported).
   */
  peakRssBytes: number;
  /** `text`, or the name of the error thrown. */
  outcome: 'text' | ParseError['name'];
}

/** Optional hooks of `parsePdf`. */
export interface ParseRunOptions {
  /** Called once with the figures of the run, whatever its outcome. */
  onStats?: (stats: ParseRunStats) => void;
}

/**
 * How to start the child on this very file. A bundle is plain JavaScript and runs as is; from
 * TypeScript source (tests, `tsx` scripts) the child needs the tsx loader, resolved from the
 * working directory (the project root). The V8 heap cap is a backstop where RSS cannot be read.
 */
const childCommand = (limits: ParseLimits): { modulePath: string; execArgv: string[] } => {
  const modulePath = fileURLToPath(import.meta.url);
  const heapCap = `--max-old-space-size=${Math.floor(limits.maxRssBytes / MIB)}`;
  return {
    modulePath,
    // tsx resolved from here, not from the working directory the process happens to run in.
    execArgv: modulePath.endsWith('.ts')
      ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, heapCap]
      : [heapCap],
  };
};

/**
 * Warm children, one pool per child command line (the heap cap follows the memory bound), as
 * many idle as there are cores: one covers a Lambda (one document at a time), and a burst of
 * parses in the local runtime does not pay a start-up each.
 */
const pools = new Map<string, ParseChildPool>();
const poolFor = (limits: ParseLimits): ParseChildPool => {
  const { modulePath, execArgv } = childCommand(limits);
  const key = `${modulePath} ${execArgv.join(' ')}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new ParseChildPool(
      () => forkParseChild(modulePath, execArgv, { ...process.env, [PARSE_CHILD_ENV]: '1' }),
      {
        maxIdle: availableParallelism(),
        maxJobsPerChild: 200,
        keepBelowRssBytes: limits.maxRssBytes / 2,
      },
    );
    pools.set(key, pool);
  }
  return pool;
};

/** Runs `extractPdfText` in a child process and kills it at the first bound it crosses. */
const runGuarded = async (
  bytes: Uint8Array,
  limits: ParseLimits,
  options: ParseRunOptions,
): Promise<PdfText> => {
  const started = performance.now();
  const pool = poolFor(limits);
  let child: ParseChild;
  try {
    child = await pool.acquire();
  } catch (error) {
    throw new ParseWorkerFailed({ reason: (error as Error).message }, { cause: error });
  }
  const proc = child.process;
  const fresh = child.jobs === 0;
  return new Promise<PdfText>((resolve, reject) => {
    const job: ParseJob = { kind: 'job', bytes, maxPages: limits.maxPages, maxRssBytes: limits.maxRssBytes };
    let progress: ParseProgress | undefined;
    let selfReportedRss = 0;
    let peakRssBytes = 0;
    let stderrTail = '';
    let settled = false;

    // Settles once. A child that hit a bound or failed is killed, and the verdict waits until it
    // is gone so its memory is back before the caller goes on; one that produced text goes back
    // to the pool.
    const settle = (outcome: { text: PdfText } | { error: ParseError }): void => {
      if (settled) return;
      settled = true;
      clearInterval(sampler);
      clearTimeout(timer);
      proc.off('message', onMessage);
      proc.off('error', onError);
      proc.off('close', onClose);
      proc.stderr?.off('data', onStderr);
      const deliver = (): void => {
        options.onStats?.({
          durationMs: performance.now() - started,
          peakRssBytes,
          outcome: 'text' in outcome ? 'text' : outcome.error.name,
        });
        if ('text' in outcome) resolve(outcome.text);
        else reject(outcome.error);
      };
      if ('text' in outcome) {
        pool.release(child);
        deliver();
      } else if (proc.exitCode !== null || proc.signalCode !== null) deliver();
      else {
        proc.once('exit', deliver);
        proc.kill('SIGKILL');
      }
    };
    const tooComplex = (bound: 'time' | 'memory'): { error: ParseError } => ({
      error: new PdfTooComplex({
        bound,
        limit: bound === 'time' ? limits.timeoutMs : limits.maxRssBytes,
        pagesDone: progress?.pagesDone ?? 0,
        pageCount: progress?.pageCount,
      }),
    });

    const killAtRss = limits.maxRssBytes - rssHeadroom(limits.maxRssBytes);
    const sampler = setInterval(() => {
      const measured = proc.pid === undefined ? undefined : readProcessMemory(proc.pid);
      const rss = measured?.rssBytes ?? selfReportedRss;
      // The kernel's high-water mark spans the child's life: only a fresh child's is this job's.
      peakRssBytes = Math.max(peakRssBytes, (fresh ? measured?.peakRssBytes : undefined) ?? rss);
      if (rss > killAtRss) settle(tooComplex('memory'));
    }, RSS_SAMPLE_MS);
    const timer = setTimeout(() => settle(tooComplex('time')), limits.timeoutMs);

    const onStderr = (chunk: string) => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL);
    };
    const onMessage = (message: ParseChildMessage) => {
      if (message.kind === 'progress') progress = message.progress;
      else if (message.kind === 'rss') selfReportedRss = message.bytes;
      else if (message.kind === 'result') settle({ text: message.text });
      else if (message.kind === 'failure') settle({ error: reviveParseError(message.error) });
    };
    const onError = (error: Error) => {
      settle({ error: new ParseWorkerFailed({ reason: error.message }, { cause: error }) });
    };
    const onClose = (code: number | null, signal: NodeJS.Signals | null) => {
      // V8 aborts the process when its heap cap is hit: that is the document's doing.
      if (/heap out of memory|Reached heap limit/i.test(stderrTail)) settle(tooComplex('memory'));
      else {
        const how = signal === null ? `code ${code}` : `signal ${signal}`;
        settle({
          error: new ParseWorkerFailed({ reason: `the parse process ended with ${how} before a verdict` }),
        });
      }
    };
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', onStderr);
    proc.on('message', onMessage);
    proc.on('error', onError);
    proc.on('close', onClose);
    proc.send(job);
  });
};

/**
 * Parses an untrusted PDF under guard: size and leading bytes are checked first, then
 * `extractPdfText` runs in a child process that is killed when the wall time or its RSS crosses
 * its bound. pdf.js decompresses into buffers outside the V8 heap, so heap limits alone cannot
 * hold memory down; and a process, unlike a worker thread, gives all of it back when killed (a
 * worker's freed buffers stay in the parent's malloc arenas). Limits are validated with zod;
 * omitted ones take `DEFAULT_PARSE_LIMITS`. Works unchanged when bundled into a single file: the
 * child runs that same file (see `isParseChild`).
 *
 * @throws TooLarge, EmptyFile, NotAPdf, CorruptPdf, EncryptedPdf, TooManyPages, NoTextLayer,
 *   PdfTooComplex (time or memory bound), all permanent; ParseWorkerFailed (transient) when the
 *   child dies for a reason unrelated to the document; ConfigurationError for invalid limits.
 */
export const parsePdf = async (
  bytes: Uint8Array,
  limits: ParseLimitsInput = {},
  options: ParseRunOptions = {},
): Promise<PdfText> => {
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
  return runGuarded(bytes, resolved, options);
};
