import type { ImageKind } from '../../parse/documentKind.js';
import { isParseError, reviveParseError, type SerializedParseError } from '../../parse/errors.js';
import {
  type GuardBound,
  type GuardedRunStats,
  isGuardedChild,
  type ReportProgress,
  runGuarded,
  type SerializedError,
  serveChildJobs,
} from '../../parse/guardedChild.js';
import { pageTextOf } from '../../parse/pageText.js';
import { ConfigurationError } from '../../shared/errors.js';
import type { PageText } from '../../shared/pdfText.js';
import { isOcrError, OCR_REVIVERS, type OcrError, OcrTooComplex, OcrUnavailable } from '../errors.js';
import { defaultOcrWorkers, OCR_CHILD_ENV, type OcrSettings } from '../ocrSettings.js';
import { imagePageImages, pdfPageImages } from './pageImages.js';
import { readPagesInLanes, workerSlots } from './pageLanes.js';
import { recognizePage, tesseractWorker } from './recognize.js';
import { eraseRules } from './ruleLines.js';

/** One OCR job: the document's bytes, its kind, how many pages it has, and the settings. */
export interface OcrJob {
  bytes: Uint8Array;
  kind: 'pdf' | ImageKind;
  pageCount: number;
  settings: Pick<OcrSettings, 'languages' | 'tessdataDir' | 'dpi' | 'maxPages'>;
  /** The pages to read, 1-based (default: the first `pageCount`, at most `maxPages`). */
  pages?: readonly number[];
}

/** Pages 1..n. */
const firstPages = (count: number): number[] => Array.from({ length: count }, (_, i) => i + 1);

/**
 * Reads the pages of a scan or image with tesseract, one page image at a time: render (PDF) or
 * decode (image), recognise, rebuild lines with `pageTextOf`. Runs unguarded: `ocrWithTesseract`
 * runs it in guarded children, a page per job.
 */
export const recognizeDocument = async (
  job: OcrJob,
  report: ReportProgress = () => undefined,
): Promise<PageText[]> => {
  const worker = await tesseractWorker(job.settings);
  const wanted = job.pages ?? firstPages(Math.min(job.pageCount, job.settings.maxPages));
  const pageCount = wanted.length;
  const images =
    job.kind === 'pdf'
      ? pdfPageImages(job.bytes, job.settings.dpi, wanted)
      : imagePageImages(job.bytes, job.kind, wanted);
  const pages: PageText[] = [];
  report({ pagesDone: 0, pageCount });
  for await (const image of images) {
    const runs = await recognizePage(worker, eraseRules(image));
    pages.push(pageTextOf(image.page, runs, { width: image.width, height: image.height }, { ocr: true }));
    report({ pagesDone: pages.length, pageCount });
  }
  return pages;
};

/** Anything the child throws, as `{ name, facts }` the parent revives. */
const toSerialized = (error: unknown): SerializedError => {
  if (isOcrError(error) || isParseError(error)) return { name: error.name, facts: error.facts };
  if (error instanceof ConfigurationError) return { name: error.name, facts: { message: error.message } };
  return {
    name: 'OcrUnavailable',
    facts: { reason: error instanceof Error ? error.message : String(error) },
  };
};

/** Rebuilds what the child reported: an OCR error, a parse error (pdf.js, image decoding), a configuration fault. */
const revive = (error: SerializedError): Error => {
  const ocr = OCR_REVIVERS[error.name as OcrError['name']] as ((facts: unknown) => OcrError) | undefined;
  if (ocr) return ocr(error.facts);
  if (error.name === 'ConfigurationError')
    return new ConfigurationError((error.facts as { message: string }).message);
  const parse = reviveParseError(error as SerializedParseError);
  return parse.name === 'ParseWorkerFailed' ? new OcrUnavailable({ reason: parse.facts.reason }) : parse;
};

// This file is the OCR child's entry: `ocrWithTesseract` forks a process on it (on the whole Lambda
// bundle once bundled), and there this call serves the jobs.
serveChildJobs<OcrJob>(OCR_CHILD_ENV, recognizeDocument, toSerialized);

/** True in the OCR child (an entry point that works at top level must stay idle there). */
export const isOcrChild = (): boolean => isGuardedChild(OCR_CHILD_ENV);

/** The figures of one OCR run over its workers, for logs, metrics and the bench. */
export interface OcrRunStats extends GuardedRunStats {
  /** Workers (lanes) the document's pages were spread over. */
  workers: number;
  /** Peak RSS of each worker's child (the highest of the pages it read), bytes. */
  peakRssBytesPerWorker: number[];
}

