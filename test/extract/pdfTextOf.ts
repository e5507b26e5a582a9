import type { PdfText } from '../../lambdas/shared/pdfText.js';

/** A `PdfText` from pages of lines, as the parse stage would write it. */
export const pdfTextOf = (...pages: string[][]): PdfText => ({
  pageCount: pages.length,
  pages: pages.map((lines, i) => ({ page: i + 1, lines })),
});
