import { NoTextLayer } from '../parse/errors.js';
import type { PageText, PdfText } from '../shared/pdfText.js';

/**
 * The text artifact after OCR: the pages OCR read, with what parse knew before (the page count,
 * the XML attachments). Every engine's pages come through here.
 *
 * @throws NoTextLayer when OCR found no text on any page (a blank or unreadably faint scan)
 */
export const ocrText = (before: PdfText, pages: PageText[]): PdfText => {
  const pageCount = Math.max(before.pageCount, pages.length);
  if (pages.every((page) => page.lines.length === 0)) throw new NoTextLayer({ pageCount });
  return { pageCount, pages, origin: 'ocr', ...(before.embedded && { embedded: before.embedded }) };
};
