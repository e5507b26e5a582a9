import type { Candidate } from '../candidates.js';
import {
  contractCue,
  contractLabels,
  NO_RENEWAL,
  NOTICE_PERIOD_WORDS,
  RENEWS,
  TERMINATION_WORDS,
} from '../vocabulary/contractWords.js';
import type { FinderContext } from './context.js';
import { findLabelled, type Parsed } from './labelled.js';
import { fromSentence, sentences } from './prose.js';
import { NUMBER_PHRASE, numberFromGroups, parseDays, parseYesNo } from './values.js';

/**
 * How a contract ends: whether it renews by itself, and the notice a party must give to end it or
 * stop a renewal. Read from a form's labels and from the clauses' sentences in any language.
 */

/** A number of days in an English sentence ("thirty (30) days"), every one of them. */
const DAYS_COUNT = new RegExp(`${NUMBER_PHRASE}\\s+days`, 'igu');

/**
 * Weeks or months of notice in an English sentence, with the word "notice" a word or two after
 * them ("three months' written notice", "4 weeks' notice"): a count of months alone may be the
 * term or a deadline ("within 12 months of the Effective Date").
 */
const NOTICE_IN_WEEKS_OR_MONTHS = new RegExp(
  `${NUMBER_PHRASE}\\s+(?:weeks|months)['’]?\\s+(?:[\\p{L}-]+\\s+){0,2}notice\\b`,
  'iu',
);

/** What follows a count of days that is the notice: "' written notice", " prior notice", " notice". */
const DAYS_BEFORE_NOTICE = /^['’]?\s+(?:[\p{L}-]+\s+){0,2}notice\b/iu;

/** Whether the contract renews by itself: a label, or a sentence that says it renews or does not. */
export const autoRenewalCandidates = (ctx: FinderContext): Candidate<boolean>[] => {
  const found = findLabelled(ctx.doc, contractLabels('renewal'), parseYesNo, { via: 'label:renewal' });
  for (const s of sentences(ctx.doc)) {
    if (!/renew/i.test(s.text)) continue;
    if (
      /\b(?:not|no|never)\b[^.]{0,40}\brenew|\brenew\w*\s+(?:\w+\s+)?not\b|no\s+automatic\s+renewal/i.test(
        s.text,
      )
    ) {
      found.push(fromSentence(ctx.doc, s, { value: false }, 0.9, 'prose:no-renewal'));
    } else if (/automatically\s+renew|renew\w*\s+automatically|auto-?renew/i.test(s.text)) {
      found.push(fromSentence(ctx.doc, s, { value: true }, 0.9, 'prose:renewal'));
    }
  }
  for (const s of sentences(ctx.doc)) {
    if (NO_RENEWAL.test(s.text))
      found.push(fromSentence(ctx.doc, s, { value: false }, 0.9, 'prose:no-renewal'));
    else if (RENEWS.test(s.text)) found.push(fromSentence(ctx.doc, s, { value: true }, 0.9, 'prose:renewal'));
  }
  return found;
};

/**
 * A sentence about ending the contract at will: for convenience, without cause, by not renewing,
 * or by either party with no breach in sight. "Either party may terminate upon ninety (90) days
 * prior written notice" gives the notice period; "if the breach is not cured within 30 days after
 * notice" gives a cure period, not it.
 */
const endsAtWill = (text: string): boolean =>
  /convenience|at\s+any\s+time|non-renewal|without\s+cause/i.test(text) ||
  (/either\s+party/i.test(text) && !/breach|cure|insolven|bankrupt/i.test(text));

/**
 * The notice an English sentence states: its first count of days ("thirty (30) days"), else weeks
 * or months before the word "notice", in days as every language's notice is read (a month is 30).
 */
const englishNotice = (
  text: string,
  language: string | undefined,
): { at: number; days: Parsed<number> } | undefined => {
  // The days right before "notice" first: a renewal's own period may come earlier ("renews for
  // periods of 30 days unless either party gives 10 days' notice").
  const counts = [...text.matchAll(DAYS_COUNT)];
  for (const mm of [
    ...counts.filter((m) => DAYS_BEFORE_NOTICE.test(text.slice(m.index + m[0].length))),
    ...counts,
  ]) {
    const count = numberFromGroups(mm[1], mm[2], mm[3], mm[4], language);
    if (count !== undefined) return { at: mm.index, days: { value: count } };
  }
  const longer = NOTICE_IN_WEEKS_OR_MONTHS.exec(text);
  const days = longer ? parseDays(longer[0], language) : undefined;
  return longer && days ? { at: longer.index, days } : undefined;
};

/** The days of notice needed to end the contract or stop its renewal. */
export const noticeDaysCandidates = (ctx: FinderContext): Candidate<number>[] => {
  const days = (text: string) => parseDays(text, ctx.language);
  const found = findLabelled(ctx.doc, contractLabels('noticePeriod'), days, { via: 'label:notice' });
  for (const s of sentences(ctx.doc)) {
    // Notice to stop a renewal counts as notice to end the contract: "renews automatically … unless
    // either party gives not less than 90 days' written notice".
    if (!/notice|\bnotif(?:y|ies|ication)\b/i.test(s.text) || !/terminat|renew|cancel/i.test(s.text))
      continue;
    if (!endsAtWill(s.text)) continue;
    const notice = englishNotice(s.text, ctx.language);
    if (notice)
      found.push(fromSentence(ctx.doc, { start: s.start + notice.at }, notice.days, 0.88, 'prose:notice'));
  }
  // Other languages: a sentence about ending the contract, the days after its notice cue
  // ("mit einer Frist von 3 Monaten … gekündigt", "résiliation moyennant un préavis de 90 jours").
  const cue = contractCue('notice');
  for (const s of sentences(ctx.doc)) {
    if (!TERMINATION_WORDS.test(s.text)) continue;
    const at = cue.exec(s.text);
    const notice = at && days(s.text.slice(at.index + at[0].length));
    if (at && notice)
      found.push(fromSentence(ctx.doc, { start: s.start + at.index }, notice, 0.88, 'prose:notice-cue'));
    else {
      const before = countBeforeNoticeWord(s.text, ctx.language);
      if (before)
        found.push(
          fromSentence(ctx.doc, { start: s.start + before.at }, before.days, 0.88, 'prose:notice-word'),
        );
    }
  }
  return found;
};

/** A count and its unit right before the notice's own word: "med 90 dagars uppsägningstid". */
const COUNT_BEFORE = /\d{1,3}\s+\p{L}+\s+$/u;

/**
 * The days a sentence counts right before its notice-period word, as the Nordic languages write
 * it ("Avtalet kan sägas upp med 90 dagars uppsägningstid", "med 3 måneders oppsigelsestid").
 */
const countBeforeNoticeWord = (text: string, language?: string) => {
  const word = NOTICE_PERIOD_WORDS.exec(text);
  if (!word) return undefined;
  const count = COUNT_BEFORE.exec(text.slice(0, word.index));
  const days = count && parseDays(count[0], language);
  return count && days ? { at: count.index, days } : undefined;
};
