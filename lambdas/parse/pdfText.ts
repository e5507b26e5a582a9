import { getDocumentProxy } from 'unpdf';
import type { PageText, PdfText } from '../shared/pdfText.js';
import type { PlacedText } from './buildLines.js';
import { checkPdfBytes } from './checkPdfBytes.js';
import { embeddedXmlOf, type PdfAttachment, type SkippedAttachment } from './embeddedXml.js';
import {
  CorruptPdf,
  EncryptedPdf,
  isParseError,
  type ParseError,
  ParseWorkerFailed,
  PdfTooComplex,
  TooManyPages,
} from './errors.js';
import { pageTextOf } from './pageText.js';
import { DEFAULT_PARSE_LIMITS } from './parseLimits.js';

/** Progress of a walk through the pages: reported once the page count passed the limit, then per page. */
export interface ParseProgress {
  pagesDone: number;
  pageCount: number;
}

/** Options of `extractPdfText`. */
export interface ExtractPdfTextOptions {
  /** Documents with more pages fail with `TooManyPages` before any page is read (default 500). */
  maxPages?: number;
  /** Called after the page-count check (0 pages done) and after each page. */
  onProgress?: (progress: ParseProgress) => void;
  /**
   * The memory bound the caller enforces (default 512 MB), named by `PdfTooComplex` when an
   * allocation fails before the caller's own guard stops the parse.
   */
  maxRssBytes?: number;
}

type Matrix = readonly [number, number, number, number, number, number];

/** Product of two PDF transformation matrices (`m1` applied after `m2`), as pdf.js `Util.transform`. */
const transform = (m1: readonly number[], m2: readonly number[]): Matrix => {
  const [a1 = 0, b1 = 0, c1 = 0, d1 = 0, e1 = 0, f1 = 0] = m1;
  const [a2 = 0, b2 = 0, c2 = 0, d2 = 0, e2 = 0, f2 = 0] = m2;
  return [
    a1 * a2 + c1 * b2,
    b1 * a2 + d1 * b2,
    a1 * c2 + c1 * d2,
    b1 * c2 + d1 * d2,
    a1 * e2 + c1 * f2 + e1,
    b1 * e2 + d1 * f2 + f1,
  ];
};

/**
 * Names of the exceptions pdf.js throws about the document itself. Errors cross its (fake) worker
 * by `name`: InvalidPDFException and PasswordException keep theirs, anything else its core throws
 * (FormatError, XRef and parser exceptions) arrives as UnknownErrorException with the original
 * `Name: message` in `details`; the core names are listed for errors thrown on this side.
 */
const PDFJS_DOCUMENT_ERRORS: ReadonlySet<string> = new Set([
  'InvalidPDFException',
  'UnknownErrorException',
  'FormatError',
  'XRefParseException',
  'XRefEntryException',
  'ParserEOFException',
  'MissingDataException',
]);

/** Where the walk through the pages was when something failed, for PdfTooComplex. */
interface ReadPosition {
  pagesDone: number;
  pageCount?: number;
}

/** V8 could not allocate a buffer or array, here or inside pdf.js's worker (then in `details`). */
const isAllocationFailure = (error: Error): boolean => {
  const details = (error as { details?: unknown }).details;
  const described = error.name === 'RangeError' ? `RangeError: ${error.message}` : String(details ?? '');
  return /^RangeError:.*allocation failed/i.test(described);
};

/**
 * Classifies a failure while opening or reading the PDF. Only pdf.js's own verdicts on the
 * document are CorruptPdf (permanent: the uploader is told to fix the file); running out of memory
 * is PdfTooComplex, like the guard's memory bound; anything else (a bug in our code, a pdf.js
 * AbortException, an unexpected runtime fault) says nothing about the file and is the transient
 * ParseWorkerFailed, so the stage is retried rather than the document rejected.
 */
