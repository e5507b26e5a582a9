import {
  type ContractFields,
  type FieldName,
  isCurrencyCode,
  termMonthsBetween,
} from '../../shared/documents/index.js';
import type { Candidate } from '../candidates.js';
import {
  BARE_CONTRACT_WORD,
  contractCue,
  contractLabels,
  PAYMENT_WORDS,
  ROLE_WORD,
  TERM_AFTER_DURATION,
} from '../vocabulary/contractWords.js';
import type { FinderContext } from './context.js';
import { feeSentences, lastDurationIn, namedLaws } from './contractCues.js';
import { effectiveDates, expirationDates, labelledRangeTerm } from './contractDates.js';
import { autoRenewalCandidates, noticeDaysCandidates } from './contractEnding.js';
import { checkedTotals } from './contractFees.js';
import { titleNumber } from './contractNumbers.js';
import { definedParties, otherParty } from './contractParties.js';
import { lastSignatures, placeDates } from './contractSigned.js';
import { findLabelled, type Parsed } from './labelled.js';
import { findMoney } from './parseAmount.js';
import { findDates } from './parseDate.js';
import { parseParty } from './partyNames.js';
import { afterCue, beforeCue, fromSentence, sentences } from './prose.js';
import {
  NUMBER_PHRASE,
  numberFromGroups,
  parseAmountAt,
  parseDateAt,
  parseId,
  parseLaw,
  parseMonths,
  parsePaymentTerms,
} from './values.js';

/** Words in brackets right after a label, which qualify it: "(3 years)", "(excl. VAT)", "(GBP)". */
const LABEL_QUALIFIER = /^\(([^()]*\p{L}[^()]*)\)\s*:?\s*/u;

/**
 * A labelled value past the words in brackets that qualify its label ("Total Contract Value (3
 * years) $129,600.00"), which are no part of it; a currency code there is the amount's
 * ("Contract value (GBP): 84,000.00").
 */
const pastQualifier = (text: string): string => {
  const qualifier = LABEL_QUALIFIER.exec(text);
  if (!qualifier) return text;
  const code = (qualifier[1] as string).trim();
  return `${isCurrencyCode(code) ? `${code} ` : ''}${text.slice(qualifier[0].length)}`;
};

/** "within 30 days", "payable thirty (30) days" in an English sentence about paying. */
const PAID_WITHIN_DAYS = new RegExp(`\\b(?:within|due|payable|paid)\\s+${NUMBER_PHRASE}\\s+days`, 'iu');

/**
 * The party a role label names: not a contract's title word ("RESELLER AGREEMENT", where the role
 * word opens the title) nor a role word ("SELLER    BUYER", the headings of two columns).
 */
const parseLabelledParty = (text: string) => {
  const parsed = parseParty(text);
  const word = parsed?.value.trim() ?? '';
  return parsed &&
    !BARE_CONTRACT_WORD.test(word) &&
    !ROLE_WORD.provider.test(word) &&
    !ROLE_WORD.customer.test(word)
    ? parsed
    : undefined;
};

/** The candidates a finder returns for one field. */
type Finder<K extends FieldName<'contract'>> = (
  ctx: FinderContext,
) => Candidate<NonNullable<ContractFields[K]>>[];

