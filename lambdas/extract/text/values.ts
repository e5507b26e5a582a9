/**
 * Value readers for labelled text and prose captures: numbers, identifiers, dates, amounts, payment
 * terms and durations (party names: `partyNames.ts`). Each returns undefined when the text is not one.
 */
import { formatPaymentTerms, hasLegalForm } from '../../shared/documents/index.js';

export { hasLegalForm };

import { timeUnit } from '../vocabulary/contractWords.js';
import { fold, letterPlace, VOCABULARIES, vocabularyOf } from '../vocabulary/index.js';
import { findMoney } from './parseAmount.js';
import { type DayMonthOrder, type FoundDate, findDates } from './parseDate.js';
import type { Parsed } from './parsed.js';

/** Every language's number words, folded ("zwölf" as "zwolf"), with each language's value. */
const NUMBER_WORDS = new Map<string, Map<string, number>>();
for (const v of VOCABULARIES)
  for (const [word, n] of Object.entries(v.numberWords)) {
    const key = fold(word);
    NUMBER_WORDS.set(key, (NUMBER_WORDS.get(key) ?? new Map()).set(v.code, n));
  }

/**
 * A number word's value: the document's language's where it has the word, else the one all
 * languages agree on. "tres" is 3 in Spanish and Portuguese and 60 in Danish: in a document of
 * neither, it is no number.
 */
const numberWord = (word: string, language: string | undefined): number | undefined => {
  const values = NUMBER_WORDS.get(word);
  if (!values) return undefined;
  const own = language === undefined ? undefined : values.get(language);
  if (own !== undefined) return own;
  const distinct = new Set(values.values());
  return distinct.size === 1 ? [...distinct][0] : undefined;
};
/** English's, which compose ("twenty-four", "one hundred eighty"). */
const ENGLISH_WORDS = new Map(Object.entries(vocabularyOf('en')?.numberWords ?? {}));

/**
 * "twenty-four" -> 24, "one hundred eighty" -> 180, "drei" -> 3, "douze" -> 12, "dix-huit" -> 18;
 * undefined when not a number in words.
 */
export const wordsToNumber = (text: string, language?: string): number | undefined => {
  const whole = numberWord(fold(text.trim()).replace(/\s+/g, ' '), language);
  if (whole !== undefined) return whole;
  const parts = text
    .toLowerCase()
    .replace(/-/g, ' ')
    .split(/\s+/)
    .filter((w) => w && w !== 'and');
  if (parts.length === 0) return undefined;
  let current = 0;
  for (const part of parts) {
    const n = ENGLISH_WORDS.get(part);
    if (part === 'hundred') current = (current || 1) * 100;
    else if (n !== undefined) current += n;
    else return undefined;
  }
  return current;
};

/**
 * A count written as "90", "ninety (90)", "90 (ninety)" (as Latin American, Polish and Baltic
 * contracts write it: "30 (treinta) días", "24 (divdesmit četriem) mēnešiem"; the digits count)
 * or "ninety"; returns the number and the text length read.
 */
export const NUMBER_PHRASE =
  '(?:(\\p{L}+(?:[- ]\\p{L}+){0,3})\\s*\\(\\s*(\\d{1,4})\\s*\\)|(\\d{1,4})(?:\\s*\\(\\s*\\p{L}+(?:[- ]\\p{L}+){0,3}\\s*\\))?|(\\p{L}+(?:-\\p{L}+)?))';

/** Reads the groups of a `NUMBER_PHRASE` match. */
export const numberFromGroups = (
  words?: string,
  digitsInParens?: string,
  digits?: string,
  wordsOnly?: string,
  language?: string,
): number | undefined => {
  if (digitsInParens) return Number(digitsInParens);
  if (digits) return Number(digits);
  return wordsOnly ? wordsToNumber(wordsOnly, language) : words ? wordsToNumber(words, language) : undefined;
};

/**
 * Letters before a number that are a label's or a mark's, not a series' ("No 2024/1", "NR 4512",
 * "ID INV-2024-7", "REF 2024/11"): a series is never read from them.
 */
