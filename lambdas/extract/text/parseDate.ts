import { MONTH_PATTERN, monthReadings, RANGE_JOIN_PATTERN } from '../vocabulary/index.js';

/**
 * Dates as documents write them, month names in every language with a vocabulary: ISO,
 * "March 5, 2025", "5 March 2025", "5. März 2018", "5 mars 2018", "5 de marzo de 2018",
 * "5th day of March, 2025", "05-Mar-2025", "2025. április 17.", 2025/03/05, 05.03.2025, 5. 3. 2025 and 05.03.18 (day first), and
 * 05/03/2025 (either way round, settled by the document or its language).
 */

/**
 * Which way round a document writes numeric dates with slashes. `dmy-likely`: nothing in the
 * document settles it, but where it comes from makes day-first the better guess; the date still
 * reads two ways (a person confirms it).
 */
export type DayMonthOrder = 'dmy' | 'mdy' | 'dmy-likely' | 'unknown';

/** A date found in text. */
export interface FoundDate {
  /** ISO `YYYY-MM-DD`: the reading chosen. */
  iso: string;
  /** The other reading when the text could mean either (05/03/2025 with no convention known). */
  alternative?: string;
  start: number;
  end: number;
  /** Day and month are both 12 or less in a slash date (resolved by convention or not). */
  numericAmbiguous: boolean;
}

const MONTH = `(${MONTH_PATTERN})`;

/**
 * The Buddhist era's years, as Thai documents print dates ("15/05/2568"): 543 years ahead of the
 * common era. No year of the common era a document is dated in is that large.
 */
const BUDDHIST_ERA = { from: 2443, to: 2742, offset: 543 };

const iso = (year: number, m: number, d: number): string | undefined => {
  const y = year >= BUDDHIST_ERA.from && year <= BUDDHIST_ERA.to ? year - BUDDHIST_ERA.offset : year;
  if (y < 1900 || y > 2199 || m < 1 || m > 12 || d < 1) return undefined;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > last) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

/** Group `i` of a match as a number (NaN when absent, which no date accepts). */
const num = (m: RegExpExecArray, i: number): number => Number(m[i] ?? Number.NaN);

interface Pattern {
  re: RegExp;
  read: (
    m: RegExpExecArray,
    order: DayMonthOrder,
    language: string | undefined,
  ) => Omit<FoundDate, 'start' | 'end'> | undefined;
}

const simple = (value: string | undefined): Omit<FoundDate, 'start' | 'end'> | undefined =>
  value ? { iso: value, numericAmbiguous: false } : undefined;

/**
 * A date with its month's name, in year `y` on day `d`. A name that means two months in two
 * languages ("15. listopada 2025": November in Polish, October in Croatian) and that the
 * document's language does not settle keeps both readings, as a slash date does.
 */
const named = (
  y: number,
  name: string | undefined,
  d: number,
  language: string | undefined,
): Omit<FoundDate, 'start' | 'end'> | undefined => {
  const [first, second] = monthReadings(name ?? '', language)
    .map((month) => iso(y, month, d))
    .filter((value): value is string => value !== undefined);
  if (!first) return undefined;
  return second ? { iso: first, alternative: second, numericAmbiguous: true } : simple(first);
};

/** A numeric date with slashes or hyphens, day or month first as `order` says, in year `y`. */
const slashDate = (
  m: RegExpExecArray,
  order: DayMonthOrder,
  y: number,
): Omit<FoundDate, 'start' | 'end'> | undefined => {
  const a = num(m, 1);
  const b = num(m, 3);
  const dmy = iso(y, b, a);
  const mdy = iso(y, a, b);
  if (!dmy && !mdy) return undefined;
  if (!dmy || !mdy || dmy === mdy) return { iso: (dmy ?? mdy) as string, numericAmbiguous: false };
  if (order === 'dmy') return { iso: dmy, numericAmbiguous: true };
  if (order === 'mdy') return { iso: mdy, numericAmbiguous: true };
  if (order === 'dmy-likely') return { iso: dmy, alternative: mdy, numericAmbiguous: true };
  return { iso: mdy, alternative: dmy, numericAmbiguous: true };
};

