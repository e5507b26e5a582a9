import type { ImageKind } from '../../parse/documentKind.js';
import { isParseError, reviveParseError, type SerializedParseError } from '../../parse/errors.js';
import {
  type ChildProgress,
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
import { OCR_CHILD_ENV, type OcrSettings } from '../ocrSettings.js';
import { imagePageImages, pdfPageImages } from './pageImages.js';
import { recognizePage, tesseractWorker } from './recognize.js';

/** One OCR job: the document's bytes, its kind, how many pages to read, and the settings. */
export interface OcrJob {
  bytes: Uint8Array;
  kind: 'pdf' | ImageKind;
  pageCount: number;
  settings: Pick<OcrSettings, 'languages' | 'tessdataDir' | 'dpi' | 'maxPages'>;
}

/**
 * Reads the pages of a scan or image with tesseract, one page image at a time: render (PDF) or
 * decode (image), recognise, rebuild lines with `pageTextOf`. Runs unguarded: `ocrWithTesseract`
 * runs it in the guarded child.
 */
export const recognizeDocument = async (
  job: OcrJob,
  report: ReportProgress = () => undefined,
): Promise<PageText[]> => {
  const worker = await tesseractWorker(job.settings);
  const pageCount = Math.min(job.pageCount, job.settings.maxPages);
  const images =
    job.kind === 'pdf'
      ? pdfPageImages(job.bytes, job.settings.dpi, pageCount)
      : imagePageImages(job.bytes, job.kind, pageCount);
  const pages: PageText[] = [];
  report({ pagesDone: 0, pageCount });
  for await (const image of images) {
    const runs = await recognizePage(worker, image);
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

/**
 * OCR of a scan or image with tesseract.js in a guarded child process: killed when its RSS crosses
 * `maxRssBytes`, when one page takes longer than `pageTimeoutMs` (loading the engine and the
 * language models before the first page gets twice that), or when the whole run takes longer than
 * a page's bound per page plus the loading.
 *
 * @throws OcrTooComplex (a bound), CorruptPdf / EncryptedPdf / UnreadableImage (the file),
 *   ConfigurationError (traineddata missing), OcrUnavailable (transient: the child died)
 */
export const ocrWithTesseract = (
  job: OcrJob,
  settings: Pick<OcrSettings, 'maxRssBytes' | 'pageTimeoutMs'>,
  onStats?: (stats: GuardedRunStats) => void,
): Promise<PageText[]> => {
  if (isOcrChild())
    throw new Error('ocrWithTesseract was called inside the OCR child: keep top-level code free of work.');
  const pages = Math.min(job.pageCount, job.settings.maxPages);
  return runGuarded<PageText[]>(
    {
      moduleUrl: import.meta.url,
      env: OCR_CHILD_ENV,
      heapCapMb: settings.maxRssBytes / 2 ** 20,
      // Keep the child (and its loaded language models) warm unless it has grown past the mark.
      keepBelowRssBytes: (settings.maxRssBytes * 3) / 4,
    },
    {
      job,
      maxRssBytes: settings.maxRssBytes,
      timeoutMs: settings.pageTimeoutMs * (pages + 2),
      stepTimeoutMs: settings.pageTimeoutMs,
      // Loading tesseract, pdf.js and six language models comes before the first page: two pages' time.
      startTimeoutMs: 2 * settings.pageTimeoutMs,
      boundError: (bound, progress?: ChildProgress) =>
        new OcrTooComplex({
          bound,
          limit:
            bound === 'memory'
              ? settings.maxRssBytes
              : bound === 'page-time'
                ? settings.pageTimeoutMs
                : settings.pageTimeoutMs * (pages + 1),
          pagesDone: progress?.pagesDone ?? 0,
          pageCount: progress?.pageCount,
        }),
      workerFailed: (reason, cause) => new OcrUnavailable({ reason }, { cause }),
      revive,
      ...(onStats && { onStats }),
    },
  );
};