const NOT_A_MARK = '(?!(?:NO?|NR|ID|REF|NUM)\\s)';

/**
 * A series code and its number, as Portuguese, Spanish and Polish invoices print them: "FT
 * 2024/118", "FT A/315", "A 2024-001", "F 5521K24/0042/07", and the Portuguese tax portal's
 * "FR ATSIRE01FR/12". The number starts with a digit, a series letter and its slash, or a series
 * with a digit and its slash, and holds a slash or a dash; "Invoice A 12345", "No 2024/1" and "ID
 * INV-2024-7" (a label and a number) are no series.
 */
const SERIES_ID = new RegExp(
  `^${NOT_A_MARK}([A-Z]{1,3} (?=[A-Za-z0-9]*[/-])(?=[^\\s]*\\d)(?:\\d|[A-Z]{1,2}\\/|[A-Z][A-Z0-9]{0,14}\\d[A-Z0-9]*\\/(?=\\d))[A-Za-z0-9\\-/._]*[A-Za-z0-9])(?=$|\\s|[;)]|,\\s)`,
);

/**
 * A number printed in groups of digits, as telecoms and utilities print theirs ("0123 4567 8901"):
 * groups of two to six digits one space apart, ending the value or followed by a word.
 */
const GROUPED_ID = /^(\d{2,6}(?: \d{2,6}){1,4})(?=$|\s+[^\d\s]|\s{2,}|[;)]|,\s)/;

/**
 * The marks that say "number": "Nr.", "No.", "N°", "N.", "N.º", "č.", "#", "Nummer", and the
 * Croatian "br." (broj), Slovenian "št." (številka), Finnish "nro" and "n:o" (first: "nr" is the
 * start of "nro"), Slovak "číslo", Greek "αριθμός" and its "αρ." and "αριθ.", the numero sign "№"
 * (Bulgarian and many fonts' "No"), the Catalan and Spanish "Núm." (número) and the Serbian
 * Cyrillic "бр." and "број".
 * Italian and Spanish abbreviate numero / número to "N." ("Fattura N. 45/2024").
 */
export const NUMBER_MARK_SOURCE =
  'nro|n:o|nr|no|n[°º]|nº|n\\.\\s?[°º]|n(?=\\.)|č(?=\\.)|#|№|num(?:ber|mer|ero|éro)?|número|núm(?=\\.)|br(?=\\.)|št(?=\\.)|číslo|αριθμ[οό][σς]|αριθ(?=\\.)|αρ(?=\\.)|број|бр(?=\\.)';

/**
 * A document's code printed with no number mark, as a title may end with one ("SECURITY SERVICES
 * AGREEMENT Q-8812", "FRAMEWORK CALL-OFF CONTRACT PO-C-2025-300"): capital letters, then parts
 * after dashes or slashes, with a digit. A bare number ("AGREEMENT 2025") is a year as often.
 */
export const UNMARKED_CODE = /^\(?([A-Z]{1,6}(?:[-/][A-Z0-9]+)+)\)?$/u;

/** The code `UNMARKED_CODE` finds in `text`, where it holds a digit. */
export const unmarkedCode = (text: string): string | undefined => {
  const code = UNMARKED_CODE.exec(text.trim())?.[1];
  return code && /\d/.test(code) ? code : undefined;
};

/** A number mark (`NUMBER_MARK_SOURCE`) between a document's title and its number, with the spaces after it. */
export const NUMBER_MARK = new RegExp(`^(?:${NUMBER_MARK_SOURCE})\\.?\\s*[:.]?\\s*`, 'iu');

