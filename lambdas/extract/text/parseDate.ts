/**
 * Dates as documents write them: ISO, "March 5, 2025", "5 March 2025", "5th day of March, 2025",
 * "05-Mar-2025", 2025/03/05, 05.03.2025 (day first) and 05/03/2025 (either way round).
 */

/** Which way round a document writes numeric dates with slashes. */
export type DayMonthOrder = 'dmy' | 'mdy' | 'unknown';

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

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

const iso = (y: number, m: number, d: number): string | undefined => {
  if (y < 1900 || y > 2199 || m < 1 || m > 12 || d < 1) return undefined;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > last) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

const monthOf = (name: string): number => MONTHS[name.slice(0, 3).toLowerCase()] ?? 0;

/** Group `i` of a match as a number (NaN when absent, which no date accepts). */
const num = (m: RegExpExecArray, i: number): number => Number(m[i] ?? Number.NaN);

interface Pattern {
  re: RegExp;
  read: (m: RegExpExecArray, order: DayMonthOrder) => Omit<FoundDate, 'start' | 'end'> | undefined;
}

const simple = (value: string | undefined): Omit<FoundDate, 'start' | 'end'> | undefined =>
  value ? { iso: value, numericAmbiguous: false } : undefined;

const PATTERNS: readonly Pattern[] = [
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/g, read: (m) => simple(iso(num(m, 1), num(m, 2), num(m, 3))) },
  { re: /\b(\d{4})\/(\d{1,2})\/(\d{1,2})\b/g, read: (m) => simple(iso(num(m, 1), num(m, 2), num(m, 3))) },
  {
    re: new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'),
    read: (m) => simple(iso(num(m, 3), monthOf(m[1] ?? ''), num(m, 2))),
  },
  {
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:day\\s+of\\s+)?${MONTH}\\.?,?\\s+(\\d{4})\\b`, 'gi'),
    read: (m) => simple(iso(num(m, 3), monthOf(m[2] ?? ''), num(m, 1))),
  },
  {
    re: new RegExp(`\\b(\\d{1,2})[-\\s]${MONTH}[-\\s](\\d{4})\\b`, 'gi'),
    read: (m) => simple(iso(num(m, 3), monthOf(m[2] ?? ''), num(m, 1))),
  },
  // Day first with dots is the convention everywhere it is used.
  { re: /\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/g, read: (m) => simple(iso(num(m, 3), num(m, 2), num(m, 1))) },
  {
    re: /\b(\d{1,2})([/-])(\d{1,2})\2(\d{4})\b/g,
    read: (m, order) => {
      const a = num(m, 1);
      const b = num(m, 3);
      const y = num(m, 4);
      const dmy = iso(y, b, a);
      const mdy = iso(y, a, b);
      if (!dmy && !mdy) return undefined;
      if (!dmy || !mdy || dmy === mdy) return { iso: (dmy ?? mdy) as string, numericAmbiguous: false };
      if (order === 'dmy') return { iso: dmy, numericAmbiguous: true };
      if (order === 'mdy') return { iso: mdy, numericAmbiguous: true };
      return { iso: mdy, alternative: dmy, numericAmbiguous: true };
    },
  },
];

/** Every date in `text`, in order of position (overlapping matches dropped). */
export const findDates = (text: string, order: DayMonthOrder = 'unknown'): FoundDate[] => {
  const found: FoundDate[] = [];
  for (const { re, read } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const value = read(m, order);
      const start = m.index;
      const end = m.index + m[0].length;
      if (value && !found.some((f) => start < f.end && end > f.start)) found.push({ ...value, start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
};

/**
 * Settles which way round a document writes slash dates, from the slash dates that can only be
 * read one way (a first number above 12 means day first). Conflicting evidence settles nothing.
 */
export const inferDayMonthOrder = (text: string): DayMonthOrder => {
  let dmy = 0;
  let mdy = 0;
  const re = /\b(\d{1,2})[/-](\d{1,2})[/-](\d{4})\b/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const a = num(m, 1);
    const b = num(m, 2);
    if (a > 12 && b <= 12) dmy += 1;
    if (b > 12 && a <= 12) mdy += 1;
  }
  if (dmy > 0 && mdy === 0) return 'dmy';
  if (mdy > 0 && dmy === 0) return 'mdy';
  return 'unknown';
};
