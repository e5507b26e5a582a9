import type { Candidate } from '../candidates.js';
import type { FinderContext } from './context.js';
import type { Parsed } from './labelled.js';
import { findMoney } from './parseAmount.js';
import { findDates } from './parseDate.js';
import { fromSentence, sentences } from './prose.js';
import { cleanPartyName, dateValue, hasLegalForm, leadingName } from './values.js';

// Contract prose and form cues shared by the contract field finders.

/** Words contracts use for each party's role. */
export const ROLE_WORDS = {
  provider: /^(?:service provider|provider|supplier|vendor|contractor|consultant|licensor|seller|agency)$/i,
  customer: /^(?:customer|client|buyer|purchaser|licensee|company)$/i,
} as const;

/** Labels of the provider in a form. */
export const PROVIDER_LABELS =
  'service\\s+provider|provider|supplier|vendor|contractor|consultant|licensor|seller';
/** Labels of the customer in a form. */
export const CUSTOMER_LABELS = 'customer|client|buyer|purchaser|licensee|company';

/**
 * The latest party boundary before a defined term: "between", the "and" after the previous
 * party's role (`("Provider"), and`, `("Buyer"); and`), ";", ":", "(2)". An "and" elsewhere may be
 * inside a name ("Acme Research and Development Inc.", "incorporated in England and Wales"), so a
 * bare "and" (`PARTY_AND`) starts a party only where none of these does.
 */
const PARTY_START =
  /(?:\bbetween\s+|\)\s*[,;]?\s*and\s+|;\s*(?:and\s+)?|:\s*|\(\d\)\s*)(?!.*(?:\bbetween\s|\)\s*[,;]?\s*and\s|;|:|\(\d\)))/is;
const PARTY_AND = /\band\s+(?!.*\band\s)/is;

/** The last party number ("(1) ", "(2) ") before an unquoted role. */
const LISTED_PARTY = /\(\d\)\s*(?!.*\(\d\))/s;

/**
 * Parties introduced with a defined role in running text:
 * `... between Acme Corp., with offices at ... ("Provider"), and Globex Inc. ("Customer")`, or
 * listed with it: `(1) BRIGHT SOFTWARE LIMITED incorporated ... (Supplier).`
 */
export const definedParties = (ctx: FinderContext, role: keyof typeof ROLE_WORDS): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  // The role quoted ("Provider") or, as English contracts list their parties, not: "(1) BRIGHT
  // SOFTWARE LIMITED incorporated ... (Supplier)".
  const re =
    /\((?:the\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?("?)([A-Za-z][A-Za-z\s]{1,30})\1\)/g;
  const { flat } = ctx.doc;
  for (let m = re.exec(flat); m; m = re.exec(flat)) {
    // A defined term may wrap onto the next line ("Service\nProvider").
    if (!ROLE_WORDS[role].test((m[2] as string).replace(/\s+/g, ' ').trim())) continue;
    const from = Math.max(0, m.index - 300);
    const before = flat.slice(from, m.index).replace(/\n/g, ' ');
    // An unquoted role names a party of a numbered list only: its name follows the number.
    const boundary = m[1] ? (PARTY_START.exec(before) ?? PARTY_AND.exec(before)) : LISTED_PARTY.exec(before);
    if (!boundary) continue;
    const segmentStart = boundary.index + boundary[0].length;
    const segment = before.slice(segmentStart);
    const name = cleanPartyName(segment) ?? cleanPartyName(leadingName(segment));
    if (!name) continue;
    found.push(
      ...beforeCueAt(
        ctx,
        from + segmentStart,
        { value: name, certainty: hasLegalForm(name) ? 1 : 0.9 },
        0.92,
        'prose:defined-party',
      ),
    );
  }
  return found;
};

const beforeCueAt = (
  ctx: FinderContext,
  offset: number,
  parsed: Parsed<string>,
  confidence: number,
  via: string,
) => [fromSentence(ctx.doc, { start: offset }, parsed, confidence, via)];

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

/** Labels of a term written as a range ("Term: 1 March 2025 to 28 February 2027"). */
export const TERM_RANGE_LABELS = 'term|contract\\s+period|period|duration|contract\\s+term|initial\\s+term';

/** Two dates joined by "to", "-", "through" or "until": the start and end of a period. */
export const dateRange = (
  text: string,
  ctx: FinderContext,
): { start: Parsed<string>; end: Parsed<string> } | undefined => {
  const [first, second] = findDates(text, ctx.order);
  if (!first || !second || first.start > 6) return undefined;
  if (!/^\s*(?:-|to|through|until|till)\s*$/i.test(text.slice(first.end, second.start))) return undefined;
  return { start: dateValue(first), end: dateValue(second) };
};

/**
 * Sentences about the fees or price that state exactly one amount with a currency ("The fees
 * payable for the Services shall be EUR 54,700.00 in total."). Sentences about insurance,
 * liability or service credits name amounts that are not the contract value.
 */
export const feeSentences = (ctx: FinderContext): Candidate<{ amount: string; currency: string }>[] => {
  const found: Candidate<{ amount: string; currency: string }>[] = [];
  for (const s of sentences(ctx.doc)) {
    if (!/\b(?:fees?|price|contract\s+sum|contract\s+value|consideration|compensation)\b/i.test(s.text))
      continue;
    if (
      /\b(?:insurance|insured|liabilit\w*|per\s+occurrence|indemn\w*|penalt\w*|service\s+credits?)\b/i.test(
        s.text,
      )
    )
      continue;
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
