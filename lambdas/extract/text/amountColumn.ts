import { ITEM_HEADINGS } from '../vocabulary/index.js';
import { currencyOf, type FoundAmount, findMoney } from './parseAmount.js';
import { findDates } from './parseDate.js';
import { type DocLine, type DocText, type LineCell, nextContentLine } from './textIndex.js';

/**
 * A cell that is one amount and nothing else ("1.234,50", "$1,200.00"). A column's amount in
 * brackets is negative, as accountants write it ("($150.00)" of a discount).
 */
export const amountCell = (text: string): FoundAmount | undefined => {
  const bracketed = /^\((.+)\)$/.exec(text)?.[1];
  if (bracketed) {
    const inner = amountCell(bracketed);
    return inner && !inner.amount.startsWith('-') ? { ...inner, amount: `-${inner.amount}` } : undefined;
  }
  const all = findMoney(text, findDates(text));
  const only = all[0];
  return all.length === 1 && only && only.start === 0 && only.end === text.length ? only : undefined;
};

/**
 * A currency after an amount column's heading: a code ("Betrag CHF", "Total in EUR"), a sign
 * ("Betrag €"), either in brackets ("Amount (USD)", "Montant (€)"), or the code or sign alone as
 * the heading ("CHF", "(EUR)"). A code is upper case: "Amount due" names no currency.
 */
const HEADING_CURRENCY = /\s*(?:\(\s*(?:in\s+)?([^\s()]{1,3})\s*\)|(?:^|\s)(?:in\s+)?([A-Z]{3}|\p{Sc}))$/u;

/**
 * The currency an amount column's heading names, and the heading without it (empty where the
 * heading is the currency alone).
 */
export const headingCurrency = (text: string): { heading: string; currency?: string } => {
  const m = HEADING_CURRENCY.exec(text);
  const currency = m && currencyOf(m[1] ?? m[2]);
  return currency && m ? { heading: text.slice(0, m.index), currency } : { heading: text };
};

/** A heading that names an amount column: an amount heading, with a currency or without, or a currency alone. */
export const isAmountHeading = (text: string): boolean => {
  const { heading, currency } = headingCurrency(text);
  return (heading === '' && currency !== undefined) || ITEM_HEADINGS.amount.test(heading);
};

/**
 * The currency a column heading states for the amounts under it, where no item table reads it
 * ("Übersicht  Betrag (EUR)" over a telecom bill's charges, "Leistung  CHF"): the first line of
 * two or more cells, none an amount, whose last cell is an amount column's heading naming a
 * currency, and whose next content line ends in an amount.
 */
export const amountColumnCurrency = (
  lines: readonly DocLine[],
): { line: DocLine; currency: string } | undefined => {
  const content = lines.filter((l) => !l.furniture);
  for (const [i, line] of content.entries()) {
    if (!isAmountHeading(line.cells.at(-1)?.text ?? '')) continue;
    const currency = currencyHeadingOver(line, content[i + 1]);
    if (currency) return { line, currency };
  }
  return undefined;
};

/**
 * The currency the last cell of `line`, two cells or more and none an amount, names as the
 * heading of a column over `next`, a row of two cells or more that ends in an amount ("Betrag
 * CHF", "Amount (RM)", "Annual Fee (GBP)"); none over anything else ("Bank account  EUR" over an
 * address).
 */
export const currencyHeadingOver = (line: DocLine, next: DocLine | undefined): string | undefined => {
  // The heading's pattern first: it rules out most lines before any cell is read as money.
  const { currency } = line.cells.length < 2 ? {} : headingCurrency(line.cells.at(-1)?.text ?? '');
  if (!currency || line.cells.some((c) => amountCell(c.text) !== undefined)) return undefined;
  return next && next.cells.length >= 2 && endingAmount(next) ? currency : undefined;
};

/** The last cell of `line` when it is one amount and nothing else: a row that ends in an amount. */
export const endingAmount = (line: DocLine): LineCell | undefined => {
  const last = line.cells.at(-1);
  return last && amountCell(last.text) ? last : undefined;
};

/**
 * A table's heading row ("Date  Consignment  From  To  Charge"): three cells or more, none an
 * amount, over a row of as many cells that ends in one. Its role words head columns of places or
 * people and name no party, and its "Date" is a row's; side-by-side address blocks ("Sold by:
 * Bill to:  Ship to:") have names under them, not amounts.
 */
export const headsTable = (doc: DocText, line: DocLine): boolean => {
  if (line.cells.length < 3 || line.cells.some((c) => amountCell(c.text) !== undefined)) return false;
  const row = nextContentLine(doc, line);
  return row !== undefined && row.cells.length >= line.cells.length && endingAmount(row) !== undefined;
};
