import type { ContractPlan } from './contractPlan.js';
import { formalDate, isAmbiguousStyle, type Locale, numberWords } from './formats.js';
import type { Party } from './parties.js';
import type { Prng } from './prng.js';
import { quoteTerm, spelled } from './writing.js';

/** What the clause wording of one contract depends on. */
export interface ClauseContext {
  rng: Prng;
  plan: ContractPlan;
  locale: Locale;
  provider: Party;
  customer: Party;
  /** How the contract names the provider and the customer ("Supplier", "Client"...). */
  pTerm: string;
  cTerm: string;
  title: string;
  /** A date and an amount as this document prints them. */
  date: (iso: string) => string;
  money: (amount: string) => string;
}

/**
 * The sentences of a contract's field clauses (term, fees, payment, law, renewal, termination)
 * and its preamble, each phrased one of several ways. Each call draws from the document's
 * random stream, so the layout (contractDoc.ts) calls them in a fixed order.
 */
export const contractClauses = (ctx: ClauseContext) => {
  const { rng, plan, locale, provider, customer, pTerm, cTerm, title, date, money } = ctx;
  const f = plan.fields;

  const termText = (): string => {
    const n = plan.termMonths;
    const duration =
      n % 12 === 0 && rng.chance(0.5)
        ? `${spelled(rng, n / 12, numberWords)} year${n === 12 ? '' : 's'}`
        : `${spelled(rng, n, numberWords)} months`;
    const start = f.effectiveDate ? 'the Effective Date' : 'the date of the last signature below';
    if (plan.termStyle === 'expiration' && plan.printedExpiration) {
      return rng.pick([
        `This Agreement commences on ${start} and shall remain in force until ${date(plan.printedExpiration)}, unless terminated earlier in accordance with its terms.`,
        `The term of this Agreement begins on ${start} and expires on ${date(plan.printedExpiration)}.`,
        `This Agreement shall continue in effect through ${date(plan.printedExpiration)} unless terminated earlier as provided herein.`,
        `This Agreement shall expire on ${date(plan.printedExpiration)}.`,
      ]);
    }
    if (plan.termStyle === 'months' || !plan.printedExpiration) {
      return rng.pick([
        `The initial term of this Agreement is ${duration} from ${start}.`,
        `This Agreement shall commence on ${start} and continue for a period of ${duration}.`,
        `The term of this Agreement shall be ${duration} commencing on ${start}.`,
      ]);
    }
    return `This Agreement commences on ${start} and continues for an initial term of ${duration}, ending on ${date(plan.printedExpiration)}.`;
  };

  const feesText = (): string | undefined => {
    if (!f.totalValue)
      return `The fees for the Services are set out in each statement of work agreed in writing by the parties.`;
    const amount = money(f.totalValue.amount);
    return rng.pick([
      `In consideration of the Services, ${cTerm} shall pay ${pTerm} a total fee of ${amount} (the ${quoteTerm(rng, 'Contract Value')}).`,
      `The total contract value is ${amount}, payable in instalments as invoiced by ${pTerm}.`,
      `The aggregate fees payable under this Agreement shall not exceed ${amount}.`,
      `${cTerm} agrees to pay ${pTerm} the total sum of ${amount} for the Services.`,
      `The fees payable for the Services shall be ${amount} in total.`,
      `${cTerm} will pay ${pTerm} a fixed price of ${amount} for the Services.`,
      `The Contract Sum is ${amount}, exclusive of applicable taxes.`,
    ]);
  };

  const paymentText = (): string | undefined => {
    if (!f.paymentTerms) return undefined;
    if (f.paymentTerms === 'Due on receipt')
      return rng.pick(['Invoices are due upon receipt.', 'All invoices are payable upon receipt.']);
    const days = Number(f.paymentTerms.slice(4));
    return rng.pick([
      `Invoices are payable within ${spelled(rng, days, numberWords)} days of the invoice date.`,
      `Payment terms are net ${days} days from receipt of a valid invoice.`,
      `${cTerm} shall pay each undisputed invoice within ${spelled(rng, days, numberWords)} days after receipt.`,
      `Payment is due ${spelled(rng, days, numberWords)} days after the invoice date.`,
      `Invoices shall be paid net ${days}.`,
    ]);
  };

  const lawText = (): string | undefined => {
    if (!f.governingLaw) return undefined;
    const place = locale.region === 'us' ? `the State of ${f.governingLaw}` : f.governingLaw;
    return rng.pick([
      `This Agreement shall be governed by and construed in accordance with the laws of ${place}.`,
      `This Agreement is governed by the laws of ${place}, without regard to its conflict of laws principles.`,
      `The laws of ${place} govern this Agreement and any dispute arising out of it.`,
      `This Agreement shall be construed under the laws of ${place}.`,
    ]);
  };

  const renewalText = (): string | undefined => {
    const notice = f.terminationNoticeDays;
    if (f.autoRenewal === true) {
      const tail =
        notice !== undefined && rng.chance(0.5)
          ? ` unless either party gives written notice of non-renewal at least ${spelled(rng, notice, numberWords)} days before the end of the then-current term`
          : '';
      return rng.pick([
        `Upon expiry of the initial term, this Agreement shall automatically renew for successive periods of twelve (12) months${tail}.`,
        `This Agreement will renew automatically for additional one-year terms${tail}.`,
        `Unless terminated earlier, this Agreement renews automatically for successive one-year periods${tail}.`,
      ]);
    }
    if (f.autoRenewal === false) {
      return rng.pick([
        'This Agreement shall not renew automatically; any extension requires a written amendment signed by both parties.',
        'There is no automatic renewal of this Agreement.',
        'This Agreement does not renew automatically.',
      ]);
    }
    return undefined;
  };

  const terminationText = (renewal: string | undefined): string | undefined => {
    const notice = f.terminationNoticeDays;
    if (notice === undefined || renewal?.includes('non-renewal')) return undefined;
    return rng.pick([
      `Either party may terminate this Agreement for convenience upon ${spelled(rng, notice, numberWords)} days\u2019 prior written notice to the other party.`,
      `Either party may terminate this Agreement at any time by giving not less than ${notice} days written notice.`,
    ]);
  };

  const preamble = (): string => {
    const role = (term: string) =>
      rng.pick([
        quoteTerm(rng, term),
        `the ${quoteTerm(rng, term)}`,
        `hereinafter referred to as the ${quoteTerm(rng, term)}`,
      ]);
    const pDesc = `${provider.printed}, with offices at ${provider.street}, ${provider.city} (${role(pTerm)})`;
    const cDesc = `${customer.printed}, with offices at ${customer.street}, ${customer.city} (${role(cTerm)})`;
    const eff = f.effectiveDate ? date(f.effectiveDate) : undefined;
    const first = rng.chance(0.3) ? [cDesc, pDesc] : [pDesc, cDesc];
    const agreement = `This ${title.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase())} (the ${quoteTerm(rng, 'Agreement')})`;
    if (!eff) return `${agreement} is entered into by and between ${first[0]} and ${first[1]}.`;
    return rng.pick([
      `${agreement} is entered into as of ${eff} (the ${quoteTerm(rng, 'Effective Date')}) by and between ${first[0]}, and ${first[1]}.`,
      `${agreement} is made and entered into effective ${eff} (the ${quoteTerm(rng, 'Effective Date')}) by and between ${first[0]} and ${first[1]}.`,
      `${agreement} is dated ${eff} and is made between ${first[0]}; and ${first[1]}. It takes effect on that date (the ${quoteTerm(rng, 'Effective Date')}).`,
      `THIS AGREEMENT is made on ${eff} BETWEEN: (1) ${first[0]}; and (2) ${first[1]}.`,
      // The formal "5th day of March" is not in the document's date style: where slash dates need
      // one of the printed dates to settle their order, it would hide that date.
      isAmbiguousStyle(locale.dateStyle)
        ? `${agreement} is made and entered into effective ${eff} by and between ${first[0]} and ${first[1]}.`
        : `${agreement} is effective as of the ${formalDate(f.effectiveDate as string)} (the ${quoteTerm(rng, 'Effective Date')}) and is made between ${first[0]} and ${first[1]}.`,
    ]);
  };

  return { termText, feesText, paymentText, lawText, renewalText, terminationText, preamble };
};
