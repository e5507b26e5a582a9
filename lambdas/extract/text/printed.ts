import { decimalEquals, normalizeCompanyName } from '../../shared/documents/index.js';
import { escapeRegExp } from '../vocabulary/index.js';
import type { FinderContext } from './context.js';
import { moneyIn } from './invoice/money.js';
import { findDates } from './parseDate.js';
import type { DocLine } from './textIndex.js';

/**
 * Where a value is printed on the page, in the page's own notation ("529,87" for 529.87,
 * "05.03.2018" for 2018-03-05, "Au bon moulin SARL" for "Au bon moulin"). Used to check another
 * source's values against the page: an e-invoice's data, a model's answers.
 */

/**
 * How each field's value is found on a line: given the value, a test of one line. The value's
 * pattern or normal form is made once, then tried on every line of the page.
 */
const FINDERS: Record<string, (ctx: FinderContext, value: unknown) => (line: DocLine) => boolean> = {
  invoiceNumber: (_ctx, value) => printsToken(String(value)),
  vendor: (_ctx, value) => namesCompany(String(value)),
  total: (ctx, value) => printsAmount(ctx, String(value)),
  subtotal: (ctx, value) => printsAmount(ctx, String(value)),
  tax: (ctx, value) => printsAmount(ctx, String(value)),
  invoiceDate: (ctx, value) => (line) =>
    findDates(line.text, ctx.order, ctx.language).some((d) => d.iso === value || d.alternative === value),
  currency: (_ctx, value) => {
    const code = printsToken(String(value));
    return (line) => code(line) || (value === 'EUR' && line.text.includes('€'));
  },
  iban: (_ctx, value) => (line) => line.text.replace(/\s+/g, '').toUpperCase().includes(String(value)),
  vendorTaxId: (_ctx, value) => (line) =>
    line.text.replace(/[\s.]/g, '').toUpperCase().includes(String(value).toUpperCase()),
};

/**
 * A finder of `token` as a whole word (case ignored): where a text holds it, or -1. Build it once
 * per token and try it on many lines: looking for identifiers on every line of a page was a tenth
 * of extraction's time.
 */
export const tokenFinder = (token: string): ((text: string) => number) => {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(token)}(?![\\p{L}\\p{N}])`, 'iu');
  // Digits have no case: a text without the token's longest run of digits cannot hold it, and
  // `includes` rules most lines out far faster than the case-insensitive pattern.
  const digits = token.match(/\d+/g)?.reduce((a, b) => (b.length > a.length ? b : a)) ?? '';
  return (text) => (text.includes(digits) ? text.search(pattern) : -1);
};

const printsToken = (token: string): ((line: DocLine) => boolean) => {
  const find = tokenFinder(token);
  return (line) => find(line.text) >= 0;
};

/** A line's text as `normalizeCompanyName` gives it, made once per line however many names are sought. */
const normalLines = new WeakMap<DocLine, string>();
const normalLine = (line: DocLine): string => {
  let normal = normalLines.get(line);
  if (normal === undefined) {
    normal = ` ${normalizeCompanyName(line.text)} `;
    normalLines.set(line, normal);
  }
  return normal;
};

/** A test of whether a line names the company `name` (legal form, case and punctuation ignored). */
export const namesCompany = (name: string): ((line: DocLine) => boolean) => {
  const wanted = normalizeCompanyName(name);
  return (line) => wanted.length >= 2 && normalLine(line).includes(` ${wanted} `);
};

/** A test of a line: it prints the amount `value`, its sign aside. */
const printsAmount =
  (ctx: FinderContext, value: string) =>
  (line: DocLine): boolean =>
    moneyIn(ctx, line.text).some((a) => sameMagnitude(a.amount, value));

/** A credit note's page may print "-233,47" for the data's 233.47: the amount is the same. */
const sameMagnitude = (a: string, b: string): boolean =>
  decimalEquals(a.replace(/^-/, ''), b.replace(/^-/, ''));

/** The first line of the page that prints `value` as field `name` would be printed, if any. */
export const findPrinted = (ctx: FinderContext, name: string, value: unknown): DocLine | undefined => {
  const find = FINDERS[name]?.(ctx, value);
  return find ? ctx.doc.lines.find(find) : undefined;
};

/** Fields `findPrinted` knows how to look for. */
export const PRINTABLE_FIELDS: ReadonlySet<string> = new Set(Object.keys(FINDERS));
