import {
  CASH_DISCOUNT,
  documentTypeCue,
  ITEM_HEADINGS,
  type LabelField,
  type LabelMatch,
  labelsAtStart,
  labelsIn,
  MONEY_LABEL_FIELDS,
  type MoneyLabelField,
  TITLE_ISSUER_LINK,
} from '../../vocabulary/index.js';
import { topLines } from '../classify.js';
import type { FinderContext } from '../context.js';
import type { FoundAmount } from '../parseAmount.js';
import { stackedValueLine } from '../stackedLabels.js';
import { cellAt, cellUnder, type DocLine } from '../textIndex.js';
import { moneyIn } from './money.js';
import { columnTables } from './taxTable.js';

/**
 * Amounts that labels name, in any language: each labelled line of the document gives the
 * amounts after its label as candidates for the label's role (total, amount due, net, tax,
 * prepaid, withheld, rounding, carried). Which of them the invoice's totals are is settled by
 * `resolveTotals`, by the sums they make, not by where a layout happens to put them.
 */

/**
 * The money roles a label can give an amount: the invoice's own sums, and a balance carried from
 * earlier invoices ("Previous balance 7,500.00"), which is none of them but explains an amount
 * due that is more than the total.
 */
export type MoneyRole = MoneyLabelField | 'carried';

const MONEY_ROLES: ReadonlySet<LabelField> = new Set<LabelField>([...MONEY_LABEL_FIELDS, 'carried']);

/** An amount read after a label. */
export interface LabelledAmount {
  role: MoneyRole;
  /** Signed decimal string. */
  amount: string;
  currency?: string;
  line: DocLine;
  /** The label as written in the vocabulary. */
  label: string;
  strength: 'strong' | 'weak';
  /** The first amount after the label, or a later one on the same line (a tax row's last column). */
  position: 'first' | 'later';
  /** The line also states a percentage: a row of a tax breakdown, not the invoice's own total. */
  rateRow: boolean;
  /**
   * The number could be read two ways: no document convention settled "1.234", or it has no
   * cents where the document writes them.
   */
  certain: boolean;
  /** The heading of the column it stands in, when a breakdown's headings name its role. */
  column?: number;
}

/** Where an amount was read, for evidence: "p1 l12". */
export const where = (a: LabelledAmount): string => `p${a.line.page} l${a.line.line}`;

const PERCENT = /\d(?:[.,]\d+)?\s?%/;

/**
 * A rate printed without its sign between a tax row's basis and its tax, the sign being in the
 * column's heading ("USt. %": "Umsatzsteuer (S)  198,00  19  37,62"): a bare number of one or two
 * digits, with at most one decimal ("5,5", "20,0"), standing alone between the row's first and
 * last amount. Two decimals are money ("100,00  19,00  119,00" states basis, tax and gross).
 */
const BARE_RATE = /(?:^|\s)\d{1,2}(?:[.,]\d)?(?=\s|$)/;

const statesBareRate = (rest: string, amounts: readonly FoundAmount[]): boolean => {
  const first = amounts[0];
  const last = amounts[amounts.length - 1];
  if (!first || !last || first === last) return false;
  // The amounts between them are in this text too: a bare rate read as money ("5,5") is found here.
  return BARE_RATE.test(rest.slice(first.end, last.start));
};

/**
 * Whether a label is made the total of something else by the words after it: "Gesamtbetrag der
 * Zuschläge" (of the surcharges), "Total des frais de port", "Sum of discounts". The link is a
 * word of `TITLE_ISSUER_LINK` (der, des, of, de, van, ...), and what it links to is not the
 * document ("Montant total de la facture", "Gesamtbetrag der Rechnung" are its own total). A link
 * straight before the amount ("Acompte de 201,00 €") qualifies nothing.
 */
const totalOfSomethingElse = (after: string, titleWords: ReadonlySet<string>): boolean => {
  const text = after.trimStart();
  const link = TITLE_ISSUER_LINK.exec(text);
  if (!link) return false;
  const linked = text.slice(link[0].length);
  const words = linked.slice(0, linked.search(/\d|$/));
  // What the title calls the document is the document: "Montant TTC de l'acompte" on a "Facture
  // d'acompte", "Gesamtbetrag der Abschlagsrechnung".
  const named = words.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
  if (named.length > 0 && named.every((w) => titleWords.has(w))) return false;
  return /\p{L}{2}/u.test(words) && !documentTypeCue(words);
};

/**
 * "Total hours: 45.0", "Gesamt Stunden 12,5", "Totaal aantal 3": a money label followed by an
 * item table's quantity heading totals a quantity, not money.
 */
