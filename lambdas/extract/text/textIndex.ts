import type { TextSource } from '../../shared/documents/index.js';
import type { PageBox, PageWord, PdfText } from '../../shared/pdfText.js';
import { copiedPages, linesByPage, markFurniture } from './pageFurniture.js';

/** A cell of a line: text between runs of two or more spaces (a table column). */
export interface LineCell {
  text: string;
  /** Offset of the cell in the line's normalised text. */
  start: number;
}

/** One line of the document, with where it is and its cells. */
export interface DocLine {
  page: number;
  /** 1-based line number on the page. */
  line: number;
  /** The line as the parse stage wrote it (for `source.text`). */
  raw: string;
  /** Same length as `raw`, with typographic quotes, dashes and odd spaces made plain. */
  text: string;
  cells: LineCell[];
  /** Running header, footer or page number: repeated furniture, not content. */
  furniture: boolean;
  /** Index in `DocText.lines`. */
  index: number;
  /** Where the line sits on its page, when the text artifact says. */
  box?: PageBox;
  /** 0-1: how sure OCR was of the line (absent for a text layer). */
  ocrConfidence?: number;
  /** OCR only: the line's words with their boxes. */
  words?: PageWord[];
}

/** A document's text prepared for extraction: lines with cells, and the prose as one string. */
export interface DocText {
  lines: DocLine[];
  /** Content lines joined with "\n" (furniture left out, so sentences run across page breaks). */
  flat: string;
  /** Offset in `flat` where each content line starts, parallel to `flatLines`. */
  flatStarts: number[];
  flatLines: DocLine[];
  pageCount: number;
}

const PLAIN: Readonly<Record<string, string>> = {
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2018': "'",
  '\u2019': "'",
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u00a0': ' ',
  '\u2007': ' ',
  '\u202f': ' ',
  '\u2009': ' ',
  '\t': ' ',
};

/** Typographic ligatures a text layer may keep ("ﬁnal", "Oﬃce"), as the letters they join. */
const LIGATURES: Readonly<Record<string, string>> = {
  '\ufb00': 'ff',
  '\ufb01': 'fi',
  '\ufb02': 'fl',
  '\ufb03': 'ffi',
  '\ufb04': 'ffl',
  '\ufb05': 'st',
  '\ufb06': 'st',
  '\u2116': 'No',
};

/**
 * A line as its words are spelt: without the characters a text layer carries but nobody sees (a
 * soft hyphen inside "Rechnungs\u00adnummer", zero-width spaces, a byte-order mark), and with
 * ligatures and the numero sign ("№") written out. Done before anything reads the line, so the
 * line's raw text, which sources cite, is this one.
 */
const spelt = (raw: string): string =>
  raw.replace(/[\u00ad\u200b\u2060\ufeff]/g, '').replace(/[\ufb00-\ufb06\u2116]/g, (c) => LIGATURES[c] ?? c);

/** One-for-one character replacement, so offsets in the plain text are offsets in the raw text. */
export const plainText = (raw: string): string =>
  raw.replace(
    /[\u201c\u201d\u201e\u2018\u2019\u2013\u2014\u2212\u00a0\u2007\u202f\u2009\t]/g,
    (c) => PLAIN[c] ?? c,
  );

/**
 * OCR sets a space after a decimal mark that a smudge or a gap in the scan widened ("18310, 63",
 * "383. 75€"): two digits after it, then a currency or the end of the cell, are the amount's
 * cents. The space moves behind them, so offsets and the line's length stay. A text layer's
 * characters are as the producer wrote them, and its lists ("10, 20") stay as they are.
 */
const joinSplitCents = (text: string): string =>
  text.replace(/(\d[.,]) (\d{2})(?=\s?(?:€|EUR|USD|GBP|CHF|\$|£)|\s{2}|\s*$)/g, '$1$2 ');

/**
 * A line's cells: runs of words one space apart. Two spaces part cells, and so does a lone
 * bullet, middle dot or bar between spaces ("Issued Jun 3, 2024 · Due Jun 17, 2024", "Rechnung
 * 42 | 12.03.2024"), which is not in either cell.
 */
const CELL = /(?![·•●|](?:\s|$))\S+(?: (?![·•●|](?:\s|$))\S+)*/g;

const splitCells = (text: string): LineCell[] => {
  const cells: LineCell[] = [];
  const re = new RegExp(CELL);
  for (let m = re.exec(text); m; m = re.exec(text)) cells.push({ text: m[0], start: m.index });
  return cells;
};

