import { isCurrencyCode } from '../../shared/documents/index.js';
import { escapeRegExp } from '../vocabulary/index.js';

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
  AU$: 'AUD',
  NZ$: 'NZD',
  S$: 'SGD',
  HK$: 'HKD',
  NT$: 'TWD',
  // The Brazilian real: its "$" is no dollar.
  R$: 'BRL',
  // The Peruvian sol ("S/ 1,180.00").
  'S/': 'PEN',
  '\u20ac': 'EUR',
  '\u00a3': 'GBP',
  '\u00a5': 'JPY',
  '\u20b9': 'INR',
  '\u20a9': 'KRW',
  'z\u0142': 'PLN',
  // The Czech koruna.
  'K\u010d': 'CZK',
  Rs: 'INR',
  'Rs.': 'INR',
  // The South African rand ("R 1 450,00", "R29,670.00").
  R: 'ZAR',
  // Signs only one currency writes: the Philippine peso, the shekel, the naira, the Turkish lira,
  // the dong, the baht, the hryvnia, the tenge, the rouble, the cedi, the taka, the colón.
  '\u20b1': 'PHP',
  '\u20aa': 'ILS',
  '\u20a6': 'NGN',
  '\u20ba': 'TRY',
  '\u20ab': 'VND',
  '\u0e3f': 'THB',
  '\u20b4': 'UAH',
  '\u20b8': 'KZT',
  '\u20bd': 'RUB',
  '\u20b5': 'GHS',
  '\u09f3': 'BDT',
  '\u20a1': 'CRC',
  // Letters only one currency is written with: the Turkish lira ("24.000,00 TL"), the ringgit
  // ("RM 2,160.00"), the rupiah ("Rp 1.500.000"), the Kenyan shilling ("KSh 116,000").
  TL: 'TRY',
  RM: 'MYR',
  Rp: 'IDR',
  KSh: 'KES',
  // The forint ("150 000 Ft") and the Romanian leu ("7.140,00 lei").
  Ft: 'HUF',
  'Ft.': 'HUF',
  lei: 'RON',
  // The euro is one currency in every language that writes it as a word ("45.600,00 euros",
  // "48.000 Euro", "EUROS": looked up in lower case); "dollars" and "francs" are not.
  euro: 'EUR',
  euros: 'EUR',
  // Finnish and Estonian partitives ("96 000,00 euroa", "36 000 eurot"), the Lithuanian genitive
  // ("1 250,00 eurų"). Not the Croatian "eura", which is also a Finnish town after its postcode.
  euroa: 'EUR',
  eurot: 'EUR',
  eurų: 'EUR',
  // The Bulgarian lev, by its sign and its word ("1 440,00 лв.", "хиляда лева"), and the euro in
  // Cyrillic ("500 евро"), which Bulgaria has used since 2026.
  лв: 'BGN',
  'лв.': 'BGN',
  лева: 'BGN',
  евро: 'EUR',
  // The Serbian dinar after its amount, in either script ("60.000,00 дин.", "120.000,00 dinara").
  'din.': 'RSD',
  dinara: 'RSD',
  'дин.': 'RSD',
  динара: 'RSD',
  // The hryvnia and the rouble after their amount ("24 000,00 грн", "60 000,00 руб.", "₽" above).
  грн: 'UAH',
  'грн.': 'UAH',
  руб: 'RUB',
  'руб.': 'RUB',
};

/**
 * How a sign made of letters is matched, where its letters could be part of a word: "zł" not
 * inside "złotych", "Rs" with or without its dot, the euro as a whole word in the cases it is
 * printed in. Every other sign is matched as written. (An empty pattern: covered by another's.)
 */
