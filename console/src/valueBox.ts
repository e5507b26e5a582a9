/**
 * Finding a value's own place within the line it was read from: the line's pieces (pdf.js text
 * items, or OCR words) each with a box, the value compared on letters and digits only, so
 * "125000.00" is found in "USD 125,000.00" and "2025-03-01" in "01.03.2025".
 */

/** A box [x1, y1, x2, y2] in whatever units its pieces use (PDF points, page fractions). */
export type Box = [number, number, number, number];

/** A run of text on the page with its box: a pdf.js text item, an OCR word. */
export interface Piece {
  text: string;
  box: Box;
}

/** Letters and digits, lower case: what a value and the page's text are compared on. */
const squash = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** A date written as the page may print it: 20250301, 01032025, 1032025, 03012025, 3012025. */
const dateForms = (iso: string): string[] => {
  const [y, m, d] = iso.split('-') as [string, string, string];
  const day = String(Number(d));
  const month = String(Number(m));
  return [
    `${y}${m}${d}`,
    `${d}${m}${y}`,
    `${day}${m}${y}`,
    `${day}${month}${y}`,
    `${m}${d}${y}`,
    `${month}${day}${y}`,
  ];
};

/**
 * What to look for of a value, most specific first: its text; a money value's amount; a date's
 * usual spellings. Nothing for a value too short to place (one character) or of no text form.
 */
export const needlesOf = (value: unknown): string[] => {
  if (value === null || value === undefined || typeof value === 'boolean') return [];
  if (typeof value === 'object') {
    const amount = (value as { amount?: unknown }).amount;
    return amount === undefined ? [] : needlesOf(amount);
  }
  const text = String(value);
  const forms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? dateForms(text) : [squash(text)];
  // An amount printed without its decimals ("EUR 1,200") still places "1200.00".
  if (/^-?\d+\.00$/.test(text)) forms.push(squash(text.slice(0, -3)));
  return [...new Set(forms)].filter((form) => form.length >= 2);
};

/**
 * The box of the value's characters within `pieces`, or undefined when the line does not hold it
 * (the value was normalised beyond recognition, or read elsewhere). A piece the value covers in
 * part is cut by its share of characters: pdf.js often gives a whole line as one item.
 */
export const valueBox = (pieces: readonly Piece[], value: unknown): Box | undefined => {
  const chars: { piece: number; at: number; of: number }[] = [];
  let squashed = '';
  pieces.forEach((piece, index) => {
    const text = piece.text;
    for (let at = 0; at < text.length; at++) {
      const one = squash(text[at] as string);
      if (!one) continue;
      squashed += one;
      for (let k = 0; k < one.length; k++) chars.push({ piece: index, at, of: text.length });
    }
  });
  for (const needle of needlesOf(value)) {
    const start = squashed.indexOf(needle);
    if (start < 0) continue;
    const first = chars[start];
    const last = chars[start + needle.length - 1];
    if (!first || !last) continue;
    return spanBox(pieces, first, last);
  }
  return undefined;
};

/** The box from `first`'s character to `last`'s, each piece cut by its share of characters. */
const spanBox = (
  pieces: readonly Piece[],
  first: { piece: number; at: number; of: number },
  last: { piece: number; at: number; of: number },
): Box => {
  const boxes: Box[] = [];
  for (let index = first.piece; index <= last.piece; index++) {
    const [x1, y1, x2, y2] = (pieces[index] as Piece).box;
    const from = index === first.piece ? first.at / first.of : 0;
    const to = index === last.piece ? (last.at + 1) / last.of : 1;
    boxes.push([x1 + (x2 - x1) * from, y1, x1 + (x2 - x1) * to, y2]);
  }
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
};
