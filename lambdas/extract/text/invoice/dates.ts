import { isoPlusDays, paymentTermsDays } from '../../../shared/documents/index.js';
import type { Candidate } from '../../candidates.js';
import {
  CASH_DISCOUNT,
  DEADLINE_BEFORE,
  DEBIT_WORD,
  NET_TERMS,
  PAYMENT_WORD,
  TITLE_DATE_LINK_PATTERN,
} from '../../vocabulary/index.js';
import { endingAmount } from '../amountColumn.js';
import type { FinderContext } from '../context.js';
import { findLabelled } from '../labelled.js';
import { type FoundDate, findDates, TIME_OF_DAY } from '../parseDate.js';
import type { DocLine } from '../textIndex.js';
import { dateAfterPlace, dateValue, parseDateAt, parseNumberedId, statesPaymentTerms } from '../values.js';
import { clausesOf } from './paymentTerms.js';
import { titleCandidates } from './title.js';

/** The invoice's issue and due dates' candidates. */
export interface DateCandidates {
  invoiceDate: Candidate<string>[];
  dueDate: Candidate<string>[];
}

/** A time of day alone: "20:41", "08:12:05". */
const CLOCK = new RegExp(`^${TIME_OF_DAY}$`);

/** A time of day with its AM or PM, if any: "16:21", "7:42 PM". */
const TIME_AND_MERIDIEM = `${TIME_OF_DAY}(?:\\s?[AaPp]\\.?[Mm]\\.?)?`;

/** A date and then a time of day, all of a cell: "28.05.2025 16:21", "05/30/2025 7:42 PM". */
const STAMP = new RegExp(`^\\d{1,4}[./-]\\d{1,2}[./-]\\d{2,4},?\\s+${TIME_AND_MERIDIEM}$`);

/** What may follow a date in its cell: nothing, or its time of day. */
const TIME_AFTER = new RegExp(`^(?:\\s+${TIME_AND_MERIDIEM})?$`);

/** Lines from the top of the first page where a letter's date stands. */
const LETTER_DATE_LINES = 20;

/**
 * Dates alone in their cell at the top of the first page: a letter's place and date (0.8, as
 * sure as a label), or a date with nothing before it (0.55, under the doubt floor: a receipt's
 * "12.03.2024 08:14", a date under the letterhead, but possibly another date), which a reviewer
 * confirms and which contradicts no other reading.
 */
const topDates = (ctx: FinderContext): Candidate<string>[] => {
  const page = ctx.doc.lines[0]?.page;
  const found: Candidate<string>[] = [];
  for (const line of ctx.doc.lines) {
    if (line.page !== page || line.furniture) continue;
    // A receipt's date and time open its line, whatever follows but an amount ("11.04.2025  20:41
    // Tisch 7"); a row that ends in one is an item's or a call's.
    const itemRow = endingAmount(line) !== undefined;
    const stamped = CLOCK.test(line.cells[1]?.text ?? '') && !itemRow;
    for (const [ci, cell] of line.cells.entries()) {
      // A date and its time of day in a cell of their own are a receipt's stamp wherever the
      // receipt prints it, also beside its number at the foot ("Beleg-Nr. 8842   28.05.2025 16:21").
      const timed = !itemRow && STAMP.test(cell.text);
      if (line.line > LETTER_DATE_LINES && !timed) continue;
      // Without a place, a date stands alone on its line: beside other cells it is a label's
      // value ("Due date:   05/04/2024", "Lieferdatum  12.03.2024") or an item's date.
      const alone = line.cells.length === 1 || (ci === 0 && stamped) || timed;
      const read = dateAfterPlace(cell.text, ctx.order, !alone, ctx.language);
      // The date is all the cell holds after its place, or a receipt's time follows it.
      if (!read || !TIME_AFTER.test(read.after.trimEnd())) continue;
      const { place, date } = read;
      const parsed = dateValue(date);
      found.push({
        value: parsed.value,
        confidence: (place ? 0.8 : 0.55) * (parsed.certainty ?? 1),
        reading: 'position',
        line,
        via: place ? 'letter-date' : 'top-date',
        ...(parsed.alternatives ? { alternatives: parsed.alternatives } : {}),
      });
    }
  }
  return found;
};