const finders: { [K in FieldName<'contract'>]: Finder<K> } = {
  contractNumber: (ctx) => [
    ...findLabelled(ctx.doc, contractLabels('contractNumber'), parseId, {
      midCell: 'loose',
      furniture: true,
      via: 'label:number',
    }),
    ...findLabelled(ctx.doc, contractLabels('reference'), parseId, {
      confidence: 0.88,
      midCell: 'loose',
      furniture: true,
      via: 'label:ref',
    }),
    ...titleNumber(ctx),
  ],
  provider: (ctx) => [
    ...findLabelled(ctx.doc, contractLabels('provider'), parseLabelledParty, {
      confidence: 0.93,
      below: true,
      via: 'label:provider',
    }),
    ...definedParties(ctx, 'provider'),
    ...otherParty(ctx, 'provider'),
  ],
  customer: (ctx) => [
    ...findLabelled(ctx.doc, contractLabels('customer'), parseLabelledParty, {
      confidence: 0.93,
      below: true,
      via: 'label:customer',
    }),
    ...definedParties(ctx, 'customer'),
    ...otherParty(ctx, 'customer'),
  ],
  effectiveDate: effectiveDates,
  expirationDate: expirationDates,
  termMonths: (ctx) => {
    const months = (text: string) => parseMonths(text, ctx.language);
    return [
      ...findLabelled(ctx.doc, contractLabels('term'), months, { via: 'label:term', numbered: true }),
      ...labelledRangeTerm(ctx),
      ...afterCue(ctx.doc, contractCue('term'), months, 0.9, 'prose:runs-for'),
      ...beforeCue(ctx.doc, TERM_AFTER_DURATION, (t) => lastDurationIn(t, months), 0.88, 'prose:term-after'),
      ...afterCue(
        ctx.doc,
        /\b(?:(?:(?:initial\s+)?term\s+of\s+this\s+(?:agreement|lease|contract)|(?:initial|lease|rental|contract|subscription|licen[cs]e)\s+term)\s+(?:is|shall\s+be|will\s+be)|initial\s+term\s+of|for\s+a\s+(?:period|term)\s+of|(?:this\s+(?:agreement|lease|contract|licen[cs]e)|the\s+(?:engagement|subscription|services?|licen[cs]e|lease))\b[^.]{0,80}?\b(?:continues?|runs?|remains?\s+in\s+(?:full\s+)?(?:force|effect))\s+for(?!\s+a\s+(?:period|term)\b))\s+/i,
        months,
        0.9,
        'prose:term',
      ),
    ];
  },
  totalValue: (ctx) => {
    const money = (p: Parsed<{ amount: string; currency?: string }> | undefined) =>
      p?.value.currency ? (p as Parsed<{ amount: string; currency: string }>) : undefined;
    const parse = (t: string) => money(parseAmountAt(ctx.currency)(t));
    const labelled = (t: string) => parse(pastQualifier(t));
    return [
      ...findLabelled(ctx.doc, contractLabels('totalValue'), labelled, { via: 'label:value' }),
      ...afterCue(
        ctx.doc,
        /\b(?:total|aggregate)\s+(?:contract\s+)?(?:fees?|sum|amount|value|price|consideration|compensation)\s+(?:(?:payable\s+)?under\s+this\s+agreement\s+|for\s+this\s+(?:agreement|sow|statement\s+of\s+work)\s+)?(?:of|is|are|shall\s+be|will\s+be|equal\s+to|shall\s+not\s+exceed)\s+/i,
        parse,
        0.9,
        'prose:total',
      ),
      ...afterCue(ctx.doc, /\bpay\s+(?:\w+\s+){0,3}the\s+(?:total\s+)?sum\s+of\s+/i, parse, 0.9, 'prose:sum'),
      ...feeSentences(ctx),
      // An amount the contract defines as its value, its price, or (a loan's principal, a sale's
      // price) what it lends or sells: "($250,000.00) (the "Loan")".
      ...beforeCue(
        ctx.doc,
        /\(\s*(?:the\s+)?"(?:contract\s+value|contract\s+price|total\s+value|fees|purchase\s+price|loan)"\s*\)/i,
        (t) => {
          const amounts = findMoney(t, findDates(t));
          const last = amounts[amounts.length - 1];
          const parsed =
            last && t.slice(last.end).trim().length <= 2 ? parse(t.slice(last.start)) : undefined;
          return parsed && last ? { parsed, start: last.start } : undefined;
        },
        0.95,
        'prose:defined-value',
      ),
    ];
  },
  paymentTerms: (ctx) => {
    const found = findLabelled(ctx.doc, contractLabels('paymentTerms'), parsePaymentTerms, {
      via: 'label:payment',
    });
    for (const s of sentences(ctx.doc)) {
      if (!PAYMENT_WORDS.test(s.text)) continue;
      if (/(?:due|payable)\s+(?:up)?on\s+receipt/i.test(s.text)) {
        found.push(fromSentence(ctx.doc, s, { value: 'Due on receipt' }, 0.88, 'prose:receipt'));
        continue;
      }
      const within = PAID_WITHIN_DAYS.exec(s.text);
      const net = /\bnet\s+(\d{1,3})\b/i.exec(s.text);
      const days = within
        ? numberFromGroups(within[1], within[2], within[3], within[4], ctx.language)
        : net
          ? Number(net[1])
          : undefined;
      if (days !== undefined && days <= 365) {
        found.push(
          fromSentence(
            ctx.doc,
            s,
            { value: days === 0 ? 'Due on receipt' : `Net ${days}` },
            0.88,
            'prose:within',
          ),
        );
        continue;
      }
      // Other languages: the terms as a form would state them, from a word of the sentence on
      // ("innerhalb von 30 Tagen", "à 30 jours", "binnen 30 dagen", "a 60 giorni").
      for (const word of s.text.matchAll(/(?<![\p{L}\p{N}])(?=[\p{L}\p{N}])/gu)) {
        const terms = parsePaymentTerms(s.text.slice(word.index));
        if (!terms) continue;
        found.push(fromSentence(ctx.doc, { start: s.start + word.index }, terms, 0.88, 'prose:terms'));
        break;
      }
    }
    return found;
  },
  governingLaw: (ctx) => [
    ...findLabelled(ctx.doc, contractLabels('governingLaw'), parseLaw),
    ...afterCue(
      ctx.doc,
      /\b(?:governed\s+by|construed\s+(?:under|in\s+accordance\s+with))(?:\s+and\s+(?:governed\s+by|construed\s+(?:under|in\s+accordance\s+with)))?\s+(?:the\s+)?laws?\s+of\s+/i,
      parseLaw,
      0.92,
      'prose:governed',
    ),
    ...afterCue(ctx.doc, /\bthe\s+laws\s+of\s+(?=[^.]{2,60}\s+govern)/i, parseLaw, 0.88, 'prose:laws-govern'),
    ...namedLaws(ctx),
  ],
  autoRenewal: autoRenewalCandidates,
  terminationNoticeDays: noticeDaysCandidates,
  signedDate: (ctx) => {
    const found = findLabelled(ctx.doc, contractLabels('signedDate'), parseDateAt(ctx.order, ctx.language), {
      confidence: 0.93,
      via: 'label:signed',
    });
    // "Date:" in a signature block (after "By:", "Name:" or "Title:" lines).
    const blockDates = findLabelled(ctx.doc, 'date|dated', parseDateAt(ctx.order, ctx.language), {
      confidence: 0.9,
      via: 'label:block-date',
    });
    // Side by side in the parties' signature blocks, the later date is the one that concluded it.
    const signing = blockDates.filter((c) => {
      const above = ctx.doc.lines.slice(Math.max(0, c.line.index - 5), c.line.index);
      return above.some((l) => /^(?:by|name|title|signature)\s*:/i.test(l.cells[0]?.text ?? ''));
    });
    found.push(...lastSignatures(signing));
    found.push(
      ...afterCue(
        ctx.doc,
        /\b(?:signed|executed)\b[^.;:]{0,80}?\s+on\s+(?=(?:the\s+)?\d|[A-Za-z]{3,9}\.?\s+\d)/i,
        parseDateAt(ctx.order, ctx.language),
        0.88,
        'prose:signed-on',
      ),
      ...placeDates(ctx),
    );
    return found;
  },
};