const totalOfQuantity = (after: string): boolean =>
  ITEM_HEADINGS.quantity.test(after.slice(0, Math.max(0, after.search(/\d/))));

/** The words of the document's title cells ("Facture d'acompte N° FA-2024-051"), lower case. */
const titleWordsOf = (ctx: FinderContext): Set<string> => {
  const words = new Set<string>();
  for (const line of topLines(ctx.doc, (l) => !l.furniture))
    for (const cell of line.cells)
      if (documentTypeCue(cell.text)?.start === 0)
        for (const w of cell.text.toLowerCase().match(/\p{L}{3,}/gu) ?? []) words.add(w);
  return words;
};

/** Whether `amount` of line `below` stands in the cell under the cell of `line` that holds `at`. */
const underCell = (line: DocLine, at: number, below: DocLine, amount: FoundAmount): boolean => {
  const cell = cellAt(line, at);
  const under = cell && cellUnder(below, cell);
  return under !== undefined && amount.start >= under.start && amount.end <= under.start + under.text.length;
};

/** One or two words before a discount's or a charge's label that say which ("Dealer discount 15%", "Express shipping"). */
const QUALIFIER = /^\s*(?:\p{L}[\p{L}'-]*\s+){1,2}$/u;
const ADJUSTMENT_ROLES: ReadonlySet<LabelField> = new Set<LabelField>(['discount', 'charge']);

/**
 * A discount or charge whose label a word or two qualify, at the start of a cell that opens with
 * no label of its own: "Dealer discount 15%  -187.50", "Volume rebate", "Express shipping". Not
 * an offer for paying early ("Early payment discount 2%"), whose words start before the label.
 */
const qualifiedAdjustment = (text: string) => {
  const label = labelsIn(text, ADJUSTMENT_ROLES).find((l) => QUALIFIER.test(text.slice(0, l.start)));
  const cash = CASH_DISCOUNT.exec(text);
  return label && !(cash && cash.index < label.start) ? [label] : [];
};

/** A state's, a province's or a district's code before a tax label: "PA SALES TAX 6%", "ON HST 13%", "RTD/SCFD Tax 1.1%". */
const REGION_CODE = /^\s*[A-Z]{2,5}(?:\/[A-Z]{2,5})?\s+/;
/** The first one or two words of a cell, capitalised as a place's name is ("Colorado", "Los Angeles"). */
const REGION_NAMES = [/^\s*\p{Lu}\p{Ll}+\s+/u, /^\s*\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+\s+/u];
const TAX_ROLE: ReadonlySet<LabelField> = new Set<LabelField>(['tax']);

/**
 * The tax label after a region at the start of a cell, as one of the cell's labels: after its
 * code any tax label, after its name only a label that says which tax it is ("Colorado State
 * Tax", "Arapahoe County Tax"): "Amount Before Tax" names no tax.
 */
const regionalTax = (text: string) => {
  const taxAfter = (at: number, named: boolean) =>
    labelsAtStart(text.slice(at), TAX_ROLE)
      .filter((l) => l.start === 0 && (!named || /\s/.test(l.label)))
      .map((l) => ({ ...l, start: l.start + at, end: l.end + at }));
  const code = REGION_CODE.exec(text);
  if (code) return taxAfter(code[0].length, false);
  for (const name of REGION_NAMES) {
    const m = name.exec(text);
    const found = m ? taxAfter(m[0].length, true) : [];
    if (found.length > 0) return found;
  }
  return [];
};

/**
 * A total of the tax: "Total MWST 48.33", "Totale IVA", "Total VAT 20%". The total's label is
 * the longest at the cell's start, so the tax's name after it is read here: one word, as a
 * label of several says how the total stands to the tax ("Total inkl. MWST" is the gross), and
 * a word or a hyphen joined to it makes it something else ("Total MWST-freie Umsätze").
 */
const totalOfTax = (rest: string): LabelMatch | undefined => {
  const words = rest.trimStart();
  const tax = labelsAtStart(words, TAX_ROLE)[0];
  const named = tax?.start === 0 && !/\s/.test(tax.label) && !/^[\p{L}-]/u.test(words.slice(tax.end));
  return named ? tax : undefined;
};

/** A cell that opens with a rate or a plus sign, not a word. */
const RATE_FIRST = /^\s*[+(\d]/;

/**
 * Every amount that a money label names, document-wide, in reading order. `itemRows` are the
 * lines read as the item table's rows: a label in a column of one ("IGST" under "Tax Type", then
 * the row's tax and its gross amount) is that item's, not the document's; a label that opens such
 * a row ("Discount  -10.00") still names an amount.
 */
export const labelledAmounts = (ctx: FinderContext, itemRows?: ReadonlySet<number>): LabelledAmount[] => {
  const found: LabelledAmount[] = [];
  const titleWords = titleWordsOf(ctx);
  // A row under a breakdown's column headings is read by its columns: its own label ("Gesamt")
  // sums the columns, and says nothing of which amount is what.
  const tableLines = new Set<number>();
  for (const row of columnTables(ctx, (text) => moneyIn(ctx, text))) {
    tableLines.add(row.line.index);
    for (const { column, amount } of row.amounts)
      found.push({
        role: column.role,
        amount: amount.amount,
        ...(amount.currency ? { currency: amount.currency } : {}),
        line: row.line,
        label: column.label.label,
        strength: column.label.strength,
        position: 'first',
        rateRow: row.rateRow,
        certain: amount.certain,
        column: column.cell.start,
      });
  }
  for (const line of ctx.doc.lines) {
    if (line.furniture || tableLines.has(line.index)) continue;
    const text = line.text;
    // Labels at the start of a cell, or after a colon inside one ("Net total: 496.00 €"). A label
    // that opens with its rate ("19 % MwSt.  19,00") starts a line; later in a row such a cell is
    // the tax category of another amount ("Abschlag 2,00%  19 % UST (S)  0,10").
    const itemRow = itemRows?.has(line.index) === true;
    const opening = (cell: { text: string }, i: number) => {
      if (i > 0 && (itemRow || RATE_FIRST.test(cell.text))) return [];
      const own = labelsAtStart(cell.text, MONEY_ROLES);
      return own.length > 0 || itemRow ? own : [...qualifiedAdjustment(cell.text), ...regionalTax(cell.text)];
    };
    const starts = line.cells.flatMap((cell, i) =>
      opening(cell, i).map((m) => ({
        ...m,
        start: cell.start + m.start,
        end: cell.start + m.end,
      })),
    );
    const inside = labelsIn(text, MONEY_ROLES).filter(
      (m) => !starts.some((s) => s.start === m.start) && /^\s*:/.test(text.slice(m.end)),
    );
    const labels = [...starts, ...inside].sort((a, b) => a.start - b.start);
    labels.forEach((label, i) => {
      const until = labels[i + 1]?.start ?? text.length;
      const rest = text.slice(label.end, until);
      if (totalOfSomethingElse(rest, titleWords) || totalOfQuantity(rest)) return;
      const amounts = moneyIn(ctx, rest);
      const ofTax = label.field === 'total' ? totalOfTax(rest) : undefined;
      const role = ofTax ? 'tax' : (label.field as MoneyRole);
      const rateRow = PERCENT.test(text) || (role === 'tax' && statesBareRate(rest, amounts));
      const push = (a: FoundAmount, position: 'first' | 'later', onLine: DocLine) =>
        found.push({
          role,
          amount: a.amount,
          ...(a.currency ? { currency: a.currency } : {}),
          line: onLine,
          label: ofTax ? `${label.label} ${ofTax.label}` : label.label,
          strength: label.strength,
          position,
          rateRow,
          certain: a.certain,
        });
      const [first, ...later] = amounts;
      if (first) {
        push(first, 'first', line);
        const last = later[later.length - 1];
        if (last && last.amount !== first.amount) push(last, 'later', line);
        return;
      }
      // "Steuerbetrag in" / "1,12": the amount may sit alone on the next line. Under a row of
      // headings ("Importo bollo  Valuta  Totale documento" over "EUR  1.220,00"), only in the
      // label's own column: a table header's next line is a row of other columns.
      // Labels stacked over stacked amounts ("Subtotal" / "VAT @ 20%" / "Total" over three
      // amounts): the amount is this label's own among them, or none.
      const stacked = stackedValueLine(ctx.doc, line);
      if (stacked === null) return;
      const below = stacked ?? ctx.doc.lines[line.index + 1];
      if (below && below.page === line.page && !below.furniture && labelsAtStart(below.text).length === 0) {
        const alone = moneyIn(ctx, below.text);
        const only = alone.length === 1 ? alone[0] : undefined;
        const leftover = only ? below.text.slice(0, only.start) + below.text.slice(only.end) : below.text;
        if (!only || /\p{L}{2}/u.test(leftover.replace(/\b[A-Z]{3}\b/g, ''))) return;
        if (line.cells.length < 3 || underCell(line, label.start, below, only)) push(only, 'first', below);
      }
    });
  }
  return found;
};
