/**
 * The parse stage's text artifact (`artifacts/{id}/text.json`), shared by the parse stage that
 * writes it and the extract stage that reads it. Types only: both sides import them from here.
 *
 * Lines are reconstructed from pdf.js text items top to bottom, left to right. Items on one line
 * are joined with one space, and with two or more spaces where the horizontal gap is wide (table
 * columns), so a reader may split a line into cells on runs of two or more spaces.
 */

/** The text of one page. */
export interface PageText {
  /** 1-based page number. */
  page: number;
  /** The page's lines, top to bottom. */
  lines: string[];
}

/** The text of a whole document, page by page. */
export interface PdfText {
  /** Pages in the document (may exceed `pages.length` when parsing stopped at a page limit). */
  pageCount: number;
  pages: PageText[];
}
