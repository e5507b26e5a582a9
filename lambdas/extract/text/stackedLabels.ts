import { labelsAtStart } from '../vocabulary/index.js';
import type { DocLine, DocText } from './textIndex.js';

/**
 * A form printed as two columns, labels on the left and values on the right, whose text comes
 * one column after the other: "Invoice Number" / "Invoice Date" / "Due Date" and then "BWP-2291" /
 * "28/05/2025" / "27/06/2025". A text layer written block by block, and OCR that reads a page's
 * columns as blocks, give this order. The i-th label's value is then the i-th value line, and the
 * line right under the last label is the first label's value, not the last's.
 */

/** A rate a label may print ("VAT @ 20%", "MwSt. 19 %", "(20%)"), then perhaps its colon. */
const RATE_AND_COLON = /^\s*(?:[@(]?\s*\d{1,2}(?:[.,]\d{1,3})?\s?%\)?)?\s*[:#]?\s*$/u;

/** A line that is one label and nothing more than its rate and colon. */
const isLabelAlone = (line: DocLine): boolean => {
  if (line.cells.length !== 1) return false;
  const text = line.text.trim();
  const m = labelsAtStart(text)[0];
  return m !== undefined && RATE_AND_COLON.test(text.slice(m.end));
};

/** A line that is one value: one cell, a digit in it, and no label before it. */
const isValueAlone = (line: DocLine): boolean =>
  line.cells.length === 1 && /\d/.test(line.text) && labelsAtStart(line.text.trim()).length === 0;

/**
 * The line after `line` with nothing but blank lines between (the index leaves blank lines out;
 * their numbers stay), on its page and not furniture.
 */
const adjacent = (doc: DocText, line: DocLine, step: 1 | -1): DocLine | undefined => {
  const other = doc.lines[line.index + step];
  return other && other.page === line.page && !other.furniture && Math.abs(other.line - line.line) === 1
    ? other
    : undefined;
};

/**
 * Where the value of the label alone on `line` stands, when the label is one of two or more
 * stacked over as many stacked values: that value's line. `null` when it is one of such labels
 * but the values under them are not as many (a label with no value, a value over two lines):
 * which is whose cannot be told, so none is read. `undefined` when `line` is no such label, and
 * the value, if any, is the one right under it.
 */
export const stackedValueLine = (doc: DocText, line: DocLine): DocLine | null | undefined => {
  if (!isLabelAlone(line)) return undefined;
  let first = line;
  for (let up = adjacent(doc, first, -1); up && isLabelAlone(up); up = adjacent(doc, up, -1)) first = up;
  let last = line;
  for (let down = adjacent(doc, last, 1); down && isLabelAlone(down); down = adjacent(doc, down, 1))
    last = down;
  const labels = last.index - first.index + 1;
  if (labels < 2) return undefined;
  // The values start on the next line, blank lines between allowed, and end at a blank line or
  // at a line that is no value alone.
  const start = doc.lines[last.index + 1];
  if (!start || start.page !== line.page || start.furniture || !isValueAlone(start)) return undefined;
  const values: DocLine[] = [start];
  for (let next = adjacent(doc, start, 1); next && isValueAlone(next); next = adjacent(doc, next, 1)) {
    values.push(next);
  }
  return values.length === labels ? (values[line.index - first.index] as DocLine) : null;
};
