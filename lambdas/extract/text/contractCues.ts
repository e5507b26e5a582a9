import type { Candidate } from '../candidates.js';
import { NOT_VALUE_WORDS, RANGE_JOIN, VALUE_WORDS } from '../vocabulary/contractWords.js';
import type { FinderContext } from './context.js';
import type { Parsed } from './labelled.js';
import { findMoney } from './parseAmount.js';
import { findDates } from './parseDate.js';
import { fromSentence, sentences } from './prose.js';
import { dateValue } from './values.js';

// Contract prose and form cues shared by the contract field finders.

/** The date that ends `text` (what a defined term like (the "Effective Date") follows). */
export const lastDateIn = (text: string, ctx: FinderContext) => {
  const dates = findDates(text, ctx.order);
  const last = dates[dates.length - 1];
  if (!last || text.slice(last.end).trim().length > 2) return undefined;
  return { parsed: dateValue(last), start: last.start };
};

/** A defined-term parenthesis naming a date: (the "Effective Date"). */
export const DATE_CUE = (name: string) =>
  new RegExp(`\\(\\s*(?:the\\s+)?"${name.replace(/ /g, '\\s+')}"\\s*\\)`, 'i');

/** Two dates joined by "to", "-", "bis", "au", ...: the start and end of a period. */
export const dateRange = (
  text: string,
  ctx: FinderContext,
): { start: Parsed<string>; end: Parsed<string> } | undefined => {
  const [first, second] = findDates(text, ctx.order);
  if (!first || !second || first.start > 6) return undefined;
  if (!RANGE_JOIN.test(text.slice(first.end, second.start))) return undefined;
  return { start: dateValue(first), end: dateValue(second) };
};

/**
 * Sentences about the fees or price that state exactly one amount with a currency ("The fees
 * payable for the Services shall be EUR 54,700.00 in total.", "Die Gesamtvergütung beträgt
 * 48.000,00 EUR"). Sentences about insurance, liability, penalties or service credits name
 * amounts that are not the contract value.
 */
export const feeSentences = (ctx: FinderContext): Candidate<{ amount: string; currency: string }>[] => {
  const found: Candidate<{ amount: string; currency: string }>[] = [];
  for (const s of sentences(ctx.doc)) {
    if (!VALUE_WORDS.test(s.text) || NOT_VALUE_WORDS.test(s.text)) continue;
    const amounts = findMoney(s.text, findDates(s.text)).filter(
      (a) => a.currency && !a.amount.startsWith('-'),
    );
    const [only] = amounts;
    if (amounts.length !== 1 || !only?.currency) continue;
    found.push(
      fromSentence(
        ctx.doc,
        { start: s.start + only.start },
        { value: { amount: only.amount, currency: only.currency }, certainty: only.certain ? 1 : 0.85 },
        0.86,
        'prose:fee-sentence',
      ),
    );
  }
  return found;
};
