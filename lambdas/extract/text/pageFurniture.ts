import { CONTINUED, PAGE_NUMBER } from '../vocabulary/index.js';

/**
 * Page furniture: what a page prints about itself rather than about the document (its number, a
 * running header or footer, a note that the document goes on) and pages that only copy an
 * earlier one. Finders skip furniture, so a table or a sentence runs on across a page break.
 */

/** What furniture is told by: a line's page, its text, and the mark this module sets. */
export interface PageLine {
  page: number;
  text: string;
  furniture: boolean;
}

/** An amount with cents: a line holding one is content, whatever else it says. */
const MONEY = /\d[.,]\d{2}(?!\d)/;

/**
 * What a repeated header or footer has in common across pages: its text with the digits masked
 * (page numbers change), except for lines carrying amounts, which must repeat exactly (two table
 * rows that differ only in their amounts are not a running footer).
 */
const furnitureKey = (text: string): string =>
  MONEY.test(text) ? text.trim() : text.replace(/\d+/g, '#').trim();

/** Lines a page needs to be told a copy of another: a short page repeats a header's lines. */
const COPY_MIN_LINES = 5;
/** Share of a page's lines printed on an earlier page that makes it that page's copy. */
const COPY_SHARE = 0.9;

/**
 * Pages that copy an earlier page ("DUPLICATA", "Kopie", the customer's and the file's copies in
 * one PDF): nine in ten of their lines printed on it. A copy says nothing new, and its lines would
 * read as a second source agreeing with the first, or, at the foot of both, as a running footer
 * that hides the totals.
 */
export const copiedPages = (byPage: ReadonlyMap<number, readonly PageLine[]>): Set<number> => {
  const copies = new Set<number>();
  const seen: { page: number; texts: Set<string> }[] = [];
  for (const [page, pageLines] of byPage) {
    const texts = pageLines.map((l) => l.text.trim());
    const copy =
      texts.length >= COPY_MIN_LINES &&
      seen.some((s) => texts.filter((t) => s.texts.has(t)).length >= COPY_SHARE * texts.length);
    if (copy) copies.add(page);
    else seen.push({ page, texts: new Set(texts) });
  }
  return copies;
};

/** The lines of each page, pages in order. */
export const linesByPage = <L extends PageLine>(lines: readonly L[]): Map<number, L[]> => {
  const byPage = new Map<number, L[]>();
  for (const line of lines) {
    const pageLines = byPage.get(line.page);
    if (pageLines) pageLines.push(line);
    else byPage.set(line.page, [line]);
  }
  return byPage;
};

/** Lines at a page's top and bottom edge, where headers, footers and page numbers stand. */
const EDGE_LINES = 2;

/** A page's edge lines: its first and its last `EDGE_LINES` (the same lines on a short page). */
const edgesOf = <L>(pageLines: readonly L[]): { top: L[]; bottom: L[] } => ({
  top: pageLines.slice(0, EDGE_LINES),
  bottom: pageLines.slice(-EDGE_LINES),
});

/**
 * Marks the furniture among `lines` (of `pageCount` pages, copies left out): page numbers at a
 * page's top or bottom, a note that the document goes on where it does (under a page that has
 * another after it, over one that has another before it), and lines printed at the top or bottom
 * of half the pages or more.
 */
export const markFurniture = (lines: PageLine[], pageCount: number): void => {
  const edges = new Map<string, Set<number>>();
  const byPage = linesByPage(lines);
  const pages = [...byPage.keys()];
  for (const [page, pageLines] of byPage) {
    const { top, bottom } = edgesOf(pageLines);
    for (const line of [...top, ...bottom]) {
      if (PAGE_NUMBER.test(line.text.trim())) line.furniture = true;
      // "Invoice 42 (continued)" over a page, "Fortsetzung auf Seite 2" under one: the table goes on.
      const goesOn =
        (top.includes(line) && page > (pages[0] ?? page)) ||
        (bottom.includes(line) && page < (pages[pages.length - 1] ?? page));
      if (goesOn && CONTINUED.test(line.text.trim()) && !MONEY.test(line.text)) line.furniture = true;
      const key = furnitureKey(line.text);
      edges.set(key, (edges.get(key) ?? new Set()).add(line.page));
    }
  }
  if (pageCount < 2) return;
  // A line at the top or bottom of several pages (digits ignored) is a running header or footer.
  for (const pageLines of byPage.values()) {
    const { top, bottom } = edgesOf(pageLines);
    for (const line of [...top, ...bottom]) {
      const printedOn = edges.get(furnitureKey(line.text));
      if (printedOn && printedOn.size >= Math.max(2, Math.ceil(pageCount / 2))) line.furniture = true;
    }
  }
};
