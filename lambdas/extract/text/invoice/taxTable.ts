import { decimalEquals } from '../../../shared/documents/index.js';
import {
  type LabelMatch,
  labelsAtStart,
  TOTALS_LABEL_FIELDS,
  type TotalsLabelField,
} from '../../vocabulary/index.js';
import type { FinderContext } from '../context.js';
import { currencyOf, type FoundAmount } from '../parseAmount.js';
import type { DocLine, LineCell } from '../textIndex.js';

/**
 * A tax breakdown whose labels head its columns, not its rows, as marketplaces and many ERPs
 * print it:
 *
 *     USt. %    Zwischensumme (ohne USt.)    USt.
 *     19%       33,61 €                      6,38 €
 *     Gesamt    33,61 €                      6,38 €
 *
 * Each amount of a row under the headings is its column's: a net, a tax or a gross amount, of
 * one rate or (on a row a sum label opens, "Gesamt", "Total") of all of them.
 */

/**
 * The roles a column's heading gives the amounts under it: a net, a tax and a gross, and what lies
 * between the gross and the amount to pay, as a totals block printed as one row has them
 * ("Exkl. moms  Moms  Öresavrundning  Att betala").
 */
type ColumnRole = TotalsLabelField;

const COLUMN_ROLES = TOTALS_LABEL_FIELDS;

/** A money column: its heading's label and where the heading stands. */
export interface MoneyColumn {
  role: ColumnRole;
  label: LabelMatch;
  cell: LineCell;
}

/** A row of the table and the amounts of it under money columns. */
export interface ColumnRow {
  line: DocLine;
  /** A rate or a tax label ("19%", "Umsatzsteuer (S)") opens the row, not a sum label ("Gesamt"). */
  rateRow: boolean;
  amounts: { column: MoneyColumn; amount: FoundAmount }[];
}

/** Rows a breakdown may have under its headings. */
const MAX_ROWS = 8;
/** Item rows an item table with money columns may have above its sum row. */
const MAX_ITEM_ROWS = 200;

/** A rate with its number ("9%", "7,00 %"): in a heading it says which rate the column is of. */
const RATE = /\d{1,2}(?:[.,]\d{1,2})?\s?%/g;

/**
 * What may follow a label in a heading cell: nothing, a colon, a note in brackets ("(ohne
 * USt.)", "(EUR)"), or the column's rate ("BTW 9%", "VAT @ 20%"). A percent sign alone makes the
 * column the rate's ("USt. %"), and other words make it another heading ("MwSt.-Satz", "Stückpreis").
 */
const HEADING_REST = new RegExp(`^\\s*(?::|\\([^)%]*\\)|(?:@\\s*)?${RATE.source})?\\s*$`);

/**
 * The currency a heading states its column in, after a short preposition or alone ("Základ v Kč",
 * "DPH w zł", "Netto EUR", "Montant en €"): like a note in brackets, it says nothing of the role.
 */
const HEADING_CURRENCY = /^\s*(?:\p{L}{1,3}\s+)?(\S+)\s*$/u;

const headingRest = (rest: string): boolean => {
  if (HEADING_REST.test(rest)) return true;
  const currency = HEADING_CURRENCY.exec(rest)?.[1];
  return currency !== undefined && currencyOf(currency) !== undefined;
};

const moneyColumn = (cell: LineCell): MoneyColumn | undefined => {
  const label = labelsAtStart(cell.text, COLUMN_ROLES)[0];
  if (!label || !headingRest(cell.text.slice(label.end))) return undefined;
  return { role: label.field as ColumnRole, label, cell };
};

/**
 * The money columns a line heads: two or more, one of them a net or a tax, and no number on the
 * line but a rate (a row of values is no heading; "Subtotaal  BTW 9%  Totaal" is one).
 */
const headingsOf = (line: DocLine): MoneyColumn[] => {
  if (line.cells.length < 2 || /\d/.test(line.text.replace(RATE, ''))) return [];
  const columns = line.cells.map(moneyColumn).filter((c): c is MoneyColumn => c !== undefined);
  return columns.length >= 2 && columns.some((c) => c.role !== 'total') ? columns : [];
};

/** Whether `line` heads a breakdown's money columns ("Stawka VAT  Wartość netto  Kwota VAT"). */
export const headsBreakdown = (line: DocLine): boolean => headingsOf(line).length > 0;

/**
 * A rate ("19%", "7,00 %"), a tax category code ("S", "(S)"), or both, as till receipts print
 * them ("A 19%", "19% A"), opening a row.
 */
const RATE_CELL = /^\s*(?:(?:\(?[A-Z]\)?\s+)?\d{1,2}(?:[.,]\d{1,2})?\s?%(?:\s+\(?[A-Z]\)?)?|\(?[A-Z]\)?)\s*$/;

/** A tax key of one or two characters, in a column of its own before the rate ("1", "B", "(2)"). */
const KEY_CELL = /^\s*\(?[A-Z0-9]{1,2}\)?\s*$/;