/**
 * A date of supply ("Lieferdatum", "Tax point", "Date of supply") as the invoice date where nothing
 * else dates the invoice: often the same day, but not always, so it stays under the doubt floor
 * (0.55, as a bare date at the top). Only where nothing else dates the invoice: beside an invoice
 * date, an equal supply date is no second reading of it.
 */
const supplyDates = (ctx: FinderContext, dateAt: ReturnType<typeof parseDateAt>): Candidate<string>[] =>
  findLabelled(ctx.doc, 'deliveryDate', dateAt, {
    confidence: 0.55,
    midCell: 'colon',
    via: 'label:supply-date',
  });

/** `found`, or where it is empty, what `fallback` finds. */
const orElse = <T>(found: T[], fallback: () => T[]): T[] => (found.length > 0 ? found : fallback());

/** A rate in a clause: an offer of a discount states it ("mit 2 % Skonto", "less 2% discount"). */
const RATE = /\d\s?%/;

/** A discount word on `line` or the lines just above and below it. */
const discountNear = (ctx: FinderContext, line: DocLine): boolean =>
  [-1, 0, 1].some((d) => {
    const near = ctx.doc.lines[line.index + d];
    return near !== undefined && near.page === line.page && CASH_DISCOUNT.test(near.text);
  });

/** A number, then a word that joins it to its date ("du", "vom", "del", "dated"). */
const NUMBER_THEN_LINK = new RegExp(`^(\\S+)\\s+${TITLE_DATE_LINK_PATTERN}\\s*:?\\s*`, 'iu');

/**
 * The date a labelled invoice number is joined to: "N° de facture : 10025774411 du 05/03/2025",
 * "Rechnungsnummer 4471 vom 05.06.2025", as a title's number is ("Facture N° 123 du ...").
 */
const numberedDates = (ctx: FinderContext): Candidate<string>[] =>
  findLabelled(
    ctx.doc,
    'invoiceNumber',
    (rest) => {
      const link = NUMBER_THEN_LINK.exec(rest);
      if (!link || !parseNumberedId(link[1] as string)) return undefined;
      const date = findDates(rest.slice(link[0].length), ctx.order, ctx.language)[0];
      return date?.start === 0 ? dateValue(date) : undefined;
    },
    { confidence: 0.85, via: 'label:invoice-number:dated' },
  );

/** How sure a date a sentence asks payment by is the due date: prose, under the doubt floor. */
const PAY_BY_CONFIDENCE = 0.75;

/**
 * Text that a payment deadline follows: a deadline word ("bis zum", "by"), or terms and a colon
 * ("Payment due within 30 days of invoice date: 19 June 2025"), the day they end on.
 */
const endsInDeadline = (before: string): boolean =>
  DEADLINE_BEFORE.test(before) || (/:\s*$/.test(before) && statesPaymentTerms(before));

/**
 * A clause that opens with a deadline word and then a date: " soit le 14.04.2025.", or with an
 * abbreviation that says "that is" first (" d.h. bis 3.7.2025", " i.e. by 3 July 2025"). A word
 * before it says what else is due then ("Lieferung bis zum 20.05.2024").
 */
const continuesWithDeadline = (clause: string): boolean => {
  const date = findDates(clause)[0];
  const deadline = date && DEADLINE_BEFORE.exec(clause.slice(0, date.start));
  return deadline ? THAT_IS.test(clause.slice(0, deadline.index)) : false;
};

/** Nothing, or letters each with its dot: an abbreviation ("d.h.", "d. h.", "i.e.", "d.w.z."), no word. */
const THAT_IS = /^[\s,;]*(?:\p{L}{1,3}\.\s?){0,3}\s*$/u;