/** Letters and digits only, lower case: how a value's groups are looked for in a cell. */
const compact = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * How sure OCR was of the words that print `value` (its text, or its JSON): the weakest word of
 * the cells that hold every letter-or-digit group of two or more of the value (`671.15` in
 * `671,15 €`, `2017-11-13` in `13/11/2017`). The line's weakest word also counts the other column
 * of a two-column row and the specks of a logo beside it, which say nothing of this value. Where
 * no cell holds the whole value (a value over two cells, a month in words), or the words cannot
 * be laid over the line, it is the line's confidence: never surer than the value's own cell.
 * A word of separators alone (the colon of "Rechnungswährung  : EUR", a table's "|") prints
 * nothing of the value and does not count; a currency sign does. Undefined for a text layer.
 */
/** A word that is only separators: a label's colon, a table's bar, a dash. */
const SEPARATOR_ONLY = /^[:;|.,\-_/\\]+$/;

export const ocrConfidenceOf = (line: DocLine, value: string): number | undefined => {
  if (line.ocrConfidence === undefined || !line.words) return line.ocrConfidence;
  const groups = value.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
  const holding = line.cells.filter((cell) => {
    const text = compact(cell.text);
    return groups.length > 0 && groups.every((group) => text.includes(group));
  });
  if (holding.length === 0) return line.ocrConfidence;
  let weakest = 1;
  let cursor = 0;
  for (const word of line.words) {
    const at = line.text.indexOf(plainText(word.text), cursor);
    if (at < 0) return line.ocrConfidence;
    cursor = at + word.text.length;
    const inCell = holding.some((cell) => at >= cell.start && at < cell.start + cell.text.length);
    if (inCell && !SEPARATOR_ONLY.test(word.text)) weakest = Math.min(weakest, word.confidence);
  }
  return weakest;
};

/** Prepares the parse stage's text for the field finders. */
export const indexText = (text: PdfText): DocText => {
  const read: DocLine[] = [];
  for (const page of text.pages) {
    page.lines.forEach((printed, i) => {
      const raw = spelt(printed);
      if (raw.trim() === '') return;
      const geometry = page.geometry?.[i];
      const plain = geometry?.confidence !== undefined ? joinSplitCents(plainText(raw)) : plainText(raw);
      read.push({
        page: page.page,
        line: i + 1,
        raw,
        text: plain,
        cells: splitCells(plain),
        furniture: false,
        index: read.length,
        ...(geometry ? { box: geometry.box } : {}),
        ...(geometry?.confidence !== undefined ? { ocrConfidence: geometry.confidence } : {}),
        ...(geometry?.words ? { words: geometry.words } : {}),
      });
    });
  }
  // Copies leave the text, and the page count, before the running headers are looked for.
  const copies = copiedPages(linesByPage(read));
  const lines =
    copies.size === 0 ? read : read.filter((l) => !copies.has(l.page)).map((l, index) => ({ ...l, index }));
  markFurniture(lines, text.pages.length - copies.size);
  const flatLines = lines.filter((l) => !l.furniture);
  const flatStarts: number[] = [];
  let offset = 0;
  for (const line of flatLines) {
    flatStarts.push(offset);
    offset += line.text.length + 1;
  }
  return {
    lines,
    flat: flatLines.map((l) => l.text).join('\n'),
    flatStarts,
    flatLines,
    pageCount: text.pageCount,
  };
};

/**
 * Whether cell `ci` of `line` goes on with a word broken at a hyphen on the line above, as a
 * narrow table column breaks "Art-Nr-Lieferant" (the supplier's article number) into "Art-Nr-"
 * over "Lieferant": the cell's first word is then the tail of that word, not a label of its own.
 */
export const continuesBrokenWord = (doc: DocText, line: DocLine, ci: number): boolean => {
  const above = doc.lines[line.index - 1];
  return above?.page === line.page && /\p{L}-$/u.test(above.cells[ci]?.text.trimEnd() ?? '');
};

/** The content line that holds `offset` of `flat`. */
export const lineAt = (doc: DocText, offset: number): DocLine => {
  let lo = 0;
  let hi = doc.flatStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((doc.flatStarts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return doc.flatLines[lo] as DocLine;
};

/** The `source` record of a line. */
export const sourceOf = (line: DocLine): TextSource => ({
  page: line.page,
  line: line.line,
  text: line.raw.slice(0, 2000),
  ...(line.box ? { box: line.box } : {}),
  ...(line.words && line.words.length <= 200
    ? { words: line.words.map((word) => ({ text: word.text.slice(0, 200), box: word.box })) }
    : {}),
});

/** The cell of `line` that holds the character at `at`, if any does. */
export const cellAt = (line: DocLine, at: number): LineCell | undefined =>
  line.cells.find((c) => c.start <= at && at < c.start + c.text.length);

/** The cell of `below` in the column of `cell`: the one that overlaps it most, if any does. */
export const cellUnder = (below: DocLine, cell: LineCell): LineCell | undefined => {
  let best: LineCell | undefined;
  let most = 0;
  for (const c of below.cells) {
    const shared = overlap(cell, c);
    if (shared > most) {
      best = c;
      most = shared;
    }
  }
  return best;
};

/** How many character columns two cells share (none or less: zero or negative). */
export const overlap = (a: LineCell, b: LineCell): number =>
  Math.min(a.start + a.text.length, b.start + b.text.length) - Math.max(a.start, b.start);

/**
 * The nearest line within three after (`step` 1) or before (-1) `line` that is not page
 * furniture, if it is on the same page.
 */
const contentLineBy = (doc: DocText, line: DocLine, step: 1 | -1): DocLine | undefined => {
  for (let k = 1; k <= 3; k++) {
    const other = doc.lines[line.index + step * k];
    if (!other) return undefined;
    if (!other.furniture) return other.page === line.page ? other : undefined;
  }
  return undefined;
};

/** The next line within three that is not page furniture, if it is on the same page. */
export const nextContentLine = (doc: DocText, line: DocLine): DocLine | undefined =>
  contentLineBy(doc, line, 1);

/** The line before `line`, within three, that is not page furniture, if it is on the same page. */
export const previousContentLine = (doc: DocText, line: DocLine): DocLine | undefined =>
  contentLineBy(doc, line, -1);
