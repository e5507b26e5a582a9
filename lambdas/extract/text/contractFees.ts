import {
  arithmeticEvidence,
  decimalEquals,
  type Evidence,
  multiplyDecimals,
} from '../../shared/documents/index.js';
import type { Candidate } from '../candidates.js';
import { INSTALLMENT_WORD, NOT_VALUE_WORDS } from '../vocabulary/contractWords.js';
import type { FinderContext } from './context.js';
import { contractMoney, PERIODIC_FEE, periodOf, priceSentences } from './contractCues.js';
import type { FoundAmount } from './parseAmount.js';
import { fromSentence, sentences } from './prose.js';
import { wordsToNumber } from './values.js';

// What a contract's price is made of, which checks the total it states: a fee per period times
// the term ("£7,000 per month, being £84,000 in total"), or the parts it is paid in ("three
// instalments of £15,000").

/** An amount of money with its currency, as a contract's value is. */
type Money = { amount: string; currency: string };

/** A fee for a period: its amount, currency and how many months the period is. */
interface PeriodicFee {
  amount: string;
  currency: string;
  months: number;
}

/**
 * Fees stated per month or per year in the sentences about the price ("£7,000 per month", "Die
 * monatliche Vergütung beträgt 900,00 €", "an annual subscription fee of $36,000.00").
 */
const periodicFees = (ctx: FinderContext): PeriodicFee[] => {
  const found: PeriodicFee[] = [];
  for (const { sentence: s, amounts } of priceSentences(ctx)) {
    for (const [i, a] of amounts.entries()) {
      const months =
        a.currency && !a.amount.startsWith('-')
          ? periodOf(s.text, a, amounts[i - 1], amounts[i + 1])
          : undefined;
      if (months && a.currency) found.push({ amount: a.amount, currency: a.currency, months });
    }
  }
  return found;
};

/** How the check's detail names a fee's period. */
const PERIOD_NAMES: Readonly<Record<number, string>> = { 1: 'a month', 3: 'a quarter', 12: 'a year' };

/**
 * The check a stated total gets from a fee per period and the term: "£7,000 per month, being
 * £84,000 in total" over 12 months. Undefined unless the fee times the number of whole periods in
 * the term (two or more) is the total to the cent.
 */
const feeTimesTerm = (
  total: { amount: string; currency: string },
  fees: readonly PeriodicFee[],
  termMonths: number,
): string | undefined => {
  for (const fee of fees) {
    const periods = termMonths / fee.months;
    if (fee.currency !== total.currency || !Number.isInteger(periods) || periods < 2) continue;
    if (decimalEquals(multiplyDecimals(fee.amount, String(periods)), total.amount))
      return `${fee.currency} ${fee.amount} ${PERIOD_NAMES[fee.months] ?? `per ${fee.months} months`} x ${periods} = ${total.amount}`;
  }
  return undefined;
};

/** The evidence a check gives an amount, or none. */
type Check = (value: Money) => Evidence | undefined;

/**
 * The amounts that `check` finds made by the price's make-up, in any sentence not about
 * insurance, liability or penalties, as total candidates with the arithmetic as their evidence.
 */
const madeTotals = (ctx: FinderContext, check: Check, via: string): Candidate<Money>[] => {
  const found: Candidate<Money>[] = [];
  for (const s of sentences(ctx.doc)) {
    if (NOT_VALUE_WORDS.test(s.text)) continue;
    for (const a of contractMoney(ctx, s.text)) {
      if (!a.currency || a.amount.startsWith('-')) continue;
      const value = { amount: a.amount, currency: a.currency };
      const evidence = check(value);
      if (!evidence) continue;
      const read = fromSentence(
        ctx.doc,
        { start: s.start + a.start },
        { value, certainty: a.certain ? 1 : 0.85 },
        0.86,
        via,
      );
      found.push({ ...read, evidence: [evidence] });
    }
  }
  return found;
};

/**
 * Amounts that a fee per period times the term makes: "Die jährliche Wartungspauschale beträgt
 * 4.800,00 € netto; für die gesamte Laufzeit somit 14.400,00 € netto" over 36 months. The product
 * printed is the total whatever words stand beside it (here none Docket knows, and a ";" between
 * the two).
 */
const feeProducts = (
  ctx: FinderContext,
  fees: readonly PeriodicFee[],
  termMonths: number,
): Candidate<Money>[] =>
  madeTotals(
    ctx,
    (value) => {
      const detail = feeTimesTerm(value, fees, termMonths);
      return detail ? feeTermEvidence(detail) : undefined;
    },
    'prose:fee-times-term',
  );

/** The evidence a fee times the term gives the total it makes. */
const feeTermEvidence = (detail: string) => arithmeticEvidence(`fee x term: ${detail}`);

/** A price paid in parts: how many, and what each part is. */
interface Instalments {
  count: number;
  amount: string;
  currency: string;
}

/** Words for a payment in parts, any language: "instalments", "Raten", "versements", "mensualités". */
const INSTALLMENTS = new RegExp(INSTALLMENT_WORD, 'giu');

/** How far after its word a part's amount may stand: past "of", "zu je", "von jeweils", "d'un montant de". */
const AMOUNT_AFTER = 30;