/**
 * The dates of payment terms. Terms that offer a discount for paying early: "Zahlbar bis
 * 16.05.2024 mit 2 % Skonto, bis 05.06.2024 ohne Abzug": the first date is the discount's
 * deadline, which a due label before it ("Zahlbar bis") would read as the due date; the second, in
 * a clause that says the amount is paid in full, is the due date. Nothing where no discount is
 * offered: "net" and "netto" say many other things. And a sentence that asks for payment by a
 * date ("Bitte überweisen Sie den Betrag bis zum 27.05.2024"): the date right after its deadline
 * word is the due date, unless the clause offers a discount.
 */
const paymentTerms = (ctx: FinderContext) => {
  const deadlines = new Set<string>();
  const net: Candidate<string>[] = [];
  const payBy: Candidate<string>[] = [];
  let offered = false;
  const candidate = (date: FoundDate, line: DocLine, confidence: number, via: string): Candidate<string> => {
    const parsed = dateValue(date);
    return {
      value: parsed.value,
      confidence: confidence * (parsed.certainty ?? 1),
      line,
      via,
      ...(parsed.alternatives ? { alternatives: parsed.alternatives } : {}),
    };
  };
  for (const line of ctx.doc.lines) {
    let askedBefore = false;
    for (const clause of clausesOf(line)) {
      const discount = CASH_DISCOUNT.test(clause) && RATE.test(clause);
      offered ||= discount;
      const inFull = !discount && NET_TERMS.test(clause);
      // "Payable à 30 jours, soit le 14.04.2025": a clause that is a deadline word and its date
      // goes on from the clause before it that asks for payment.
      const goesOn: boolean = askedBefore && continuesWithDeadline(clause);
      const asked: boolean = !discount && (PAYMENT_WORD.test(clause) || goesOn);
      askedBefore = asked;
      const debited = !discount && DEBIT_WORD.test(clause);
      // Dates are looked for only in the clauses of payment terms: this runs on every line.
      if (!discount && !inFull && !asked && !debited) continue;
      const dates = findDates(clause, ctx.order, ctx.language);
      if (dates.length === 0) continue;
      if (discount) {
        for (const date of dates) deadlines.add(`${line.index} ${date.iso}`);
        continue;
      }
      if (inFull) net.push(candidate(dates[0] as FoundDate, line, 0.8, 'terms:net'));
      // Terms that offer a discount across lines ("Zahlbar bis 15.06.2018 mit 3%" over "Skonto,
      // netto bis 04.07.2018") may ask for the discounted payment by their first date: only the
      // clause that says "in full" then names the due date.
      if (asked && (inFull || !discountNear(ctx, line)))
        for (const date of dates.filter((d) => endsInDeadline(clause.slice(0, d.start))))
          payBy.push(candidate(date, line, PAY_BY_CONFIDENCE, 'terms:pay-by'));
      // "Der Betrag wird am 24.02.2025 von Ihrem Konto abgebucht", "We will collect £494.76 by
      // Direct Debit on or around 17 April 2025": the day the money is taken is when it is due.
      // Two dates in the clause say no one day.
      if (debited && !asked && dates.length === 1)
        payBy.push(candidate(dates[0] as FoundDate, line, PAY_BY_CONFIDENCE, 'terms:debit'));
    }
  }
  return {
    /** Whether a due date read at `line` is a discount's deadline printed there. */
    isDeadline: (c: Candidate<string>) => deadlines.has(`${c.line.index} ${c.value}`),
    net: offered ? net : [],
    payBy,
  };
};

/** The dates as the document's way of writing them (`ctx.order`) reads them. */
const datesIn = (ctx: FinderContext, titleDates: Candidate<string>[]): DateCandidates => {
  const dateAt = parseDateAt(ctx.order, ctx.language);
  const terms = paymentTerms(ctx);
  return {
    invoiceDate: orElse(
      [
        ...findLabelled(ctx.doc, 'invoiceDate', dateAt, {
          confidence: 0.9,
          weakConfidence: 0.75,
          midCell: 'colon',
          via: 'label:invoice-date',
        }),
        ...titleDates,
        ...numberedDates(ctx),
        ...topDates(ctx),
      ],
      () => supplyDates(ctx, dateAt),
    ),
    dueDate: [
      ...findLabelled(ctx.doc, 'dueDate', dateAt, {
        confidence: 0.9,
        midCell: 'colon',
        via: 'label:due',
      }).filter((c) => !terms.isDeadline(c)),
      ...terms.net,
      ...terms.payBy,
    ],
  };
};