const PATTERNS: readonly Pattern[] = [
  {
    re: /\b(\d{4})-(\d{2})-(\d{2})(?:\b|(?=T\d{2}:\d{2}))/g,
    read: (m) => simple(iso(num(m, 1), num(m, 2), num(m, 3))),
  },
  // Year, month and day with their Chinese and Japanese ("2025年5月31日") or Korean ("2025년 5월
  // 31일") characters, as East Asian documents date themselves in English too.
  {
    re: /(?<!\d)(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]/gu,
    read: (m) => simple(iso(num(m, 1), num(m, 2), num(m, 3))),
  },
  // Year first with slashes or dots ("2024/04/12", "2024.04.12", as East Asian and Hungarian
  // documents write it): always year, month, day.
  {
    re: /\b(\d{4})([/.])(\d{1,2})\2(\d{1,2})\b/g,
    read: (m) => simple(iso(num(m, 1), num(m, 3), num(m, 4))),
  },
  {
    re: new RegExp(`(?<![\\p{L}])${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'giu'),
    read: (m, _, language) => named(num(m, 3), m[1], num(m, 2), language),
  },
  {
    // "5 March 2025", "5. März 2018", "5th day of March, 2025", "5 de marzo de 2018", "1er mars 2018",
    // "1° aprile 2024" (the first of a month is an ordinal in French, Italian and Spanish; Greek
    // writes every day so: "1η Μαΐου 2025"), and the
    // American standard forms' "14th day of April in the year 2025".
    re: new RegExp(
      `\\b(\\d{1,2})(?:st|nd|rd|th|er|η|[°º]|\\.)?\\s+(?:day\\s+of\\s+|de\\s+)?${MONTH}\\.?,?\\s+(?:de\\s+|del\\s+|in\\s+the\\s+year\\s+)?(\\d{4})\\b`,
      'giu',
    ),
    read: (m, _, language) => named(num(m, 3), m[2], num(m, 1), language),
  },
  {
    // "the 1st of July 2025", "1st of July, 2025", as British contracts date themselves: "of" only
    // after an ordinal, so that "1 of June 2025" (an item of a list) stays no date.
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)\\s+of\\s+${MONTH}\\.?,?\\s+(\\d{4})\\b`, 'giu'),
    read: (m, _, language) => named(num(m, 3), m[2], num(m, 1), language),
  },
  {
    // Year first, then the month's name and the day, as Hungarian ("2025. április 17.") and
    // Lithuanian ("2025 m. balandžio 25 d.") write dates.
    re: new RegExp(`\\b(\\d{4})(?:\\.|\\s?m\\.)?\\s+${MONTH}\\.?\\s+(\\d{1,2})(?:\\.|\\s?d\\.|\\b)`, 'giu'),
    read: (m, _, language) => named(num(m, 1), m[2], num(m, 3), language),
  },
  {
    // Year first, then the day and the month's name, as Latvian writes dates ("2025. gada 15.
    // aprīlī": "gada", "of the year", often "g.").
    re: new RegExp(`\\b(\\d{4})\\.?\\s+(?:gada|g\\.)\\s+(\\d{1,2})\\.?\\s+${MONTH}(?![\\p{L}])`, 'giu'),
    read: (m, _, language) => named(num(m, 1), m[3], num(m, 2), language),
  },
  {
    re: new RegExp(`\\b(\\d{1,2})[-\\s]${MONTH}[-\\s](\\d{4})\\b`, 'giu'),
    read: (m, _, language) => named(num(m, 3), m[2], num(m, 1), language),
  },
  {
    // A two-digit year after an apostrophe ("31 May '25", as British letters abbreviate it): this
    // century. The name says which is the month.
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+['’](\\d{2})(?!\\d)`, 'giu'),
    read: (m, _, language) => named(2000 + num(m, 3), m[2], num(m, 1), language),
  },
  {
    // Two-digit years after the month's name between hyphens ("14-May-25", as ERP systems print
    // dates): this century. The name says which is the month.
    re: new RegExp(`\\b(\\d{1,2})-${MONTH}-(\\d{2})(?![\\d-])`, 'giu'),
    read: (m, _, language) => named(2000 + num(m, 3), m[2], num(m, 1), language),
  },
  // Day first with dots is the convention everywhere it is used; Czech, Slovak and some German
  // documents put a space after each dot ("3. 6. 2024").
  { re: /\b(\d{1,2})\. ?(\d{1,2})\. ?(\d{4})\b/g, read: (m) => simple(iso(num(m, 3), num(m, 2), num(m, 1))) },
  {
    // Two-digit years with dots ("05.03.18"): this century, and not quite certain.
    re: /(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{2})(?![\d.])/g,
    read: (m) => {
      const value = iso(2000 + num(m, 3), num(m, 2), num(m, 1));
      return value ? { iso: value, numericAmbiguous: true } : undefined;
    },
  },
  { re: /\b(\d{1,2})([/-])(\d{1,2})\2(\d{4})\b/g, read: (m, order) => slashDate(m, order, num(m, 4)) },
  {
    // Two-digit years with slashes or hyphens ("05/10/24", as QuickBooks and hand-filled forms
    // print them): this century, read either way round as four-digit years are.
    re: /(?<![\d/.-])(\d{1,2})([/-])(\d{1,2})\2(\d{2})(?![\d/.-])/g,
    read: (m, order) => slashDate(m, order, 2000 + num(m, 4)),
  },
];

/** A time of day as a regular expression's source: "20:41", "08:12:05" (no AM/PM). */
export const TIME_OF_DAY = '\\d{1,2}:\\d{2}(?::\\d{2})?';

/**
 * Every date in `text`, in order of position (overlapping matches dropped). `order` reads slash
 * dates, `language` (the document's) month names that two languages give different months.
 */
export const findDates = (text: string, order: DayMonthOrder = 'unknown', language?: string): FoundDate[] => {
  const found: FoundDate[] = [];
  for (const { re, read } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const value = read(m, order, language);
      const start = m.index;
      const end = m.index + m[0].length;
      if (value && !found.some((f) => start < f.end && end > f.start)) found.push({ ...value, start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
};

/** A slash date with a four-digit year, as a period's ends print it. */
const SLASH_DATE = '(\\d{1,2})/(\\d{1,2})/(\\d{4})';
/** A period of two slash dates ("03/09/2025 - 04/08/2025", "03/09/2025 to 04/08/2025"). */
const SLASH_PERIOD = new RegExp(
  `(?<![\\d/.-])${SLASH_DATE}\\s*${RANGE_JOIN_PATTERN}\\s*${SLASH_DATE}(?![\\d/.-])`,
  'giu',
);

/**
 * The way round a period's two dates must be read for it to end on or after its start: "03/09/2025
 * - 04/08/2025" is 9 March to 8 April, as 3 September to 4 August runs backwards. Undefined where
 * both ways or neither do.
 */
const periodOrder = (m: RegExpExecArray): 'dmy' | 'mdy' | undefined => {
  const dmyStart = iso(num(m, 3), num(m, 2), num(m, 1));
  const dmyEnd = iso(num(m, 6), num(m, 5), num(m, 4));
  const mdyStart = iso(num(m, 3), num(m, 1), num(m, 2));
  const mdyEnd = iso(num(m, 6), num(m, 4), num(m, 5));
  if (!dmyStart || !dmyEnd || !mdyStart || !mdyEnd) return undefined;
  const dmy = dmyEnd >= dmyStart;
  const mdy = mdyEnd >= mdyStart;
  return dmy === mdy ? undefined : dmy ? 'dmy' : 'mdy';
};

/**
 * Settles which way round a document writes slash dates, from the slash dates that can only be
 * read one way (a first number above 12 means day first) and the periods that run forwards only
 * one way round. Conflicting evidence settles nothing.
 */
export const inferDayMonthOrder = (text: string): DayMonthOrder => {
  let dmy = 0;
  let mdy = 0;
  const re = /(?<![\d/.-])(\d{1,2})[/-](\d{1,2})[/-](\d{4}|\d{2})(?![\d/.-])/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const a = num(m, 1);
    const b = num(m, 2);
    if (a > 12 && b <= 12) dmy += 1;
    if (b > 12 && a <= 12) mdy += 1;
  }
  for (const m of text.matchAll(SLASH_PERIOD)) {
    const order = periodOrder(m);
    if (order === 'dmy') dmy += 1;
    if (order === 'mdy') mdy += 1;
  }
  if (dmy > 0 && mdy === 0) return 'dmy';
  if (mdy > 0 && dmy === 0) return 'mdy';
  return 'unknown';
};