/** The bounds of one OCR run: per child (memory), per page and in all (time), and the workers. */
export type OcrRunSettings = Pick<OcrSettings, 'maxRssBytes' | 'pageTimeoutMs'> &
  Partial<Pick<OcrSettings, 'workers'>>;

const OCR_CHILD = {
  moduleUrl: import.meta.url,
  env: OCR_CHILD_ENV,
  // glibc keeps freed heap memory for reuse, so the canvases, pdf.js image buffers and result
  // copies of each page (several MB apiece) left a warm child at ~500 MB on dense pages. Served by
  // mmap from 1 MB up, they go back to the system when freed: ~375 MB, high-water mark 424.
  childEnv: { MALLOC_MMAP_THRESHOLD_: String(2 ** 20), MALLOC_TRIM_THRESHOLD_: String(2 ** 20) },
};

/**
 * OCR of a scan or image with tesseract.js in guarded child processes, its pages read in parallel
 * by up to `workers` children (one page per job, the next page to whichever child is free; a child
 * keeps its loaded language models between pages and documents). Each child is killed when its
 * RSS crosses `maxRssBytes`, when its page takes longer than `pageTimeoutMs` (loading the engine
 * and the language models before a fresh child's first page gets twice that), and the document
 * stops when the time its children spent on it passes a page's bound per page plus the loading.
 * At the first failure no further page starts; the pages being read finish or hit their bounds
 * before the error is thrown.
 *
 * @throws OcrTooComplex (a bound), CorruptPdf / EncryptedPdf / UnreadableImage (the file),
 *   ConfigurationError (traineddata missing), OcrUnavailable (transient: a child died)
 */
export const ocrWithTesseract = async (
  job: OcrJob,
  settings: OcrRunSettings,
  onStats?: (stats: OcrRunStats) => void,
): Promise<PageText[]> => {
  if (isOcrChild())
    throw new Error('ocrWithTesseract was called inside the OCR child: keep top-level code free of work.');
  const pages = job.pages ?? firstPages(Math.min(job.pageCount, job.settings.maxPages));
  const workers = settings.workers ?? defaultOcrWorkers();
  const lanes = Math.max(1, Math.min(workers, pages.length));
  const { maxRssBytes, pageTimeoutMs } = settings;
  // The whole document's budget, as when one child read every page: a page's bound per page, and
  // two for loading. Spent is child time (waiting for a slot behind another document is not).
  const budgetMs = pageTimeoutMs * (pages.length + 2);
  let spentMs = 0;
  let pagesDone = 0;
  const peaks = new Array<number>(lanes).fill(0);
  const started = performance.now();
  const timeBound = () =>
    new OcrTooComplex({ bound: 'time', limit: budgetMs, pagesDone, pageCount: pages.length });
  const readPage = async (page: number, lane: number): Promise<PageText[]> => {
    if (spentMs >= budgetMs) throw timeBound();
    const result = await runGuarded<PageText[]>(
      {
        ...OCR_CHILD,
        heapCapMb: maxRssBytes / 2 ** 20,
        // Keep the child (and its loaded language models) warm unless it has grown past the mark.
        keepBelowRssBytes: (maxRssBytes * 3) / 4,
      },
      {
        job: { ...job, pages: [page] },
        maxRssBytes,
        timeoutMs: Math.min(3 * pageTimeoutMs, budgetMs - spentMs),
        stepTimeoutMs: pageTimeoutMs,
        // Loading tesseract, pdf.js and the language models comes before a fresh child's page.
        startTimeoutMs: 2 * pageTimeoutMs,
        boundError: (bound: GuardBound) =>
          bound === 'time'
            ? timeBound()
            : new OcrTooComplex({
                bound,
                limit: bound === 'memory' ? maxRssBytes : pageTimeoutMs,
                pagesDone,
                pageCount: pages.length,
              }),
        workerFailed: (reason, cause) => new OcrUnavailable({ reason }, { cause }),
        revive,
        onStats: (stats) => {
          spentMs += stats.durationMs;
          peaks[lane] = Math.max(peaks[lane] ?? 0, stats.peakRssBytes);
        },
      },
    );
    pagesDone += 1;
    return result;
  };
  const report = (outcome: string) =>
    onStats?.({
      durationMs: performance.now() - started,
      peakRssBytes: Math.max(...peaks),
      outcome,
      workers: lanes,
      peakRssBytesPerWorker: peaks,
    });
  try {
    const read = await readPagesInLanes(pages, lanes, workerSlots(workers), readPage);
    report('text');
    return read.flat();
  } catch (error) {
    report(error instanceof Error ? error.name : 'Error');
    throw error;
  }
};