const strongest = (candidates: readonly Candidate<string>[]): Candidate<string> | undefined =>
  candidates.reduce<Candidate<string> | undefined>(
    (best, c) => (best === undefined || c.confidence > best.confidence ? c : best),
    undefined,
  );

/** The dates as read with slash dates taken `order` round. */
const datesReadAs = (ctx: FinderContext, order: 'dmy' | 'mdy'): DateCandidates => {
  const settled = { ...ctx, order };
  return datesIn(settled, titleCandidates(settled).invoiceDate);
};

/** The strongest reading of each date, as the extraction would choose it. */
const issuedAndDue = (dates: DateCandidates): { issued?: string; due?: string } => ({
  issued: strongest(dates.invoiceDate)?.value,
  due: strongest(dates.dueDate)?.value,
});

/** Whether the due date falls on or after the invoice date; undefined when both are not stated. */
const dueFollowsIssue = (dates: DateCandidates): boolean | undefined => {
  const { issued, due } = issuedAndDue(dates);
  return issued !== undefined && due !== undefined ? due >= issued : undefined;
};

/**
 * The invoice and due dates. Where nothing else settles which way round the document writes slash
 * dates (no date with a day above 12, a language that writes both), its due date does: payment
 * falls due on or after the invoice is issued, so when only one way round puts the due date there,
 * that is the document's way ("Invoice Date: 03/04/2024", "Due Date: 04/03/2024" is month first:
 * 4 March, due 3 April). Where both ways do, the payment terms may ("Net 30"). Both dates then
 * read one way, as a document with an unambiguous date does. An order guessed from where the
 * parties are gives way to the due date too: an English invoice of a German firm's software may
 * print the month first ("Invoice Date: 03/06/2025", "Due Date: 04/05/2025").
 */
export const invoiceDates = (
  ctx: FinderContext,
  titleDates: Candidate<string>[],
  paymentTerms: readonly Candidate<string>[],
): DateCandidates => {
  if (ctx.order === 'dmy' || ctx.order === 'mdy') {
    if (!ctx.orderFromLocale) return datesIn(ctx, titleDates);
    const guessed = datesIn(ctx, titleDates);
    // The other way round is read only where the guess puts the due date before the issue.
    if (dueFollowsIssue(guessed) !== false) return guessed;
    const other = datesReadAs(ctx, ctx.order === 'dmy' ? 'mdy' : 'dmy');
    return dueFollowsIssue(other) === true ? other : guessed;
  }
  const dayFirst = datesReadAs(ctx, 'dmy');
  const monthFirst = datesReadAs(ctx, 'mdy');
  const dmy = dueFollowsIssue(dayFirst);
  const mdy = dueFollowsIssue(monthFirst);
  if (dmy === undefined || mdy === undefined) return datesIn(ctx, titleDates);
  if (dmy !== mdy) return dmy ? dayFirst : monthFirst;
  // Both ways round put the due date after the issue ("06/06/2024", due "07/06/2024"): the payment
  // terms settle it where only one way round makes the due date the issue date plus their days.
  const terms = strongest(paymentTerms);
  const days = terms ? paymentTermsDays(terms.value) : undefined;
  if (!dmy || days === undefined) return datesIn(ctx, titleDates);
  const dmyTerms = dueAfterDays(dayFirst, days);
  const mdyTerms = dueAfterDays(monthFirst, days);
  if (dmyTerms === mdyTerms) return datesIn(ctx, titleDates);
  return dmyTerms ? dayFirst : monthFirst;
};

/** Whether the dates' due date is their invoice date plus `days`. */
const dueAfterDays = (dates: DateCandidates, days: number): boolean => {
  const { issued, due } = issuedAndDue(dates);
  return issued !== undefined && due !== undefined && isoPlusDays(issued, days) === due;
};
