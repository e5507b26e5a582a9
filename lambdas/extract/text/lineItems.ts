import { addDecimals, decimalEquals, type LineItem, multiplyDecimals } from '../../shared/documents/index.js';
import { TOTAL_WORDS } from '../vocabulary/contractWords.js';
import {
  ITEM_HEADINGS,
  type LabelField,
  labelsAtStart,
  labelsIn,
  TOTALS_LABEL_FIELDS,
} from '../vocabulary/index.js';
import { amountCell, headingCurrency, isAmountHeading } from './amountColumn.js';
import type { FinderContext } from './context.js';
import { headsBreakdown } from './invoice/taxTable.js';
import { multipliesOut, numberCells, RATE_CELL, rowItem } from './itemNumbers.js';
import type { DocLine } from './textIndex.js';

/** The item table of an invoice, as read. */
export interface ItemTable {
  items: LineItem[];
  /** Currencies written on the rows. */
  currencies: string[];
  /** The currency the amount column's heading names ("Betrag CHF", "Amount (USD)"). */
  headingCurrency?: string;
  /** The header line (the table's source). */
  header: DocLine;
  /** The lines read as items, by their index in the document. */
  rows: ReadonlySet<number>;
  /** Rows that looked like items but could not be read. */
  unreadable: number;
}

/** Rows below the table: totals, tax, notes. */
const END =
  /^(?:sub-?\s?total|(?:invoice\s+|grand\s+)?total|net\s+(?:total|amount)|tax|vat|sales\s+tax|gst|balance|amount\s+(?:due|payable))\b/i;

/**
 * A row of the totals block in any language ("Taxable Value", "CGST @ 9%", "Nettobetrag",
 * "Base imponible"): a money label leads it, and beside its amount it states at most a rate or a
 * basis. An item row that starts with such a word ("Tax advice  3  150.00  450.00") has its
 * quantity and price; an item may be freight or a discount with neither, so those labels end
 * nothing.
 */
const isTotalsRow = (cells: readonly string[]): boolean =>
  labelsAtStart(cells[0] ?? '', TOTALS_LABEL_FIELDS).length > 0 &&
  // A breakdown's sum row may state every column ("Razem:  1 650,00  379,50  2 029,50").
  (cells.length <= 3 || cells.slice(1).every((c) => amountCell(c) !== undefined || RATE_CELL.test(c)));

/** A cell that is a totals label and nothing else ("Subtotal", "Total:", "Base imponible"). */
const isTotalsLabel = (text: string): boolean => {
  const m = labelsAtStart(text, TOTALS_LABEL_FIELDS)[0];
  return m !== undefined && m.start === 0 && /^\W*$/u.test(text.slice(m.end));
};

/** Carried-balance labels: "Carried forward", "Brought forward", "Übertrag", "Report", "Riporto". */
const CARRIED: ReadonlySet<LabelField> = new Set<LabelField>(['carried']);

/**
 * A cell that a carried balance's label opens ("Carried forward", "Übertrag") or closes
 * ("Subtotal carried forward"); not one that mentions it in passing ("Refund of opening balance
 * fee").
 */
const namesCarried = (cell: string): boolean =>
  labelsAtStart(cell, CARRIED)[0]?.start === 0 ||
  labelsIn(cell, CARRIED).some((m) => m.end === cell.trimEnd().length);

/**
 * A multi-page table's running total at a page break ("Carried forward  £1,800.00", "Übertrag
 * 1.800,00"): the sum of rows already read, no item, and the table goes on after it. A note may
 * come before its label ("Continued on next page  Subtotal carried forward  1,713.00").
 */
const isCarriedRow = (cells: readonly string[]): boolean => {
  if (cells.length > 3) return false;
  const at = cells.findIndex(namesCarried);
  const amounts = cells.slice(at + 1);
  return at >= 0 && (at === 0 || amounts.length > 0) && amounts.every((c) => amountCell(c) !== undefined);
};

/**
 * Where a header row's description column is: the last heading among the first three that names
 * one, so that codes, dates or article numbers may come first ("Item #  Description", "Pos.
 * Art.-Nr.  Bezeichnung", "Datum  GOÄ-Nr.  Leistung"); -1 where there is none before the last cell.
 */
const descriptionColumn = (line: DocLine): number => {
  const first = line.cells.slice(0, Math.min(3, line.cells.length - 1));
  return first.findLastIndex((c) => ITEM_HEADINGS.description.test(c.text));
};

