import BigConstructor, { type Big } from 'big.js';

/**
 * Exact decimal arithmetic on the decimal strings money is stored as ("1234.50"), on big.js, so
 * "subtotal + tax = total" never suffers float drift. Only the string formats and the rounding
 * rules are Docket's; the arithmetic is the library's.
 */

/** A constructor of our own: no other code's change to `Big.DP` or `Big.RM` can reach these sums. */
const Decimal = BigConstructor();

/** A decimal string: optional minus, integer part without leading zeros, up to 6 fraction digits. */
export const DECIMAL_PATTERN = /^-?(0|[1-9]\d*)(\.\d{1,6})?$/;

/** Fraction digits a product keeps (then truncated toward zero): quantity x price needs headroom. */
const PRODUCT_DIGITS = 12;

/** Thrown on a string that is not a decimal; a programming error, schemas reject such input first. */
export class NotADecimalError extends Error {
  override readonly name = 'NotADecimal';
  constructor(value: string) {
    super(`"${value}" is not a decimal string like "1234.50". Parse it with DecimalSchema first.`);
  }
}

/**
 * What arithmetic accepts: intermediate results may carry more digits than a stored value. Checked
 * here because big.js also takes forms no stored amount has ("1e3", "+1", ".5").
 */
const ARITHMETIC_PATTERN = /^-?\d+(\.\d{1,12})?$/;

const toDecimal = (value: string): Big => {
  if (!ARITHMETIC_PATTERN.test(value)) throw new NotADecimalError(value);
  return new Decimal(value);
};

/** Plain notation with at least `minFractionDigits` fraction digits; no trailing zeros beyond that, no "-0". */
const print = (value: Big, minFractionDigits: number): string => {
  const fraction = value.toFixed().split('.')[1] ?? '';
  return value.toFixed(Math.max(fraction.length, minFractionDigits));
};

/** Sum of decimal strings, exact; keeps at least `minFractionDigits` (default 2). */
export const addDecimals = (values: readonly string[], minFractionDigits = 2): string =>
  print(
    values.reduce((sum, v) => sum.plus(toDecimal(v)), new Decimal(0)),
    minFractionDigits,
  );

/** `a - b`, exact. */
export const subtractDecimals = (a: string, b: string, minFractionDigits = 2): string =>
  print(toDecimal(a).minus(toDecimal(b)), minFractionDigits);

/** `a * b`, exact up to 12 fraction digits (then truncated toward zero). */
export const multiplyDecimals = (a: string, b: string, minFractionDigits = 2): string =>
  print(toDecimal(a).times(toDecimal(b)).round(PRODUCT_DIGITS, Decimal.roundDown), minFractionDigits);

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b` ("1.5" equals "1.50"). */
export const compareDecimals = (a: string, b: string): -1 | 0 | 1 => toDecimal(a).cmp(toDecimal(b));

/** True when both strings denote the same number. */
export const decimalEquals = (a: string, b: string): boolean => compareDecimals(a, b) === 0;

/** Rounds half away from zero to `digits` fraction digits and prints exactly that many. */
export const roundDecimal = (value: string, digits: number): string =>
  // Rounded first, printed second: a value that rounds to zero then prints without a minus.
  toDecimal(value).round(digits, Decimal.roundHalfUp).toFixed(digits);

/** A float approximation, for ranking and scoring only (never for money rules). */
export const decimalToNumber = (value: string): number => Number(value);
