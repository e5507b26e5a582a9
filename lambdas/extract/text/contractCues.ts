import type { Candidate } from '../candidates.js';
import {
  lawsNamed,
  NOT_VALUE_WORDS,
  PER_MONTH,
  PER_QUARTER,
  PER_UNIT,
  PER_YEAR,
  RANGE_JOIN,
  TOTAL_WORDS,
  timeUnit,
  VALUE_WORDS,
} from '../vocabulary/contractWords.js';
import type { FinderContext } from './context.js';
import type { Parsed } from './labelled.js';
import { besideKrona, type FoundAmount, findMoney } from './parseAmount.js';
import { findDates } from './parseDate.js';
import { fromSentence, sentences } from './prose.js';
import type { DocText } from './textIndex.js';
import { dateValue, leadingDurationLength, parseMonths } from './values.js';

// Contract prose and form cues shared by the contract field finders.

/** The date that ends `text` (what a defined term like (the "Effective Date") follows). */
export const lastDateIn = (text: string, ctx: FinderContext) => {
  const dates = findDates(text, ctx.order, ctx.language);
  const last = dates[dates.length - 1];
  if (!last || text.slice(last.end).trim().length > 2) return undefined;
  return { parsed: dateValue(last), start: last.start };
};

/** A unit of months or years ending a text: the end of a duration. */
const PERIOD_UNIT_END = new RegExp(`(?<![\\p{L}])(?:${timeUnit('months')}|${timeUnit('years')})\\s*$`, 'iu');

/**
 * The duration that ends `text` ("… 12 ay", "… 24 (yirmi dört) ay", "… 12 hónapig"), read by
 * `parse` from its number on: the shortest tail of words that ends in a unit of months or years
 * and parses.
 */
export const lastDurationIn = <V>(
  text: string,
  parse: (text: string) => Parsed<V> | undefined,
): { parsed: Parsed<V>; start: number } | undefined => {
  if (!PERIOD_UNIT_END.test(text)) return undefined;
  const starts = [...text.matchAll(/(?<=^|\s)\S/gu)].map((w) => w.index).reverse();
  for (const start of starts.slice(0, 6)) {
    const parsed = parse(text.slice(start));
    if (parsed) return { parsed, start };
  }
  return undefined;
};

/** A defined-term parenthesis naming a date: (the "Effective Date"). */
export const DATE_CUE = (name: string) =>
  new RegExp(`\\(\\s*(?:the\\s+)?"${name.replace(/ /g, '\\s+')}"\\s*\\)`, 'i');

/**
 * What may stand before a period's first date: up to three words that say "from" ("vom", "desde
 * el", "od dnia", "från och med"), no number.
 */