type ContractCandidates = { [K in FieldName<'contract'>]: Candidate<NonNullable<ContractFields[K]>>[] };

/** The strongest reading of a field, if any. */
const strongest = <V>(found: readonly Candidate<V>[]): V | undefined =>
  found.reduce<Candidate<V> | undefined>((a, b) => (!a || b.confidence > a.confidence ? b : a), undefined)
    ?.value;

/**
 * The term in months: as stated ("for a period of 24 months"), or between the effective and
 * expiration dates where they span whole months.
 */
const termOf = (found: ContractCandidates): number | undefined => {
  const stated = strongest(found.termMonths);
  if (stated !== undefined) return stated;
  const effective = strongest(found.effectiveDate);
  const expiration = strongest(found.expirationDate);
  return effective && expiration ? termMonthsBetween(effective, expiration) : undefined;
};

/**
 * Every contract field's candidates, the total's checked by what the price is made of (a fee per
 * period times the term, the parts it is paid in).
 */
export const contractCandidates = (ctx: FinderContext): ContractCandidates => {
  const found = Object.fromEntries(
    Object.entries(finders).map(([field, find]) => [field, (find as Finder<FieldName<'contract'>>)(ctx)]),
  ) as ContractCandidates;
  found.totalValue = checkedTotals(ctx, found.totalValue, termOf(found));
  return found;
};