/** A count in a word before the instalments: "3", "(3)" after its words, "three", "twenty-four", "drei". */
const countOf = (token: string, language: string | undefined): number | undefined => {
  const digits = /^\(?(\d{1,3})\)?$/.exec(token);
  return digits ? Number(digits[1]) : wordsToNumber(token, language);
};

/**
 * The parts a sentence splits a price into: a count right before an instalment word, or before
 * the one word that describes them ("three equal instalments", "12 monthly instalments", "in drei
 * gleichen Raten"), and the first amount right after it ("of £15,000", "zu je 15.000 €", "de 400
 * €"). Two parts at least; sentences about insurance, liability or penalties name none.
 */
const instalmentPlans = (ctx: FinderContext): Instalments[] => {
  const found: Instalments[] = [];
  for (const s of sentences(ctx.doc)) {
    if (NOT_VALUE_WORDS.test(s.text)) continue;
    let money: FoundAmount[] | undefined;
    for (const word of s.text.matchAll(INSTALLMENTS)) {
      const tokens = s.text
        .slice(Math.max(0, word.index - 40), word.index)
        .trim()
        .split(/\s+/);
      const count = [tokens.at(-1), tokens.at(-2)]
        .map((t) => (t === undefined ? undefined : countOf(t, ctx.language)))
        .find((n) => n !== undefined);
      if (count === undefined || count < 2) continue;
      const end = word.index + word[0].length;
      // The sentence's money is read once, and only in a sentence with a count of parts.
      money ??= contractMoney(ctx, s.text);
      const part = money.find((a) => a.start >= end);
      if (!part?.currency || part.start - end > AMOUNT_AFTER || part.amount.startsWith('-')) continue;
      found.push({ count, amount: part.amount, currency: part.currency });
    }
  }
  return found;
};

/**
 * The evidence a price paid in parts gives the total it makes ("three instalments of £15,000"
 * for "total fees of £45,000"); undefined where no plan's parts add up to `total` to the cent.
 */
const instalmentsEvidence = (total: { amount: string; currency: string }, plans: readonly Instalments[]) => {
  const plan = plans.find(
    (p) =>
      p.currency === total.currency &&
      decimalEquals(multiplyDecimals(p.amount, String(p.count)), total.amount),
  );
  return plan
    ? arithmeticEvidence(`instalments: ${plan.count} x ${plan.currency} ${plan.amount} = ${total.amount}`)
    : undefined;
};

/**
 * Amounts that the parts a price is paid in add up to: "Die Gesamtvergütung beträgt 45.000,00 €,
 * zahlbar in drei Raten zu je 15.000,00 €" names two amounts and no total word, and the one the
 * parts make is the total.
 */
const instalmentProducts = (ctx: FinderContext, plans: readonly Instalments[]): Candidate<Money>[] =>
  plans.length === 0
    ? []
    : madeTotals(ctx, (value) => instalmentsEvidence(value, plans), 'prose:instalments-product');

/** Whether `value` is one part of a plan: a part is no candidate for the total. */
const isInstalment = (value: { amount: string; currency: string }, plans: readonly Instalments[]): boolean =>
  plans.some((p) => p.currency === value.currency && decimalEquals(p.amount, value.amount));

/**
 * The total's candidates with the checks the price's make-up gives them: a stated total that a
 * fee per period times the term, or the parts it is paid in, add up to says so; an amount either
 * makes is a total candidate itself, and the fee or part it multiplies is then none. A fee for a
 * period that a price sentence states alone is a candidate only where the term is that period.
 */
export const checkedTotals = (
  ctx: FinderContext,
  totals: readonly Candidate<Money>[],
  termMonths: number | undefined,
): Candidate<Money>[] => {
  let checked = [...totals];
  const plans = instalmentPlans(ctx);
  for (const candidate of checked) {
    const parts = instalmentsEvidence(candidate.value, plans);
    if (parts) candidate.evidence = [...(candidate.evidence ?? []), parts];
  }
  const paidInParts = instalmentProducts(ctx, plans);
  if (paidInParts.length > 0)
    checked = [...checked.filter((c) => !isInstalment(c.value, plans)), ...paidInParts];
  const fees = periodicFees(ctx);
  // A fee for a period is no total where the term is more periods, or unknown: "Die monatliche
  // Nettokaltmiete beträgt 2.400,00 EUR" in a five-year lease is a month's rent. An annual fee
  // for a term of one year is the whole price, and stays.
  const feeOnly = (c: Candidate<Money>) =>
    c.via === PERIODIC_FEE &&
    fees.some(
      (fee) =>
        fee.months !== termMonths &&
        fee.currency === c.value.currency &&
        decimalEquals(fee.amount, c.value.amount),
    );
  checked = checked.filter((c) => !feeOnly(c));
  if (termMonths === undefined || fees.length === 0) return checked;
  for (const candidate of checked) {
    const detail = feeTimesTerm(candidate.value, fees, termMonths);
    if (detail) candidate.evidence = [...(candidate.evidence ?? []), feeTermEvidence(detail)];
  }
  const products = feeProducts(ctx, fees, termMonths);
  if (products.length === 0) return checked;
  const isFee = (value: Money) =>
    fees.some((fee) => fee.currency === value.currency && decimalEquals(fee.amount, value.amount));
  return [...checked.filter((c) => !isFee(c.value)), ...products];
};