const WORDLIKE_SIGNS: Readonly<Record<string, string>> = {
  'z\u0142': 'z\u0142(?![A-Za-z\u00c0-\u017f])',
  'K\u010d': 'K\u010d(?![A-Za-z\u00c0-\u017f])',
  // Not the end of another word or code ("US/", "N/S/").
  'S/': '(?<![A-Za-z/])S/',
  Rs: 'Rs\\.?',
  'Rs.': '',
  // A lone letter is a sign only before money with its cents: "R1" or "R 2" is a row or revision.
  R: "(?<![\\p{L}\\d])R(?=\\s?(?:\\d{1,3}(?:[ \\u00a0\\u202f,.']\\d{3})+|\\d+)[.,]\\d{2}(?!\\d))",
  TL: '(?<![A-Za-z])TL(?![A-Za-z])',
  RM: '(?<![A-Za-z])RM(?![A-Za-z])',
  Rp: '(?<![A-Za-z])Rp\\.?(?![A-Za-z])',
  KSh: '(?<![A-Za-z])K[Ss]hs?\\.?(?![A-Za-z])',
  // Both follow their amount, as Hungarian and Romanian write them: "Lei" before one is as likely
  // the Italian courtesy pronoun ("a Lei 300,00 €").
  Ft: '(?<=\\d[ \\u00a0\\u202f]?)Ft\\.?(?![A-Za-z\\u00c0-\\u017f])',
  'Ft.': '',
  lei: '(?<=\\d[ \\u00a0\\u202f]?)(?:[Ll]ei|LEI)(?![A-Za-z\\u00c0-\\u017f])',
  euro: '(?<![A-Za-z])(?:[Ee]uro(?:s|a|t)?|EURO(?:S|A|T)?|[Ee]urų|EURŲ)(?![A-Za-z\\u00c0-\\u017f])',
  euros: '',
  euroa: '',
  eurot: '',
  eurų: '',
  лв: '(?<!\\p{Script=Cyrillic})(?:лв|ЛВ)\\.?(?!\\p{Script=Cyrillic})',
  'лв.': '',
  лева: '(?<!\\p{Script=Cyrillic})(?:лева|ЛЕВА)(?!\\p{Script=Cyrillic})',
  евро: '(?<!\\p{Script=Cyrillic})(?:евро|ЕВРО)(?!\\p{Script=Cyrillic})',
  // After an amount only: "din" is also the Scandinavian "your".
  'din.': '(?<=\\d[ \\u00a0\\u202f]?)(?:din|DIN)(?:\\.|ara\\b|ARA\\b)',
  dinara: '',
  'дин.': '(?<=\\d[ \\u00a0\\u202f]?)(?:дин|ДИН)(?:\\.|(?:ара|АРА)(?!\\p{Script=Cyrillic}))',
  динара: '',
  грн: '(?<!\\p{Script=Cyrillic})(?:грн|ГРН)\\.?(?!\\p{Script=Cyrillic})',
  'грн.': '',
  руб: '(?<!\\p{Script=Cyrillic})(?:руб|РУБ)\\.?(?!\\p{Script=Cyrillic})',
  'руб.': '',
};

/** A currency sign of `SYMBOLS` (longest first, so "US$" before "$") or a three-letter code. */
const CUR = `(${Object.keys(SYMBOLS)
  .sort((a, b) => b.length - a.length)
  .map((sign) => WORDLIKE_SIGNS[sign] ?? escapeRegExp(sign))
  .filter((pattern) => pattern !== '')
  .join('|')}|\\b[A-Z]{3}\\b)`;
/** Indian grouping: lakh and crore ("1,23,456.78"), tried before the three-digit groups. */
const INDIAN = '\\d{1,2}(?:,\\d{2})+,\\d{3}(?:\\.\\d{1,2})?';
/** A space between groups of thousands: plain, no-break or narrow no-break ("1 234,56"). */
const SPACE = '[ \\u00a0\\u202f]';
/** Groups of thousands split by a comma, a dot or an apostrophe, the same mark throughout. */
const MARKED_GROUPS = `(?:,\\d{3})+|(?:\\.\\d{3})+|(?:'\\d{3})+`;
/** A number's first group of thousands: no zero alone ("0.025" is a price of three decimals, not 25). */
const FIRST_GROUP = '(?!0[^\\d])\\d{1,3}';
const GROUPED = `${INDIAN}|${FIRST_GROUP}(?:${MARKED_GROUPS}|(?:${SPACE}\\d{3})+)(?:[.,]\\d{1,2})?`;
/**
 * Whole kronor before their sign, its word or the Swedish ":-" ("12 500 kr", "432 000 kronor",
 * "54 000 kroner", "1 250:-"), or after the sign ("kr 15 000", as Norwegian contracts write it):
 * no quantity and price.
 */
