/**
 * Which numbers of a text are money: an invoice's amounts with the identifiers, rates and share
 * capital that look like them left out, and an amount in brackets read as negative.
 */
import { NOT_MONEY_BEFORE } from '../../vocabulary/index.js';
import type { FinderContext } from '../context.js';
import { type FoundAmount, findMoney } from '../parseAmount.js';
import { findDates } from '../parseDate.js';

/** A value that is an identifier, not money: a VAT id ("DE 123456789"), a long bare number. */
const IDENTIFIER_BEFORE = /(?:^|[^\p{L}])[A-Z]{2}\s?$/u;
const LONG_BARE_NUMBER = /^\d{7,}$/;
/** Thousands grouped by one mark throughout, with no cents: "23.150.000", "1,627,920". */
const THOUSANDS_GROUPED = /^\d{1,3}(?:([.,'])\d{3})(?:\1\d{3})+$/;
/** A hyphen and a check digit or letter right after a number. */
const CHECK_DIGIT_AFTER = /^-[\dKk](?![\d\p{L}])/u;

/**
 * A percent sign that no number precedes ("MwSt. % 19,0", "VAT %: 20"): the label is the rate's,
 * and so is the number after it. In "20 % 40,00" the sign is the rate's and 40,00 is money.
 */
const RATE_LABEL_BEFORE = /(?:^|[^\d\s])\s*%\s*:?\s*$/u;

const looksLikeMoney = (text: string, found: FoundAmount): boolean => {
  const token = text.slice(found.start, found.end).replace(/^[-\s]+/, '');
  const before = text.slice(0, found.start);
  if (IDENTIFIER_BEFORE.test(before)) return false;
  if (RATE_LABEL_BEFORE.test(before)) return false;
  // The company's share capital in a legal line ("SARL au capital de 120 000,00 €").
  if (NOT_MONEY_BEFORE.test(before)) return false;
  // A number with a check digit after a hyphen is a registration ("NIT 901.234.567-1", "R.U.T.
  // 76.543.210-K"), however its digits are grouped.
  if (CHECK_DIGIT_AFTER.test(text.slice(found.end))) return false;
  // A long number is an identifier unless it has cents or is grouped in thousands the way money
  // is ("23.150.000", whole pesos as Colombian and Chilean invoices print them).
  const long = LONG_BARE_NUMBER.test(token.replace(/[^\d]/g, ''));
  if (!found.currency && long && !/[.,]\d{2}\b/.test(token) && !THOUSANDS_GROUPED.test(token)) return false;
  // A bare integer without separators or currency is a count or a code more often than money.
  if (!found.currency && /^-?\d{1,6}$/.test(token) && !/[.,']/.test(token)) return false;
  return true;
};

/** An opening bracket that starts its cell: at the start of the text, or after a column's gap. */
const OPENS_CELL = /(?:^\s*|\s{2}|\t)\($/;
const CLOSES_CELL = /^\)(?=\s|$)/;

/**
 * An amount alone in its cell in brackets is negative, as accountants print credits and
 * deductions ("Total credit   (£54.19)", "Less deposit   (500.00)"). Not in running text, where
 * brackets repeat an amount in figures ("Fifty-four pounds (£54.19)").
 */
const bracketedNegative = (text: string, a: FoundAmount): boolean =>
  !a.amount.startsWith('-') &&
  /[1-9]/.test(a.amount) &&
  OPENS_CELL.test(text.slice(0, a.start)) &&
  CLOSES_CELL.test(text.slice(a.end));

/**
 * Amounts in `text` (dates and percentages masked), with the ones shaped like identifiers left
 * out. In a document that writes cents, money printed without them could be read two ways: as
 * written, or as an amount whose decimal mark was lost ("21848 €" for "218,48 €" in a scan). An
 * amount in brackets that fill its cell is negative.
 */
export const moneyIn = (ctx: FinderContext, text: string): FoundAmount[] =>
  findMoney(text, findDates(text, ctx.order, ctx.language), ctx.decimal)
    .filter((a) => looksLikeMoney(text, a))
    .map((a) => (ctx.writesCents && a.certain && !a.amount.includes('.') ? { ...a, certain: false } : a))
    .map((a) => (bracketedNegative(text, a) ? { ...a, amount: `-${a.amount}` } : a));