/** A document identifier: the first token, with at least one digit, a series and its number, or groups of digits. */
export const parseId = (text: string): Parsed<string> | undefined => {
  const trimmed = text.trim();
  const series = SERIES_ID.exec(trimmed)?.[1] ?? GROUPED_ID.exec(trimmed)?.[1];
  if (series) return { value: series };
  // Letters of any script: Greek series print theirs in Greek ("Α-1456").
  const m = /^(?:no\.?|number|#)?\s*#?\s*([\p{L}0-9][\p{L}0-9\-/._]*[\p{L}0-9])(?=$|\s|[;)]|,\s)/iu.exec(
    trimmed,
  );
  const id = m?.[1];
  if (!id || !/\d/.test(id) || id.length < 3 || id.length > 40) return undefined;
  // "1.770" of "1.770,09 EUR" is an amount, not an identifier; so is "22.25". "000.452" is none:
  // no amount's first group is zeros, as a Brazilian invoice's number is printed.
  if (/^(?:[1-9]\d{0,2}|0)(?:[.,']\d{3})+$/.test(id) || /^\d+[.,]\d{1,2}$/.test(id)) return undefined;
  // A date is no identifier; "24-08-0412" is one (no year is written "0412").
  if (/^\d{1,2}[./-]\d{1,2}[./-](?:\d{2}|1[89]\d{2}|2\d{3})$/.test(id) || /^\d{4}-\d{2}-\d{2}$/.test(id))
    return undefined;
  return { value: id };
};

/**
 * The value after a label that says "number" ("Invoice Number", "Rechnungsnummer", "N° de
 * facture"): any identifier, and also one or two digits standing alone ("Invoice Number:  42"),
 * as a small business numbers its first invoices. Alone: "42 items" is not read.
 */
export const parseNumberedId = (text: string): Parsed<string> | undefined => {
  const series = SERIES_AND_NUMBER.exec(text.trim());
  if (series) return { value: `${series[1]} ${series[2]}` };
  const short = /^#?\s*([1-9]\d?)$/.exec(text.trim())?.[1];
  const lettered = LETTERED_NUMBER.exec(text.trim())?.[1];
  return parseId(text) ?? (lettered ? { value: lettered } : short ? { value: short } : undefined);
};

/**
 * A series' letters and the number after one space, where a number label stands before them
 * ("Rechnungsnummer: RE 4512", "Serie y Folio: A 4512"): the number is both, as a label leaves no
 * doubt whose it is. Not a mark of a number ("No 4512"), nor followed by more digits (a date).
 */
const LETTERED_NUMBER = new RegExp(`^${NOT_A_MARK}([A-Z]{1,3} \\d{3,12})(?=$|\\s+\\D|[;)]|,\\s)`);

/**
 * A series of letters and its number, each marked, as Romanian and Lithuanian invoices print
 * them after "Seria" / "Serija": "CSW nr. 0045", "BT Nr. 000123", "ACR, nr.: 0458". The number
 * is both ("CSW 0045"), as the series is part of it.
 */
const SERIES_AND_NUMBER =
  /^([A-Z]{1,6}\d{0,4})\s*[,:]?\s*(?:nr|no|n[°º])\.?\s*:?\s*(\d[\w/-]*)(?=$|\s|[,;)])/iu;

/** Turns a found date into a parsed value; an unresolved slash date reads two ways. */
export const dateValue = (found: FoundDate): Parsed<string> => ({
  value: found.iso,
  ...(found.alternative ? { alternatives: [found.alternative], certainty: 0.5 } : {}),
  ...(!found.alternative && found.numericAmbiguous ? { certainty: 0.95 } : {}),
});

/**
 * A date at the start of the text (after "on" / "as of"), or after the place a label names with
 * it ("Kraj in datum izdaje: Sežana, 14.05.2025", "Place and date of issue: Zagreb, 5 May 2025").
 */
export const parseDateAt =
  (order: DayMonthOrder, language?: string) =>
  (value: string): Parsed<string> | undefined => {
    const text = value.slice(letterPlace(value)?.length ?? 0);
    const found = findDates(text, order, language)[0];
    if (!found) return undefined;
    const before = text.slice(0, found.start).trim().toLowerCase().replace(/\s*:$/, '');
    // Connecting words a label may leave before its date ("due by", "zahlbar bis zum", "avant le"),
    // and the article Catalan and Italian elide before a day that starts with a vowel sound ("en
    // vigor l'1 de març", "dall'8 marzo").
    if (
      before &&
      !/^(?:on|as of|of|from|dated|:|effective|the|as of the|on the|by|until|before|bis|bis zum|am|vom|le|au|du|avant le|op|voor|van|el|del|il|entro il|entro|(?:l|d|dall|all|dell|nell)['’])$/.test(
        before,
      )
    )
      return undefined;
    return dateValue(found);
  };

/** An amount near the start of the text, with its currency when written. */
export const parseAmountAt =
  (defaultCurrency: string | undefined) =>
  (text: string): Parsed<{ amount: string; currency?: string }> | undefined => {
    const found = findMoney(text, findDates(text)).find((a) => !a.amount.startsWith('-'));
    if (!found || found.start > 24) return undefined;
    const currency = found.currency ?? defaultCurrency;
    return {
      value: { amount: found.amount, ...(currency ? { currency } : {}) },
      certainty: (found.certain ? 1 : 0.85) * (found.currency ? 1 : 0.97),
    };
  };

/**
 * A date at the start of `text`, after a letter's place when one opens it ("Berlin, den
 * 15.03.2024", "Fait à Paris, le 20 avril 2024, en deux exemplaires", "12.03.2024 08:14"): the
 * place ('' when none), the date, and what follows it. With `needPlace`, only after a place.
 */
export const dateAfterPlace = (
  text: string,
  order: DayMonthOrder,
  needPlace: boolean,
  language?: string,
): { place: string; date: FoundDate; after: string } | undefined => {
  const place = letterPlace(text) ?? '';
  if (needPlace && !place) return undefined;
  const rest = text.slice(place.length);
  const date = findDates(rest, order, language)[0];
  return date?.start === 0 ? { place, date, after: rest.slice(date.end) } : undefined;
};

/**
 * "Days" in the languages Docket reads (the unit of payment terms): the vocabularies' words for
 * days ("14 dana", "30 zile", "8 nap", "14 päivää") and the abbreviations invoices print, as a
 * whole word ("6 July" is no "6 j", the French abbreviation of "jours").
 */
const DAYS = `(?:${timeUnit('days')}|days?|tage?n?|tg\\.?|jours?|j|dagen|dagar|dager|dage|dgr\\.?|d[ií]as|giorni|gg\\.?|dni)(?![\\p{L}])`;

// The payment-terms patterns, compiled once: contract sentences try them from every word on.
const ON_RECEIPT =
  /(?:due|payable)\s+(?:up)?on\s+receipt|^(?:up)?on receipt|^immediate|^sofort|imm[ée]diat|[àa] r[ée]ception|bij ontvangst|al contado|a vista|^immediato|pronto pagamento/;
const NET_DAYS = /^net(?:to)?\s*(\d{1,3})\b/;
/** A discount for early payment, then the net days: "2/10 net 30", "2/10, n/30", "1% 10 net 30". */
const DISCOUNT_THEN_NET = /^\d{1,2}(?:[.,]\d{1,2})?\s*%?\s*\/?\s*\d{1,2}\s*,?\s*(?:net|n\/)\s*(\d{1,3})\b/;
/** The count spelled out in brackets after its digits: "30 (thirty) days", "30 (otuz) gün". */
const SPELLED_AFTER = '(?:\\([^()\\d]{2,40}\\)\\s*)?';
/** A count of days ("30 días", "14 Tage", "60 gg.", "30 (otuz) gün"). */
const DAY_COUNT = `(\\d{1,3})\\s*${SPELLED_AFTER}${DAYS}`;
const DAYS_FIRST = new RegExp(`^${DAY_COUNT}`, 'u');
const DAY_COUNTS = new RegExp(DAY_COUNT, 'gu');
const WITHIN_DAYS = new RegExp(`^(?:payable\\s+)?(?:within|in)\\s+${NUMBER_PHRASE}\\s+days`, 'u');
const WITHIN_DAYS_ANY = new RegExp(
  `^(?:zahlbar\\s+)?(?:innerhalb(?:\\s+von)?|innert|in|binnen(?:\\s+een\\s+termijn\\s+van)?|dans(?:\\s+les)?|sous|[àa]|a|entro(?:\\s+il\\s+termine\\s+di)?|nel\\s+termine\\s+di|en\\s+(?:un|el)\\s+(?:plazo|termini)\\s+de|dins\\s+(?:dels|d['’]un\\s+termini\\s+de)|no\\s+prazo\\s+de|within|w\\s+terminie|w\\s+ciągu|inom|inden|innen|u\\s+roku\\s+od|v\\s+roku|[îi]n\\s+termen\\s+de|v\\s+lehote|do|per|εντός)\\s+${DAY_COUNT}`,
  'u',
);

/**
 * Payment terms written as "Net 30", "30 days net", "in 30 days", "Zahlbar innerhalb 30 Tagen
 * netto" (in Switzerland "innert 30 Tagen"), "à 30
 * jours", "binnen 30 dagen", "a 30 días", "en un plazo de 30 días", "30 giorni", "w terminie 14 dni",
 * "30 dagar netto", "inom 30 dgr", "u roku od 15 dana", "în termen de 15 zile", "do 30 dní", "per 30 dienų", "Due on receipt" / "sofort" / "paiement
 * immédiat"; normalised to "Net N" or "Due on receipt".
 */
export const parsePaymentTerms = (text: string): Parsed<string> | undefined => {
  const t = text.toLowerCase();
  if (ON_RECEIPT.test(t)) return { value: formatPaymentTerms(0) };
  const m =
    NET_DAYS.exec(t) ??
    DISCOUNT_THEN_NET.exec(t) ??
    DAYS_FIRST.exec(t) ??
    WITHIN_DAYS.exec(t) ??
    WITHIN_DAYS_ANY.exec(t);
  if (!m) return undefined;
  const days = m.length > 2 ? numberFromGroups(m[1], m[2], m[3], m[4]) : Number(m[1]);
  if (days === undefined || days > 365) return undefined;
  return { value: formatPaymentTerms(days, END_OF_MONTH.test(t.slice(m.index + m[0].length))) };
};

/**
 * The first payment terms that start at one of the first `words` words of `text` (at any word by
 * default): "pay within 30 days" read from "within".
 */
export const paymentTermsAmong = (
  text: string,
  words = Number.POSITIVE_INFINITY,
): Parsed<string> | undefined => {
  for (const word of [...text.matchAll(/(?<=^|\s)\S/gu)].slice(0, words)) {
    const terms = parsePaymentTerms(text.slice(word.index));
    if (terms) return terms;
  }
  return undefined;
};

/** Whether payment terms are stated anywhere in a text ("Payment due within 30 days of"). */
export const statesPaymentTerms = (text: string): boolean => paymentTermsAmong(text) !== undefined;

/**
 * Days counted to the end of a month, right after the days: "30 jours fin de mois", "45 jours
 * FDM", "60 gg d.f.f.m." (data fattura fine mese), "30 días fin de mes", "Net 30 EOM", "30 Tage
 * zum Monatsende".
 */
const END_OF_MONTH =
  /^[\s,.]*(?:net(?:to)?\s+)?(?:(?:à\s+la\s+)?fin\s+de\s+mois|f\.?\s?d\.?\s?m\b|(?:d\.?\s?)?f\.?\s?f\.?\s?m\b|(?:data\s+fattura\s+)?fine\s+mese|(?:a\s+)?(?:fin|final)\s+de\s+mes|fim\s+do\s+m[eê]s|(?:the\s+)?end\s+of\s+(?:the\s+)?month|eom\b|(?:zum\s+)?monatsende|einde\s+(?:van\s+de\s+)?maand)/u;

/**
 * A text up to the end of its first sentence: a stop, "!" or "?" before a capital. Not at an
 * abbreviation's dot before a small letter ("60 gg. d.f.f.m.").
 */
export const firstSentence = (text: string): string => text.split(/[.!?]\s+(?=\p{Lu})/u)[0] ?? text;

/**
 * Payment terms inside a payment label's value, after the means of payment ("transferencia
 * bancaria a 30 días", "Bank transfer, 30 days"): read where the value names one count of days
 * only, so a cash discount's days ("2 % Skonto innerhalb 8 Tagen, 30 Tage netto") are never taken
 * for the terms.
 */
export const parsePaymentTermsIn = (value: string): Parsed<string> | undefined => {
  const own = parsePaymentTerms(value);
  if (own) return own;
  // Not past the value's first sentence: "Payment by bank transfer. Delivery within 3 days."
  const text = firstSentence(value);
  const counts = [...text.matchAll(DAY_COUNTS)];
  const [only] = counts;
  if (counts.length !== 1 || !only) return undefined;
  // From the count itself back to the value's start: "a 30 días" is read from "a".
  const words = [...text.slice(0, only.index).matchAll(/(?<=^|\s)\S/gu)].map((w) => w.index);
  for (const start of [only.index, ...words.reverse()]) {
    const found = parsePaymentTerms(text.slice(start));
    if (found) return found;
  }
  return undefined;
};

const unitGroup = (unit: Parameters<typeof timeUnit>[0]) => `(?<${unit}>${timeUnit(unit)})`;
/**
 * A number and its unit of time, any language ("90 days", "ninety (90) days", "drei (3) Monate",
 * "12 mois"), or the two joined by a hyphen into an adjective ("a 30-day notice", "30-dniowego").
 */
const DURATION = new RegExp(
  `^${NUMBER_PHRASE}(?:\\s*|-)(?:${unitGroup('days')}|${unitGroup('weeks')}|${unitGroup('months')}|${unitGroup('years')})(?![\\p{L}])`,
  'iu',
);

/** How long the duration that opens `text` is written ("five years from …" -> 10), 0 where none does. */
export const leadingDurationLength = (text: string): number => {
  const trimmed = text.trimStart();
  const m = DURATION.exec(trimmed);
  return m ? text.length - trimmed.length + m[0].length : 0;
};

/** A duration's text without the article Catalan elides before "un" ("una durada d'un any"). */
const durationText = (text: string): string => text.trim().replace(/^d['’](?=un\b)/iu, '');

/** A number of days ("90 days", "ninety (90) days", "3 months" as 90, "90 Tage", "trois (3) mois"). */
export const parseDays = (text: string, language?: string): Parsed<number> | undefined => {
  const m = DURATION.exec(durationText(text));
  const n = m && numberFromGroups(m[1], m[2], m[3], m[4], language);
  if (!m?.groups || n === undefined || n === null || m.groups.years) return undefined;
  return { value: m.groups.months ? n * 30 : m.groups.weeks ? n * 7 : n };
};

/** A duration in months ("24 months", "2 years", "twenty-four (24) months", "24 Monate", "18 maanden"). */
export const parseMonths = (text: string, language?: string): Parsed<number> | undefined => {
  const m = DURATION.exec(durationText(text));
  const n = m && numberFromGroups(m[1], m[2], m[3], m[4], language);
  if (!m?.groups || !n || (!m.groups.months && !m.groups.years)) return undefined;
  return { value: m.groups.years ? n * 12 : n };
};

/** Yes / no answers in a form ("Yes, for successive 12-month periods", "None"). */
export const parseYesNo = (text: string): Parsed<boolean> | undefined => {
  const t = text.trim().toLowerCase();
  if (/^(?:yes|true|automatic|included)\b/.test(t)) return { value: true };
  if (/^(?:no|none|false|not applicable|n\/a)\b/.test(t)) return { value: false };
  return undefined;
};

/** A jurisdiction, without "the laws of" / "the State of". */
export const parseLaw = (text: string): Parsed<string> | undefined => {
  let law = text.trim().replace(/^(?:the\s+)?laws?\s+of\s+/i, '');
  law = law.replace(/^the\s+/i, '').replace(/^(?:state|commonwealth|province|republic)\s+of\s+/i, '');
  law = law.split(/[,;.(]|\s+without\b|\s+and any\b|\s+excluding\b|\s+govern/i)[0]?.trim() ?? '';
  if (law.length < 2 || law.length > 60 || !/^[A-Z]/.test(law) || law.split(/\s+/).length > 6)
    return undefined;
  return { value: law };
};