const KRONA_WORD = '[kK]r(?:on(?:or|er|a|e))?';
const KRONOR_WITHOUT_ORE = `(?=\\s?(?:${KRONA_WORD}\\b|:-))`;
// BARE has no "u" flag: a plain letter class, not \p{L}.
const AFTER_KRONA_SIGN = '(?<=(?<![A-Za-z])[kK]r\\.?\\s?)';
const KRONA_BEFORE = /(?<![\p{L}])kr\.?\s?$/iu;
const KRONA_AFTER = new RegExp(`^\\s?${KRONA_WORD}(?![\\p{L}])`, 'iu');

/**
 * Whether a krona's sign or word stands right before or after the amount that spans `at` in
 * `text` ("kr 15 000", "12 000 kronor", "4.500,00 kr."): the krona of some country, which the
 * amount's own currency does not say.
 */
export const besideKrona = (text: string, at: { start: number; end: number }): boolean =>
  KRONA_BEFORE.test(text.slice(0, at.start)) || KRONA_AFTER.test(text.slice(at.end));

/**
 * Grouped numbers without a currency. Groups split by spaces count only with their cents ("2
 * 400,00", as French and Nordic invoices print amounts): without them "2 400" is as likely a
 * quantity and a price. Read as "2" and "400,00", such an amount made "2 000,00" + "400,00" =
 * "2 400,00" a sum of 0,00 + 400,00 = 400,00 that held.
 */
const GROUPED_BARE = `${INDIAN}|${FIRST_GROUP}(?:${SPACE}\\d{3})+(?:[.,]\\d{2}|${KRONOR_WITHOUT_ORE})|${AFTER_KRONA_SIGN}${FIRST_GROUP}(?:${SPACE}\\d{3})+|${FIRST_GROUP}(?:${MARKED_GROUPS})(?:[.,]\\d{1,2})?`;
const PLAIN = '\\d+(?:[.,]\\d{1,2})?';

/**
 * Between a sign and its number: a space at most, or a column's gap after a symbol that is no
 * letter ("$        500.000", as Latin American invoices set the peso sign in a column of its
 * own). After a code or a word ("EUR", "zł") a gap is a column boundary like any other.
 */
const SIGN_GAP = '(?:\\s?|(?<=[^\\p{L}.\\s]) +)';

/**
 * A minus sign after the number, as SAP and other ERPs print negatives ("200,00-"): only where
 * the number ends there, not in a range ("10-20") or a date.
 */
const TRAILING_MINUS = '(?:(-)(?=\\s|$))?';

/**
 * A minus right before a currency's sign ("-£45.16", "-$1,000.00", as Stripe and most US and UK
 * software print a credit): not after a digit or a word, where the dash joins a range ("£10-£20").
 */
const MINUS_BEFORE_SIGN = "(?:(?<![\\p{L}\\d.,'-])(-))?";

// A number before its currency starts where the number does: not at "025" of "0.025 €". A
// hyphen right after a sign of letters joins a code ("TL-4060", an item's number), no minus.
const WITH_CURRENCY = new RegExp(
  `${MINUS_BEFORE_SIGN}${CUR}${SIGN_GAP}(?:(?<!\\p{L})(-))?(${GROUPED}|${PLAIN})${TRAILING_MINUS}(?!\\d|[.,']\\d)|(?<!\\d[.,']?)(-)?(${GROUPED}|${PLAIN})\\s?${CUR}`,
  'gu',
);
const BARE = new RegExp(
  `(?<![\\w.,/'-])(-)?(${GROUPED_BARE}|${PLAIN})${TRAILING_MINUS}(?![\\w%/]|[.,']\\d)`,
  'g',
);