/**
 * What opens a row: a rate or a tax label ("19%", "Umsatzsteuer (S)", "MwSt. 19 %"), for one
 * rate's amounts; or a sum label ("Gesamt", "Summe", "Total") or nothing but the amounts, for
 * all rates together.
 */
const opensRow = (line: DocLine): 'rate' | 'sum' | undefined => {
  const first = line.cells[0]?.text ?? '';
  if (RATE_CELL.test(first)) return 'rate';
  // A rate after the key the item rows mark it by ("1    7,00 %", "B   19 %"): the key's column
  // comes first.
  const second = line.cells[1]?.text ?? '';
  if (KEY_CELL.test(first) && second.includes('%') && RATE_CELL.test(second)) return 'rate';
  // Amounts alone under the headings: the totals printed as a row ("Net  VAT  Total" over
  // "100.00  19.00  119.00").
  if (!/\p{L}/u.test(line.text.replace(/\b[A-Z]{3}\b/g, ''))) return 'sum';
  const label = labelsAtStart(first, COLUMN_ROLES)[0];
  if (!label) return undefined;
  return label.field === 'tax' || /\d\s?%/.test(line.text) ? 'rate' : 'sum';
};

/** The column over an amount by where it stands: the heading it overlaps most, else the nearest right edge. */
const columnAt = (columns: readonly MoneyColumn[], amount: FoundAmount): MoneyColumn | undefined => {
  let best: MoneyColumn | undefined;
  let score = Number.NEGATIVE_INFINITY;
  for (const column of columns) {
    const start = column.cell.start;
    const end = start + column.cell.text.length;
    const overlap = Math.min(end, amount.end) - Math.max(start, amount.start);
    const s = overlap > 0 ? overlap : -Math.abs(end - amount.end);
    if (s > score) {
      best = column;
      score = s;
    }
  }
  // Columns a few characters off still align; farther than a heading's width they do not.
  return best && score > -best.cell.text.length ? best : undefined;
};

/**
 * Each amount of a row with the column it is in. Character positions are a rough guide to
 * columns (a short cell under a long heading drifts), so the row's shape decides first: with at
 * least as many cells as the heading, its cells line up with the headings from the right, where
 * the amounts are (a row's label may split in two at the left: "Umsatzsteuer  (S)"); with as many
 * amounts as money columns, they are in order; otherwise by position.
 */
const inColumns = (
  heading: DocLine,
  columns: readonly MoneyColumn[],
  line: DocLine,
  amounts: readonly FoundAmount[],
): { column: MoneyColumn; amount: FoundAmount }[] => {
  const cellIndex = (at: number) =>
    line.cells.findIndex((c) => at >= c.start && at < c.start + c.text.length);
  const extra = line.cells.length - heading.cells.length;
  const placed = amounts.map((amount, i) => {
    if (extra >= 0) {
      const over = heading.cells[cellIndex(amount.start) - extra];
      return { amount, column: columns.find((c) => c.cell === over) };
    }
    if (amounts.length === columns.length) return { amount, column: columns[i] };
    return { amount, column: columnAt(columns, amount) };
  });
  return placed.filter((p): p is { column: MoneyColumn; amount: FoundAmount } => p.column !== undefined);
};

/**
 * The rows of every column-headed breakdown in the document, each amount with its column. A
 * breakdown's rows follow its headings on the same page, each opened by a rate or a label and
 * stating amounts in two of its columns or more; the first line that does not ends it.
 */
export const columnTables = (ctx: FinderContext, moneyIn: (text: string) => FoundAmount[]): ColumnRow[] => {
  const rows: ColumnRow[] = [];
  const lines = ctx.doc.lines;
  for (const heading of lines) {
    if (heading.furniture) continue;
    const columns = headingsOf(heading);
    if (columns.length === 0) continue;
    let last = heading.index + MAX_ROWS;
    for (let i = heading.index + 1; i < lines.length && i <= last; i++) {
      const line = lines[i] as DocLine;
      if (line.furniture) continue;
      // A breakdown ends with its page.
      if (line.page !== heading.page) break;
      const opens = opensRow(line);
      const amounts = inColumns(heading, columns, line, moneyIn(line.text));
      // An item's row of a table whose last columns are a net, a tax and a gross ("1  ON DIESEL
      // l  35,000 … 200,00  23  46,00  246,00"): the sum row under the items is the breakdown's.
      if (!opens && amounts.length >= 2 && i - heading.index <= MAX_ITEM_ROWS) {
        last += 1;
        continue;
      }
      // A rate the invoice does not use, its row printed with a zero or nothing ("0 %  0,00"),
      // is no end of the breakdown.
      if (opens === 'rate' && amounts.length < 2 && amounts.every((a) => decimalEquals(a.amount.amount, '0')))
        continue;
      // A row states two columns at least; a line with one amount is the invoice's own summary
      // under the table ("Bruttosumme  -8,79"), for the labels to read.
      if (!opens || amounts.length < 2) break;
      rows.push({ line, rateRow: opens === 'rate', amounts });
    }
  }
  return rows;
};