/**
 * A header row, in any language with a vocabulary: a description column among the first three,
 * an amount column last ("Description  Amount", "Pos.  Bezeichnung  Menge  Einzelpreis  Gesamt",
 * "Bezeichnung  Betrag CHF").
 */
const isHeader = (line: DocLine): boolean =>
  line.cells.length >= 2 &&
  descriptionColumn(line) >= 0 &&
  isAmountHeading(line.cells[line.cells.length - 1]?.text ?? '');

/**
 * A row's cells before its description under the columns that precede it (a code, a date, a
 * service number): one word each, and words after them, so that a row which leaves them empty
 * keeps its description ("Montage  2  50,00" under "Art.-Nr.  Bezeichnung  Menge  Preis") and a
 * table with no column after the description skips them too ("20.06.2024  Übernachtung  142,00"
 * under "Datum  Leistung  Betrag").
 */
const leadingCodes = (body: readonly string[], lead: number): number =>
  lead > 0 &&
  body.length > lead &&
  body.slice(0, lead).every((c) => !/\s/.test(c)) &&
  /\p{L}/u.test(body[lead] ?? '')
    ? lead
    : 0;

/**
 * Reads the item table: a header row with a description column and an amount column, then rows
 * whose last cell is an amount, across page breaks (a repeated header is skipped), until the
 * totals block. Quantity and unit price are the numeric cells between description and amount.
 */
export const findItemTable = (ctx: FinderContext): ItemTable | undefined => {
  const lines = ctx.doc.lines;
  const start = lines.findIndex(isHeader);
  if (start < 0) return undefined;
  const header = lines[start] as DocLine;
  const hasPosition = ITEM_HEADINGS.position.test(header.cells[0]?.text ?? '');
  const lead = descriptionColumn(header) - (hasPosition ? 1 : 0);
  const hasQuantity = header.cells.some((c) => ITEM_HEADINGS.quantity.test(c.text));
  const items: LineItem[] = [];
  const rows = new Set<number>();
  const currencies: string[] = [];
  let unreadable = 0;
  const { currency: headingCurrencyCode } = headingCurrency(
    header.cells[header.cells.length - 1]?.text ?? '',
  );
  const done = (): ItemTable | undefined =>
    items.length > 0
      ? {
          items,
          currencies,
          header,
          rows,
          unreadable,
          ...(headingCurrencyCode ? { headingCurrency: headingCurrencyCode } : {}),
        }
      : undefined;
  let lastRowPage = header.page;
  const content = lines.slice(start + 1).filter((l) => !l.furniture && !isHeader(l));
  const isRowOrEnd = (line: DocLine | undefined): boolean => {
    if (!line) return false;
    const cells = line.cells.map((c) => c.text);
    return (
      END.test(cells[0] ?? '') ||
      (cells.length >= 2 && amountCell(cells[cells.length - 1] ?? '') !== undefined)
    );
  };
  for (const [i, line] of content.entries()) {
    // The top of a continuation page ("Invoice 42 (continued)") sits between two parts of the table.
    const pageTop = line.page > lastRowPage && line.line <= 3;
    const cells = line.cells.map((c) => c.text);
    // A row whose quantity and price make its amount is an item, whatever word starts it.
    const ending = amountCell(cells[cells.length - 1] ?? '');
    const itemRow =
      hasQuantity && ending !== undefined && multipliesOut(numberCells(cells.slice(1, -1)), ending.amount);
    if (
      !itemRow &&
      (END.test(cells[0] ?? '') || (cells.length <= 2 && END.test(cells[cells.length - 2] ?? '')))
    )
      break;
    // The totals block: a totals row, or the headings of a breakdown printed under the items.
    if ((!itemRow && isTotalsRow(cells)) || headsBreakdown(line)) break;
    if (isCarriedRow(cells)) continue;
    // A totals block in a column of its own: a totals label alone in the cell before the amount
    // ("Moneda: MXN   Subtotal   $50,000.00").
    if (cells.length > 2 && isTotalsLabel(cells[cells.length - 2] ?? '')) break;
    const last = amountCell(cells[cells.length - 1] ?? '');
    const numbered =
      hasPosition && /^\d{1,4}$/.test(cells[0] ?? '') ? cells.slice(1, -1) : cells.slice(0, -1);
    const skipped = leadingCodes(numbered, lead);
    const body = numbered.slice(skipped);
    const description = body[0];
    if (!last || !description || /^[\d.,]+$/.test(description)) {
      // A description that wraps: a text-only line between two rows (or a row and the totals)
      // continues the row above it, even across a page break.
      const previous = items[items.length - 1];
      // Not the title over a continuation page's repeated header ("Factuur 2025-3318 - vervolg").
      const after = lines[line.index + 1];
      const overHeader = pageTop && after !== undefined && isHeader(after);
      if (previous && line.cells.length === 1 && !overHeader && isRowOrEnd(content[i + 1])) {
        previous.description = `${previous.description} ${line.text.trim()}`;
        continue;
      }
      if (pageTop) continue;
      // Notes under the table ("All amounts in EUR") end it once rows were read, when the totals
      // come next. When another row comes first, the note was an item's details ("Weitere
      // Eigenschaften: …") and the rows read so far may be only some of the items: none is
      // returned rather than a part that would not add up.
      if (items.length > 0) return rowsFollow(content.slice(i + 1)) ? undefined : done();
      unreadable += 1;
      continue;
    }
    if (last.currency) currencies.push(last.currency);
    const numbers = numberCells(body.slice(1));
    // Under quantity and price columns, a row with neither whose words say "total" ("Goods
    // total  950.00", "Summe gesamt"), or whose amount is the sum of two or more rows above it
    // ("Merchandise  4,210.00"), is that sum, not one of the rows. A sum that more rows follow is
    // a running total carried over a page break, under whatever word ("Transport" in Dutch, also
    // a freight charge's): the table goes on after it.
    if (hasQuantity && numbers.length === 0 && items.length > 0) {
      if (TOTAL_WORDS.test(description)) break;
      if (items.length > 1 && decimalEquals(addDecimals(items.map((i) => i.amount)), last.amount)) {
        if (rowsFollow(content.slice(i + 1))) continue;
        break;
      }
    }
    // A long description can crowd the quantity column so that one space separates them.
    const crowded = /^(.*\S)\s+(\d+(?:[.,]\d+)?)$/.exec(description);
    if (hasQuantity && numbers.length === 1 && crowded?.[1] && crowded[2]) {
      body[0] = crowded[1];
      numbers.unshift(crowded[2]);
    }
    const row = rowItem({
      description: body[0] as string,
      amount: last,
      numbers,
      leading: numbered.slice(0, skipped),
      hasQuantity,
      rates: body.slice(1).filter((c) => RATE_CELL.test(c)),
    });
    if (!row.readable) unreadable += 1;
    const { item } = row;
    items.push(item);
    rows.add(line.index);
    lastRowPage = line.page;
  }
  return done();
};

