import {
  addDecimals,
  compareDecimals,
  decimalEquals,
  multiplyDecimals,
  subtractDecimals,
} from '../../../shared/documents/index.js';
import { labelsAtStart, MONEY_LABEL_FIELDS } from '../../vocabulary/index.js';
import type { FinderContext } from '../context.js';
import { parseNumber } from '../parseAmount.js';
import type { DocLine } from '../textIndex.js';
import { type LabelledAmount, where } from './amounts.js';
import { moneyIn } from './money.js';

/** A rate with its percent sign ("19 %", "21%", "9,975 %"). */
const RATE = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,3})?)\s?%/g;

/** The one rate a line states, as a decimal string; none where it states none or two. */
export const rateOf = (line: DocLine): string | undefined => {
  const rates = new Set([...line.text.matchAll(RATE)].map((m) => (m[1] as string).replace(',', '.')));
  const [only] = rates;
  return rates.size === 1 ? only : undefined;
};

/** `rate` % of `net` is `tax` within a cent: 100 x tax and rate x net differ by at most 1. */
export const isTaxAtRate = (tax: string, net: string, rate: string): boolean =>
  compareDecimals(
    subtractDecimals(multiplyDecimals(tax, '100'), multiplyDecimals(net, rate)).replace(/^-/, ''),
    '1',
  ) <= 0;

/** The distinct amounts read for one role. */
export const distinct = (amounts: readonly LabelledAmount[], keep: (a: LabelledAmount) => boolean) => {
  const seen = new Map<string, LabelledAmount>();
  for (const a of amounts) if (keep(a) && !seen.has(a.amount)) seen.set(a.amount, a);
  return [...seen.values()];
};

/**
 * A total that amounts printed without a money label add up to, and how: the net and the tax at
 * the tax's rate (`tax`, `net`), or item lines without a table's headings.
 */
export interface UnlabelledSum {
  total: LabelledAmount;
  tax?: LabelledAmount;
  /** The net, and the line that prints it without a money label. */
  net?: { value: string; line: DocLine };
  detail: string;
}

/**
 * Where no net is labelled, an amount printed above the tax that is the total less the tax, at
 * the tax line's own rate, is the net: "Pauschale 400,00 EUR", "zzgl. MwSt. 19 % 76,00 EUR",
 * "Rechnungsbetrag 476,00 EUR" (400.00 + 76.00 = 476.00, and 19 % of 400.00 is 76.00). The sum is
 * exact to the cent; the rate, 100 x tax = rate x net within a cent of tax, says the unlabelled
 * amount is the net and not a coincidence. The rate alone could not check a total: at 7 % a total
 * eight cents off still rounds to the same tax. Only with one total, one non-zero tax, one rate
 * on the tax's line and no labelled net (the sums settle those).
 */
const taxAtRate = (
  amounts: readonly LabelledAmount[],
  totals: readonly LabelledAmount[],
  ctx: FinderContext,
): UnlabelledSum | undefined => {
  if (amounts.some((a) => a.role === 'subtotal')) return undefined;
  const taxes = distinct(amounts, (a) => a.role === 'tax');
  const [total] = totals;
  const [tax] = taxes;
  if (totals.length !== 1 || taxes.length !== 1 || !total || !tax) return undefined;
  const rate = rateOf(tax.line);
  if (!rate || compareDecimals(rate, '0') <= 0 || compareDecimals(tax.amount, '0') === 0) return undefined;
  const net = subtractDecimals(total.amount, tax.amount);
  // Tax and net have one sign (a credit note's are both negative).
  if (compareDecimals(multiplyDecimals(net, tax.amount), '0') <= 0) return undefined;
  if (!isTaxAtRate(tax.amount, net, rate)) return undefined;
  const netLine = ctx.doc.lines
    .slice(0, tax.line.index)
    .findLast((l) => !l.furniture && moneyIn(ctx, l.text).some((a) => decimalEquals(a.amount, net)));
  if (!netLine) return undefined;
  return {
    total,
    tax,
    net: { value: net, line: netLine },
    detail: `net ${net} (p${netLine.page} l${netLine.line}) + tax ${tax.amount} (${where(tax)}) = total ${total.amount} (${where(total)}), and ${rate} % of the net is the tax`,
  };
};

/** A quantity and a sign that a price of one follows ("15 hours @", "2 x", "8 Std. à"), ending a text. */
const QUANTITY_AT = /(?<![\d.,])(\d{1,4}(?:[.,]\d{1,3})?)\s*(?:[\p{L}.]{1,8}\s*)?(?:@|×|x|à)\s*$/u;

/**
 * A line of words and its amount at the end ("Permit fee   $250.00"), without a money label; also
 * with the price of one before it, where the quantity times that price is the amount ("Garden
 * maintenance (15 hours @ £30.00/hr)   £450.00"): then the line checks its own amount.
 */
