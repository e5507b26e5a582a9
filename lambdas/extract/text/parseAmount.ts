import { isCurrencyCode } from '../../shared/documents/index.js';

/**
 * Amounts as documents write them: "$1,234.50", "1.234,50 EUR", "USD 1234.50", "1 234,50 €",
 * "CHF 1'234.50", "¥120,000", "-20.00". The result is an exact decimal string.
 */

/** An amount found in text. */
export interface FoundAmount {
  /** Decimal string with a dot, e.g. "1234.50". */
  amount: string;
  /** ISO 4217 code when a symbol or code is written next to the number. */
  currency?: string;
  start: number;
  end: number;
  /** False when the number could be read two ways (a lone "1.234" may be 1234 or 1.234). */
  certain: boolean;
}

const SYMBOLS: Readonly<Record<string, string>> = {
  $: 'USD',
  US$: 'USD',
  CA$: 'CAD',
  C$: 'CAD',
  A$: 'AUD',
  '\u20ac': 'EUR',
  '\u00a3': 'GBP',
  '\u00a5': 'JPY',
};

const CUR = '(US\\$|CA\\$|C\\$|A\\$|\\$|\u20ac|\u00a3|\u00a5|\\b[A-Z]{3}\\b)';
const GROUPED = "\\d{1,3}(?:(?:,\\d{3})+|(?:\\.\\d{3})+|(?:'\\d{3})+|(?: \\d{3})+)(?:[.,]\\d{1,2})?";
const GROUPED_NO_SPACE = "\\d{1,3}(?:(?:,\\d{3})+|(?:\\.\\d{3})+|(?:'\\d{3})+)(?:[.,]\\d{1,2})?";
const PLAIN = '\\d+(?:[.,]\\d{1,2})?';

const WITH_CURRENCY = new RegExp(
  `${CUR}\\s?(-)?(${GROUPED}|${PLAIN})(?!\\d|[.,']\\d)|(-)?(${GROUPED}|${PLAIN})\\s?${CUR}`,
  'g',
);
const BARE = new RegExp(`(?<![\\w.,/'-])(-)?(${GROUPED_NO_SPACE}|${PLAIN})(?![\\w%/]|[.,']\\d)`, 'g');

const currencyOf = (marker: string | undefined): string | undefined => {
  if (!marker) return undefined;
  const symbol = SYMBOLS[marker];
  if (symbol) return symbol;
  return isCurrencyCode(marker) ? marker : undefined;
};

/** Reads a number with grouping and decimal separators; undefined when it is not one. */
export const parseNumber = (text: string): { value: string; certain: boolean } | undefined => {
  const digits = text.replace(/\s/g, ' ');
  const lastSep = Math.max(digits.lastIndexOf('.'), digits.lastIndexOf(','));
  let whole = digits;
  let fraction = '';
  let certain = true;
  if (lastSep >= 0) {
    const after = digits.slice(lastSep + 1);
    const sep = digits[lastSep];
    const sameSepCount = digits.split(sep as string).length - 1;
    const otherSeps = /[.,' ]/.test(digits.slice(0, lastSep).replaceAll(sep as string, ''));
    if (after.length <= 2 && (sameSepCount === 1 || !otherSeps)) {
      if (sameSepCount > 1) return undefined;
      whole = digits.slice(0, lastSep);
      fraction = after;
    } else if (after.length === 3 && sameSepCount === 1 && !otherSeps && !/[' ]/.test(digits)) {
      // "1.234" or "1,234": a thousands separator (money carries two decimals), not certain.
      certain = sep === ',' ? true : digits.length > 5;
    }
  }
  const wholeDigits = whole.replace(/[.,' ]/g, '');
  if (!/^\d+$/.test(wholeDigits) || (fraction && !/^\d{1,2}$/.test(fraction))) return undefined;
  const normalised = wholeDigits.replace(/^0+(?=\d)/, '');
  return { value: fraction ? `${normalised}.${fraction}` : normalised, certain };
};

/** Every amount in `text`, in order (numbers with a currency first, then bare numbers). */
export const findAmounts = (text: string, options: { bare?: boolean } = {}): FoundAmount[] => {
  const found: FoundAmount[] = [];
  const push = (start: number, end: number, sign: string | undefined, number: string, marker?: string) => {
    if (found.some((f) => start < f.end && end > f.start)) return;
    const parsed = parseNumber(number);
    if (!parsed) return;
    const currency = currencyOf(marker);
    if (marker && !currency) return;
    const amount = sign && /[1-9]/.test(parsed.value) ? `-${parsed.value}` : parsed.value;
    found.push({ amount, ...(currency ? { currency } : {}), start, end, certain: parsed.certain });
  };
  WITH_CURRENCY.lastIndex = 0;
  for (let m = WITH_CURRENCY.exec(text); m; m = WITH_CURRENCY.exec(text)) {
    if (m[1]) push(m.index, m.index + m[0].length, m[2], m[3] as string, m[1]);
    else push(m.index, m.index + m[0].length, m[4], m[5] as string, m[6]);
  }
  if (options.bare ?? true) {
    BARE.lastIndex = 0;
    for (let m = BARE.exec(text); m; m = BARE.exec(text))
      push(m.index, m.index + m[0].length, m[1], m[2] as string);
  }
  return found.sort((a, b) => a.start - b.start);
};

/** Amounts in `text` with dates and percentages masked out first (so 05.03.2025 is not 5.03). */
export const findMoney = (
  text: string,
  dateSpans: readonly { start: number; end: number }[],
): FoundAmount[] => {
  let masked = text;
  for (const span of dateSpans)
    masked = masked.slice(0, span.start) + '#'.repeat(span.end - span.start) + masked.slice(span.end);
  masked = masked.replace(/\d+(?:[.,]\d+)?\s?%/g, (p) => '#'.repeat(p.length));
  return findAmounts(masked);
};