/** Whether an item-like row (its last cell an amount, not a totals row) comes before the totals. */
const rowsFollow = (rest: readonly DocLine[]): boolean => {
  for (const line of rest) {
    const cells = line.cells.map((c) => c.text);
    if (END.test(cells[0] ?? '') || isTotalsRow(cells)) return false;
    if (cells.length >= 3 && amountCell(cells[cells.length - 1] ?? '') !== undefined) return true;
  }
  return false;
};

/**
 * The table with its last column read as each row's unit price, where the sums say so: a shop's
 * "Item  Quantity  Price" prints the price of one, and no amount column. Only for rows that have a
 * quantity and nothing between it and the last amount, when some quantity is not 1, and only when
 * quantity x price adds up to one of `totals` (the net or the total printed on the document) while
 * the last column alone does not: the heading's word does not decide it ("Price" heads a line's
 * amount in other tables), the document's own arithmetic does.
 */
export const withUnitPrices = (table: ItemTable, totals: readonly string[]): ItemTable => {
  const { items } = table;
  if (!items.every((i) => i.quantity !== undefined && i.unitPrice === undefined)) return table;
  if (items.every((i) => decimalEquals(i.quantity as string, '1'))) return table;
  const agrees = (sum: string) => totals.some((t) => decimalEquals(sum, t));
  if (agrees(addDecimals(items.map((i) => i.amount)))) return table;
  const priced = items.map((i) => ({
    ...i,
    unitPrice: i.amount,
    amount: multiplyDecimals(i.quantity as string, i.amount),
  }));
  return agrees(addDecimals(priced.map((i) => i.amount))) ? { ...table, items: priced } : table;
};