export const classifyReadError = (
  error: unknown,
  position: ReadPosition,
  maxRssBytes: number = DEFAULT_PARSE_LIMITS.maxRssBytes,
): ParseError => {
  if (isParseError(error)) return error;
  if (!(error instanceof Error)) {
    return new ParseWorkerFailed({ reason: `a non-error was thrown: ${String(error)}` }, { cause: error });
  }
  if (isAllocationFailure(error)) {
    return new PdfTooComplex({ bound: 'memory', limit: maxRssBytes, ...position }, { cause: error });
  }
  if (error.name === 'PasswordException') return new EncryptedPdf({ cause: error });
  if (error.name === 'InvalidPDFException') {
    return new CorruptPdf({ reason: 'its structure is invalid' }, { cause: error });
  }
  if (PDFJS_DOCUMENT_ERRORS.has(error.name)) {
    return new CorruptPdf({ reason: `pdf.js: ${error.message}` }, { cause: error });
  }
  return new ParseWorkerFailed(
    { reason: `unexpected ${error.name} while reading the PDF: ${error.message}` },
    { cause: error },
  );
};

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** Reads one page's text runs in display coordinates and rebuilds its lines; releases the page. */
const readPage = async (pdf: PdfDocument, pageNumber: number): Promise<PageText> => {
  const page = await pdf.getPage(pageNumber);
  try {
    // Display space (rotation applied, origin top-left) so "top to bottom" is what a reader sees.
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const runs: PlacedText[] = [];
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const [, , c, d, x, y] = transform(viewport.transform, item.transform);
      runs.push({ text: item.str, x, y, width: item.width, fontSize: Math.hypot(c, d) });
    }
    return pageTextOf(pageNumber, runs, { width: viewport.width, height: viewport.height });
  } finally {
    page.cleanup();
  }
};

/** What reading a PDF gives: its text artifact, and the XML attachments left out of it. */
export interface PdfReading {
  text: PdfText;
  skippedAttachments: SkippedAttachment[];
}

/**
 * Reads a PDF page by page: opens it with unpdf's `getDocumentProxy`, checks the page count
 * against `maxPages` before reading any page, then reads and releases ONE page at a time (unpdf's
 * `extractText` requests every page at once, which costs memory in proportion to the page count).
 * Lines are rebuilt with `layoutLines`, each with its box on the page. XML attachments (ZUGFeRD,
 * Factur-X) go to `embedded` (see `embeddedXmlOf`). A PDF whose pages have no text at all (a scan)
 * comes back with empty pages: the caller sends it to OCR. Runs unguarded: use `parsePdf` for
 * untrusted input, which adds the size, time and memory bounds. `bytes` may be a Buffer and are
 * left intact (pdf.js detaches the buffer it is given, so it gets a copy).
 *
 * @throws EmptyFile, UnsupportedFileType, CorruptPdf, EncryptedPdf (user password; an owner
 *   password alone is fine), TooManyPages, PdfTooComplex (an allocation failed);
 *   ParseWorkerFailed (transient) for a failure that is not pdf.js's verdict on the document
 */
export const readPdf = async (
  bytes: Uint8Array,
  options: ExtractPdfTextOptions = {},
): Promise<PdfReading> => {
  const {
    maxPages = DEFAULT_PARSE_LIMITS.maxPages,
    onProgress,
    maxRssBytes = DEFAULT_PARSE_LIMITS.maxRssBytes,
  } = options;
  checkPdfBytes(bytes);
  const position: ReadPosition = { pagesDone: 0 };
  let pdf: PdfDocument;
  try {
    // A plain Uint8Array copy: pdf.js refuses Buffers, and detaches the buffer it is given.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isOffscreenCanvasSupported: false });
  } catch (error) {
    throw classifyReadError(error, position, maxRssBytes);
  }
  try {
    const pageCount = pdf.numPages;
    if (pageCount > maxPages) throw new TooManyPages({ pageCount, maxPages });
    if (pageCount === 0) throw new CorruptPdf({ reason: 'it has no pages' });
    position.pageCount = pageCount;
    onProgress?.({ pagesDone: 0, pageCount });
    const pages: PageText[] = [];
    for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
      pages.push(await readPage(pdf, pageNumber));
      position.pagesDone = pageNumber;
      onProgress?.({ pagesDone: pageNumber, pageCount });
    }
    const attachments = (await pdf.getAttachments()) as Record<string, PdfAttachment> | null;
    const { embedded, skipped } = embeddedXmlOf(attachments);
    const text: PdfText = {
      pageCount,
      pages,
      origin: 'text-layer',
      ...(embedded.length > 0 && { embedded }),
    };
    return { text, skippedAttachments: skipped };
  } catch (error) {
    throw classifyReadError(error, position, maxRssBytes);
  } finally {
    await pdf.destroy();
  }
};

/** The text artifact of a PDF, as `readPdf` reads it (without the list of skipped attachments). */
export const extractPdfText = async (
  bytes: Uint8Array,
  options: ExtractPdfTextOptions = {},
): Promise<PdfText> => (await readPdf(bytes, options)).text;

/** True when no page of a text-layer reading has any text: a scan, for OCR. */
export const needsOcr = (text: PdfText): boolean =>
  text.origin !== 'xml' && text.pages.every((page) => page.lines.length === 0);
