import { decimalEquals, normalizeCompanyName } from '../../shared/documents/index.js';
import type { FinderContext } from './context.js';
import { moneyIn } from './invoice/amounts.js';
import { findDates } from './parseDate.js';
import type { DocLine } from './textIndex.js';

/**
 * Where a value is printed on the page, in the page's own notation ("529,87" for 529.87,
 * "05.03.2018" for 2018-03-05, "Au bon moulin SARL" for "Au bon moulin"). Used to check another
 * source's values against the page: an e-invoice's data, a model's answers.
 */

/** How each field's value is found on a line. */
const FINDERS: Record<string, (ctx: FinderContext, line: DocLine, value: unknown) => boolean> = {
  invoiceNumber: (_ctx, line, value) => containsToken(line.text, String(value)),
  vendor: (_ctx, line, value) => containsName(line.text, String(value)),
  total: (ctx, line, value) => moneyIn(ctx, line.text).some((a) => sameMagnitude(a.amount, String(value))),
  subtotal: (ctx, line, value) => moneyIn(ctx, line.text).some((a) => sameMagnitude(a.amount, String(value))),
  tax: (ctx, line, value) => moneyIn(ctx, line.text).some((a) => sameMagnitude(a.amount, String(value))),
  invoiceDate: (ctx, line, value) =>
    findDates(line.text, ctx.order).some((d) => d.iso === value || d.alternative === value),
  currency: (_ctx, line, value) =>
    containsToken(line.text, String(value)) || (value === 'EUR' && line.text.includes('€')),
  iban: (_ctx, line, value) => line.text.replace(/\s+/g, '').toUpperCase().includes(String(value)),
  vendorTaxId: (_ctx, line, value) =>
    line.text.replace(/[\s.]/g, '').toUpperCase().includes(String(value).toUpperCase()),
};

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Where `text` holds `token` as a whole word (case ignored), or -1. */
export const tokenIndex = (text: string, token: string): number =>
  text.search(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(token)}(?![\\p{L}\\p{N}])`, 'iu'));
/** True when `text` holds `token` as a whole word (case ignored). */
export const containsToken = (text: string, token: string): boolean => tokenIndex(text, token) >= 0;
/** True when `text` names the company `name` (legal form, case and punctuation ignored). */
export const containsName = (text: string, name: string): boolean => {
  const wanted = normalizeCompanyName(name);
  return wanted.length >= 2 && ` ${normalizeCompanyName(text)} `.includes(` ${wanted} `);
};
/** A credit note's page may print "-233,47" for the data's 233.47: the amount is the same. */
const sameMagnitude = (a: string, b: string): boolean =>
  decimalEquals(a.replace(/^-/, ''), b.replace(/^-/, ''));

/** The first line of the page that prints `value` as field `name` would be printed, if any. */
export const findPrinted = (ctx: FinderContext, name: string, value: unknown): DocLine | undefined => {
  const find = FINDERS[name];
  return find ? ctx.doc.lines.find((l) => find(ctx, l, value)) : undefined;
};

/** Fields `findPrinted` knows how to look for. */
export const PRINTABLE_FIELDS: ReadonlySet<string> = new Set(Object.keys(FINDERS));