const itemLine = (ctx: FinderContext, line: DocLine): { amount: string; checked: boolean } | undefined => {
  const money = moneyIn(ctx, line.text);
  const [first] = money;
  const last = money.at(-1);
  if (!first || !last || money.length > 2 || line.text.slice(last.end).trim() !== '') return undefined;
  const words = line.text.slice(0, first.start);
  if (!/\p{L}{2}/u.test(words) || labelsAtStart(words.trim(), MONEY_LABEL_FIELDS).length > 0)
    return undefined;
  if (money.length === 1) return { amount: last.amount, checked: false };
  const quantity = QUANTITY_AT.exec(words)?.[1];
  const count = quantity === undefined ? undefined : parseNumber(quantity, ctx.decimal)?.value;
  return count !== undefined && decimalEquals(multiplyDecimals(count, first.amount), last.amount)
    ? { amount: last.amount, checked: true }
    : undefined;
};

/**
 * Item lines without a table's headings, one amount each, right above the total ("Materials
 * $4,200.00", "Labor $5,000.00", "Permit fee $250.00" over "Total $9,450.00"): two or more that add
 * up to the total to the cent check it, as an item table's sum does. A tax line among or under
 * them ("Materials sales tax (4.985%)  $512.12") is part of the sum, which then checks the tax
 * too. A rule of dashes between them and the total is passed over; any other line ends them.
 */
const itemLinesAbove = (
  amounts: readonly LabelledAmount[],
  totals: readonly LabelledAmount[],
  ctx: FinderContext,
  taxIncluded: boolean,
): UnlabelledSum | undefined => {
  const [total] = totals;
  if (totals.length !== 1 || !total || amounts.some((a) => a.role === 'subtotal')) return undefined;
  const taxes = amounts.filter((a) => a.role === 'tax');
  const found: { amount: string; checked: boolean }[] = [];
  const taxesAbove: LabelledAmount[] = [];
  let first = total.line;
  for (let i = total.line.index - 1; i >= 0; i--) {
    const line = ctx.doc.lines[i] as DocLine;
    if (line.page !== total.line.page || line.furniture) break;
    if (found.length === 0 && taxesAbove.length === 0 && /^[\s\-_=]+$/.test(line.text)) continue;
    const onLine = distinct(taxes, (t) => t.line.index === i);
    const item = onLine.length === 0 ? itemLine(ctx, line) : undefined;
    // A tax line of two amounts (a basis and its tax) says not which one the sum takes.
    if (onLine.length === 1) taxesAbove.push(onLine[0] as LabelledAmount);
    else if (item) found.push(item);
    else break;
    first = line;
  }
  // Item lines over a total with a tax elsewhere may be nets whose sum the total mislabels
  // ("Total 9,200" over "VAT 20% 1,840"); not where the tax is printed after the total and
  // included in it.
  const elsewhere = taxes.filter((t) => !taxesAbove.some((a) => a.line.index === t.line.index));
  if (elsewhere.length > 0 && !(taxIncluded && elsewhere.every((t) => t.line.index > total.line.index)))
    return undefined;
  const sum = addDecimals([...found, ...taxesAbove].map((f) => f.amount));
  if (!decimalEquals(sum, total.amount)) return undefined;
  // One line that restates the total checks it only with its own quantity and price.
  if (found.length === 1 && taxesAbove.length === 0 && found[0]?.checked)
    return {
      total,
      detail: `the one item line above (p${first.page} l${first.line}) is its quantity times its price, the total ${total.amount} (${where(total)})`,
    };
  if (found.length < 2) return undefined;
  const [tax] = taxesAbove;
  const andTax = tax ? ` and the tax ${taxesAbove.map((t) => `${t.amount} (${where(t)})`).join(' + ')}` : '';
  return {
    total,
    // One tax line is the tax the sum checks; several are parts of it.
    ...(tax && taxesAbove.length === 1 ? { tax } : {}),
    detail: `the ${found.length} item lines above (p${first.page} l${first.line})${andTax} add up to the total ${total.amount} (${where(total)})`,
  };
};

/**
 * A total that amounts printed without a money label check: the net at the tax's rate, or item
 * lines. Both check the one labelled total (not a rate row's), read once here; where no total is
 * labelled, the amount to pay states it ("Montant à payer", "Celkem k úhradě").
 */
export const unlabelledSum = (
  amounts: readonly LabelledAmount[],
  ctx: FinderContext,
  taxIncluded = false,
): UnlabelledSum | undefined => {
  const labelled = distinct(amounts, (a) => a.role === 'total' && !a.rateRow);
  const totals = labelled.length > 0 ? labelled : distinct(amounts, (a) => a.role === 'amountDue');
  return taxAtRate(amounts, totals, ctx) ?? itemLinesAbove(amounts, totals, ctx, taxIncluded);
};