/** The currency a sign ("€", "zł", "US$") or an ISO 4217 code stands for; "$" is the US dollar. */
export const currencyOf = (marker: string | undefined): string | undefined => {
  if (!marker) return undefined;
  const symbol = SYMBOLS[marker] ?? SYMBOLS[marker.toLowerCase()];
  if (symbol) return symbol;
  return isCurrencyCode(marker) ? marker : undefined;
};

/** The decimal separator a document uses, when its amounts settle it. */
export type DecimalMark = ',' | '.';

/**
 * Reads a number with grouping and decimal separators; undefined when it is not one. `decimal`,
 * the document's convention when known, settles "1.234" and "1,234" (a thousands group, since
 * money carries two decimals): without it, "1.234" stays uncertain.
 */
export const parseNumber = (
  text: string,
  decimal?: DecimalMark,
): { value: string; certain: boolean } | undefined => {
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
    } else if (after.length === 3 && /^0[.,]/.test(digits)) {
      // "0.025": three decimals, which money does not have; no thousands group follows a zero.
      return undefined;
    } else if (after.length === 3 && sameSepCount === 1 && !otherSeps && !/[' ]/.test(digits)) {
      // "1.234" or "1,234": a thousands separator (money carries two decimals), not certain
      // unless the document's own convention says this separator groups thousands.
      certain = decimal ? sep !== decimal : sep === ',' ? true : digits.length > 5;
    }
  }
  const wholeDigits = whole.replace(/[.,' ]/g, '');
  if (!/^\d+$/.test(wholeDigits) || (fraction && !/^\d{1,2}$/.test(fraction))) return undefined;
  const normalised = wholeDigits.replace(/^0+(?=\d)/, '');
  return { value: fraction ? `${normalised}.${fraction}` : normalised, certain };
};

/**
 * Cents printed as a dash after the comma ("190,-", "1.190,- €", as German and Austrian invoices
 * print whole amounts; a typographic dash is plain by now): read as ",0", the same length, so
 * that offsets stay. Not a minus ("200,00-" has its cents) nor a range ("10,-20").
 */
const DASH_CENTS = /(?<=\d),-(?![\d-])/g;

/** Every amount in `text`, in order (numbers with a currency first, then bare numbers). */
export const findAmounts = (
  printed: string,
  options: { bare?: boolean; decimal?: DecimalMark } = {},
): FoundAmount[] => {
  const text = printed.replace(DASH_CENTS, ',0');
  const dashCents = [...printed.matchAll(DASH_CENTS)].map((m) => m.index);
  const found: FoundAmount[] = [];
  const push = (start: number, end: number, sign: string | undefined, number: string, marker?: string) => {
    if (found.some((f) => start < f.end && end > f.start)) return;
    const parsed = parseNumber(number, options.decimal);
    if (!parsed) return;
    const currency = currencyOf(marker);
    if (marker && !currency) return;
    const whole = dashCents.some((at) => at >= start && at < end);
    const value = whole ? parsed.value.replace(/\.0$/, '.00') : parsed.value;
    const amount = sign && /[1-9]/.test(value) ? `-${value}` : value;
    found.push({ amount, ...(currency ? { currency } : {}), start, end, certain: parsed.certain });
  };
  WITH_CURRENCY.lastIndex = 0;
  for (let m = WITH_CURRENCY.exec(text); m; m = WITH_CURRENCY.exec(text)) {
    if (m[2]) push(m.index, m.index + m[0].length, m[1] ?? m[3] ?? m[5], m[4] as string, m[2]);
    else push(m.index, m.index + m[0].length, m[6], m[7] as string, m[8]);
  }
  if (options.bare ?? true) {
    BARE.lastIndex = 0;
    for (let m = BARE.exec(text); m; m = BARE.exec(text))
      push(m.index, m.index + m[0].length, m[1] ?? m[3], m[2] as string);
  }
  return found.sort((a, b) => a.start - b.start);
};

/** Amounts in `text` with dates and percentages masked out first (so 05.03.2025 is not 5.03). */
export const findMoney = (
  text: string,
  dateSpans: readonly { start: number; end: number }[],
  decimal?: DecimalMark,
): FoundAmount[] => {
  let masked = text;
  for (const span of dateSpans)
    masked = masked.slice(0, span.start) + '#'.repeat(span.end - span.start) + masked.slice(span.end);
  masked = masked.replace(/\d+(?:[.,]\d+)?\s?%/g, (p) => '#'.repeat(p.length));
  return findAmounts(masked, decimal ? { decimal } : {});
};

/**
 * The decimal separator a document's amounts use: the separator before the last two digits of
 * amounts like "529,87" or "1,234.56", when one of the two clearly dominates; else undefined.
 */
export const inferDecimalMark = (lines: readonly string[]): DecimalMark | undefined => {
  let comma = 0;
  let dot = 0;
  // Not a date: "05.03.2018" has another separator and digits after its "05.03".
  const re = /(?<![\d.,])\d{1,3}(?:[.,' \u202f]\d{3})*([.,])\d{2}(?!\d|[.,]\d)/g;
  for (const line of lines) {
    for (let m = re.exec(line); m; m = re.exec(line)) {
      if (m[1] === ',') comma += 1;
      else dot += 1;
    }
  }
  if (comma >= 2 * dot + 1) return ',';
  if (dot >= 2 * comma + 1) return '.';
  return undefined;
};

/** Currencies written with a dollar sign. */
const DOLLAR_SIGN_CURRENCIES: ReadonlySet<string> = new Set(
  'USD CAD AUD NZD SGD HKD TWD MXN CLP COP ARS JMD TTD BSD BBD BZD FJD XCD NAD BND KYD BMD'.split(' '),
);

/** A currency that documents may write with a bare "$". */
export const isDollarCurrency = (code: string): boolean => DOLLAR_SIGN_CURRENCIES.has(code);

/** A dollar named by its prefix ("US$", "C$", "A$", "NZ$", "S$", "HK$"). */
const DOLLAR_PREFIXES: Readonly<Record<string, string>> = {
  US: 'USD',
  CA: 'CAD',
  C: 'CAD',
  A: 'AUD',
  AU: 'AUD',
  NZ: 'NZD',
  S: 'SGD',
  HK: 'HKD',
};

/**
 * Where a text writes a currency code as one: beside money ("CAD $734.50", "1 250,00 EUR", a
 * label's "EUR: 3 165,36"), in
 * brackets ("Grand Total (INR)"), after a currency label ("Currency: CAD"), or as a prefixed dollar
 * sign ("A$", "US$"). A code elsewhere is as likely a word ("CAD drawings", "ALL items").
 */
const STATED_CODE = new RegExp(
  [
    `(?<![\\p{L}\\d])([A-Z]{3}):?\\s?(?:[$\u20ac\u00a3\u00a5]\\s?)?-?\\d[\\d,.' ]*[.,]\\d{2}(?!\\d)`,
    `\\d[.,]\\d{2}\\s?([A-Z]{3})(?![\\p{L}\\d])`,
    `\\((?:in\\s+)?([A-Z]{3})\\)`,
    `(?<![\\p{L}\\d])(US|CA|AU|NZ|HK|C|A|S)\\$`,
    `\\b(?:[Cc]urrency|[Aa]mounts in)\\s*:?\\s*([A-Z]{3})(?![\\p{L}\\d])`,
  ].join('|'),
  'gu',
);

/** The ISO 4217 codes `text` states as currencies (see `STATED_CODE`), in order. */
export const statedCurrencies = (text: string): string[] => {
  const codes: string[] = [];
  for (const m of text.matchAll(STATED_CODE)) {
    const code = m[1] ?? m[2] ?? m[3] ?? m[5] ?? DOLLAR_PREFIXES[m[4] ?? ''];
    if (code && isCurrencyCode(code)) codes.push(code);
  }
  return codes;
};
