/**
 * Exact decimal arithmetic on the decimal strings money is stored as ("1234.50"). Values are
 * scaled to bigint so "subtotal + tax = total" never suffers float drift.
 */

/** A decimal string: optional minus, integer part without leading zeros, up to 6 fraction digits. */
export const DECIMAL_PATTERN = /^-?(0|[1-9]\d*)(\.\d{1,6})?$/;

/** Fraction digits every value is scaled to before arithmetic (quantity x price needs headroom). */
const SCALE = 12;
const FACTOR = 10n ** BigInt(SCALE);

/** Thrown on a string that is not a decimal; a programming error, schemas reject such input first. */
export class NotADecimalError extends Error {
  override readonly name = 'NotADecimal';
  constructor(value: string) {
    super(`"${value}" is not a decimal string like "1234.50". Parse it with DecimalSchema first.`);
  }
}

/** What arithmetic accepts: intermediate results may carry more digits than a stored value. */
const ARITHMETIC_PATTERN = /^-?\d+(\.\d{1,12})?$/;

const toScaled = (value: string): bigint => {
  if (!ARITHMETIC_PATTERN.test(value)) throw new NotADecimalError(value);
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const scaled = BigInt(whole) * FACTOR + BigInt(fraction.padEnd(SCALE, '0'));
  return negative ? -scaled : scaled;
};

const fromScaled = (scaled: bigint, minFractionDigits: number): string => {
  const negative = scaled < 0n;
  const abs = negative ? -scaled : scaled;
  const whole = abs / FACTOR;
  let fraction = (abs % FACTOR).toString().padStart(SCALE, '0').replace(/0+$/, '');
  if (fraction.length < minFractionDigits) fraction = fraction.padEnd(minFractionDigits, '0');
  const body = fraction.length > 0 ? `${whole}.${fraction}` : `${whole}`;
  return negative && abs !== 0n ? `-${body}` : body;
};

/** Sum of decimal strings, exact; keeps at least `minFractionDigits` (default 2). */
export const addDecimals = (values: readonly string[], minFractionDigits = 2): string =>
  fromScaled(
    values.reduce((sum, v) => sum + toScaled(v), 0n),
    minFractionDigits,
  );

/** `a - b`, exact. */
export const subtractDecimals = (a: string, b: string, minFractionDigits = 2): string =>
  fromScaled(toScaled(a) - toScaled(b), minFractionDigits);

/** `a * b`, exact up to 12 fraction digits (then truncated toward zero). */
export const multiplyDecimals = (a: string, b: string, minFractionDigits = 2): string =>
  fromScaled((toScaled(a) * toScaled(b)) / FACTOR, minFractionDigits);

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b` ("1.5" equals "1.50"). */
export const compareDecimals = (a: string, b: string): -1 | 0 | 1 => {
  const d = toScaled(a) - toScaled(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};

/** True when both strings denote the same number. */
export const decimalEquals = (a: string, b: string): boolean => compareDecimals(a, b) === 0;

/** Rounds half away from zero to `digits` fraction digits and prints exactly that many. */
export const roundDecimal = (value: string, digits: number): string => {
  const step = 10n ** BigInt(SCALE - digits);
  const scaled = toScaled(value);
  const abs = scaled < 0n ? -scaled : scaled;
  const rounded = ((abs + step / 2n) / step) * step;
  const text = fromScaled(scaled < 0n ? -rounded : rounded, digits);
  return digits === 0 ? text : text.replace(new RegExp(`(\\.\\d{${digits}})\\d*$`), '$1');
};

/** A float approximation, for ranking and scoring only (never for money rules). */
export const decimalToNumber = (value: string): number => Number(value);