const RANGE_OPENING = /^(?:\p{L}[\p{L}.']*\s+){0,3}$/u;

/** A duration in brackets right after a period's end: "(36 months)", "(12 måneder)". */
const BRACKETED = /^\s*\(([^()]{1,40})\)/;

/**
 * Two dates joined by "to", "-", "bis", "au", ...: the start and end of a period, and the term in
 * months where a duration in brackets follows it ("1 October 2025 through 30 September 2028 (36
 * months)").
 */
export const dateRange = (
  text: string,
  ctx: FinderContext,
): { start: Parsed<string>; end: Parsed<string>; months?: Parsed<number> } | undefined => {
  const [first, second] = findDates(text, ctx.order, ctx.language);
  // The term's length may come first: "five years from and including 24 June 2025 to …".
  const opening = text.slice(0, first?.start ?? 0);
  if (!first || !second || !RANGE_OPENING.test(opening.slice(leadingDurationLength(opening)).trimStart()))
    return undefined;
  if (!RANGE_JOIN.test(text.slice(first.end, second.start))) return undefined;
  const bracketed = BRACKETED.exec(text.slice(second.end))?.[1];
  const months = bracketed === undefined ? undefined : parseMonths(bracketed, ctx.language);
  return { start: dateValue(first), end: dateValue(second), ...(months ? { months } : {}) };
};

/**
 * How far before an amount a total word may stand ("insgesamt", "a total of"), or after it ("in
 * total", "in aggregate"): after it, room for the vocabularies' longest ("complessivamente").
 */
const TOTAL_BEFORE = 40;
const TOTAL_AFTER = 18;

/**
 * Where a total word stands beside `amount`: before it, after the amount before it ("insgesamt
 * 9.600,00 €", "for total rent of $86,400.00"), or after it ("£84,000 in total"); undefined where
 * none does.
 */
const markedTotal = (
  text: string,
  amount: FoundAmount,
  previous: FoundAmount | undefined,
): 'before' | 'after' | undefined => {
  const { before, after } = around(text, amount, previous, TOTAL_BEFORE);
  if (TOTAL_WORDS.test(before)) return 'before';
  return TOTAL_WORDS.test(after) ? 'after' : undefined;
};

/**
 * The words beside `amount`: up to `reach` characters before it, but not past the amount before
 * it, and up to `reachAfter` right after it, but not past the next amount.
 */
export const around = (
  text: string,
  amount: FoundAmount,
  previous: FoundAmount | undefined,
  reach: number,
  next?: FoundAmount,
  reachAfter = TOTAL_AFTER,
): { before: string; after: string } => ({
  before: text.slice(Math.max(previous?.end ?? 0, amount.start - reach), amount.start),
  after: text.slice(amount.end, Math.min(next?.start ?? text.length, amount.end + reachAfter)),
});

/**
 * The money in a sentence of a contract: amounts with their currency, and those in "kr" in the
 * krona of the country whose registration the contract prints (`FinderContext.krona`).
 */
export const contractMoney = (ctx: FinderContext, text: string): FoundAmount[] =>
  findMoney(text, findDates(text)).map((a) =>
    !a.currency && ctx.krona && besideKrona(text, a) ? { ...a, currency: ctx.krona } : a,
  );

/** A sentence about the price and every amount in it. */
export interface PriceSentence {
  sentence: { text: string; start: number };
  amounts: readonly FoundAmount[];
}

/** Price sentences already read, per document: the value's finder and the fee check both read them. */
const PRICE_SENTENCES = new WeakMap<DocText, readonly PriceSentence[]>();

/** A clause's heading read as a sentence of its own: one to three words ("Charges.", "Fees and Payment."). */
const HEADING = /^\s*\p{L}[\p{L}'’-]*(?:\s+\p{L}[\p{L}'’-]*){0,2}\s*[.:]?\s*$/u;

/**
 * The sentences about the contract's price (a value word in it or in the clause heading right
 * before it: "3. Charges. The Customer shall pay £3,500 per month"; and none of insurance,
 * liability, penalties or service credits, whose amounts are not the contract's value), with their
 * amounts.
 */
export const priceSentences = (ctx: FinderContext): readonly PriceSentence[] => {
  const cached = PRICE_SENTENCES.get(ctx.doc);
  if (cached) return cached;
  const all = sentences(ctx.doc);
  const headedByValue = (i: number) => {
    const heading = all[i - 1]?.text ?? '';
    return HEADING.test(heading) && VALUE_WORDS.test(heading);
  };
  const out = all
    .filter((s, i) => (VALUE_WORDS.test(s.text) || headedByValue(i)) && !NOT_VALUE_WORDS.test(s.text))
    .map((sentence) => ({ sentence, amounts: contractMoney(ctx, sentence.text) }));
  PRICE_SENTENCES.set(ctx.doc, out);
  return out;
};

/** How far before an amount a period word may stand ("Die jährliche Wartungspauschale beträgt"). */
const PERIOD_BEFORE = 60;
/** How far after it: past a word or two of tax ("3 000,00 zł netto miesięcznie", "€300 excl. VAT per month"). */
const PERIOD_AFTER = 30;

/** The months a period word beside `amount` names: 1 for "per month", 3 for "quarterly", 12 for "annual"; else undefined. */
export const periodOf = (
  text: string,
  amount: FoundAmount,
  previous: FoundAmount | undefined,
  next: FoundAmount | undefined,
): number | undefined => {
  const { before, after } = around(text, amount, previous, PERIOD_BEFORE, next, PERIOD_AFTER);
  for (const near of [after, before]) {
    if (PER_MONTH.test(near)) return 1;
    if (PER_QUARTER.test(near)) return 3;
    if (PER_YEAR.test(near)) return 12;
  }
  return undefined;
};

/** How far before an amount a rate word may stand ("at an hourly rate of"), and after it ("per hour"). */
const RATE_BEFORE = 30;
const RATE_AFTER = 20;

/** Every total word of a text, for `matchAll`. */
const ALL_TOTAL_WORDS = new RegExp(TOTAL_WORDS.source, 'giu');

/** The text after the last total word in `text` ("… per day, up to a maximum of " gives " "). */
const afterTotalWord = (text: string): string => {
  const words = [...text.matchAll(ALL_TOTAL_WORDS)];
  const last = words.at(-1);
  return last ? text.slice(last.index + last[0].length) : text;
};

/**
 * Whether `amount` is a rate for an hour, a day or a unit of work ("$200 per hour", "Stundensatz
 * 120,00 €"): what the work costs by the unit, never the contract's total. Before an amount a total
 * word marks, a rate word before that word is the amount before's ("£1,200 per day, up to a
 * maximum of £90,000").
 */
const isUnitRate = (
  text: string,
  amount: FoundAmount,
  previous: FoundAmount | undefined,
  next: FoundAmount | undefined,
  markedBefore = false,
): boolean => {
  const { before, after } = around(text, amount, previous, RATE_BEFORE, next, RATE_AFTER);
  return PER_UNIT.test(markedBefore ? afterTotalWord(before) : before) || PER_UNIT.test(after);
};

/** How a price sentence's one amount that is a fee for a period is read (`periodOf`). */
export const PERIODIC_FEE = 'prose:periodic-fee';

/**
 * Sentences about the fees or price that state exactly one amount with a currency ("The fees
 * payable for the Services shall be EUR 54,700.00 in total.", "Die Gesamtvergütung beträgt
 * 48.000,00 EUR"), or several of which one alone is marked as the total ("£7,000 per month,
 * being £84,000 in total"). Sentences about insurance, liability, penalties or service credits name
 * amounts that are not the contract value.
 */
export const feeSentences = (ctx: FinderContext): Candidate<{ amount: string; currency: string }>[] => {
  const found: Candidate<{ amount: string; currency: string }>[] = [];
  for (const { sentence: s, amounts: all } of priceSentences(ctx)) {
    const amounts = all.filter((a) => a.currency && !a.amount.startsWith('-'));
    // Of two amounts a total word stands between ("monthly rent of $2,400.00, for total rent of
    // $86,400.00"), the word is the second's.
    const sides = amounts.map((a, i) => markedTotal(s.text, a, amounts[i - 1]));
    const beside = amounts.filter((_, i) => sides[i] !== undefined);
    const marked =
      amounts.length <= 1
        ? amounts
        : beside.length > 1
          ? amounts.filter((_, i) => sides[i] === 'before')
          : beside;
    const [only] = marked;
    if (marked.length !== 1 || !only?.currency) continue;
    const at = amounts.indexOf(only);
    if (isUnitRate(s.text, only, amounts[at - 1], amounts[at + 1], sides[at] === 'before')) continue;
    // A fee for a period that no total word marks ("Die monatliche Miete beträgt 2.400,00 EUR") is
    // the total only where the term is that one period, which the term's reading settles.
    const periodic =
      sides[at] === undefined && periodOf(s.text, only, amounts[at - 1], amounts[at + 1]) !== undefined;
    found.push(
      fromSentence(
        ctx.doc,
        { start: s.start + only.start },
        { value: { amount: only.amount, currency: only.currency }, certainty: only.certain ? 1 : 0.85 },
        0.86,
        periodic ? PERIODIC_FEE : 'prose:fee-sentence',
      ),
    );
  }
  return found;
};

/**
 * The law a sentence names, in any language, by the jurisdiction's English name: "Es gilt
 * deutsches Recht" and "das Recht der Bundesrepublik Deutschland" (Germany), "soumis au droit
 * français" (France), "Nederlands recht", "la legislación española", "la legge italiana".
 */
export const namedLaws = (ctx: FinderContext): Candidate<string>[] =>
  sentences(ctx.doc).flatMap((s) =>
    lawsNamed(s.text).map((law) =>
      fromSentence(
        ctx.doc,
        { start: s.start + law.index },
        { value: law.jurisdiction },
        0.88,
        'prose:law-named',
      ),
    ),
  );
