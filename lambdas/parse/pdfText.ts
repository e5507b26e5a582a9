import { getDocumentProxy } from 'unpdf';
import type { PageText, PdfText } from '../shared/pdfText.js';
import { buildLines, type PlacedText } from './buildLines.js';
import { checkPdfBytes } from './checkPdfBytes.js';
import {
  CorruptPdf,
  EncryptedPdf,
  isParseError,
  NoTextLayer,
  type ParseError,
  TooManyPages,
} from './errors.js';
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

/** Maps pdf.js's permanent failures to typed errors; pdf.js errors cross its fake worker by `name`. */
const classifyPdfJsError = (error: unknown): ParseError => {
  if (isParseError(error)) return error;
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') return new EncryptedPdf({ cause: error });
  if (name === 'InvalidPDFException') {
    return new CorruptPdf({ reason: 'its structure is invalid' }, { cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new CorruptPdf({ reason: `pdf.js: ${detail}` }, { cause: error });
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
    return { page: pageNumber, lines: buildLines(runs) };
  } finally {
    page.cleanup();
  }
};

/**
 * Extracts the text of a PDF page by page: opens it with unpdf's `getDocumentProxy`, checks the
 * page count against `maxPages` before reading any page, then reads and releases ONE page at a
 * time (unpdf's `extractText` requests every page at once, which costs memory in proportion to the
 * page count). Lines are rebuilt with `buildLines`. Runs unguarded: use `parsePdf` for untrusted
 * input, which adds the size, time and memory bounds. `bytes` may be a Buffer and are left intact
 * (pdf.js detaches the buffer it is given, so it gets a copy).
 *
 * @throws EmptyFile, NotAPdf, CorruptPdf, EncryptedPdf (user password; an owner password alone is
 *   fine), TooManyPages, NoTextLayer (no page has any text)
 */
export const extractPdfText = async (
  bytes: Uint8Array,
  options: ExtractPdfTextOptions = {},
): Promise<PdfText> => {
  const { maxPages = DEFAULT_PARSE_LIMITS.maxPages, onProgress } = options;
  checkPdfBytes(bytes);
  let pdf: PdfDocument;
  try {
    // A plain Uint8Array copy: pdf.js refuses Buffers, and detaches the buffer it is given.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isOffscreenCanvasSupported: false });
  } catch (error) {
    throw classifyPdfJsError(error);
  }
  try {
    const pageCount = pdf.numPages;
    if (pageCount > maxPages) throw new TooManyPages({ pageCount, maxPages });
    if (pageCount === 0) throw new CorruptPdf({ reason: 'it has no pages' });
    onProgress?.({ pagesDone: 0, pageCount });
    const pages: PageText[] = [];
    for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
      pages.push(await readPage(pdf, pageNumber));
      onProgress?.({ pagesDone: pageNumber, pageCount });
    }
    // Image-only PDFs open fine and yield empty pages; that is an error for a text workflow.
    if (pages.every((page) => page.lines.length === 0)) throw new NoTextLayer({ pageCount });
    return { pageCount, pages };
  } catch (error) {
    throw classifyPdfJsError(error);
  } finally {
    await pdf.destroy();
  }
};
