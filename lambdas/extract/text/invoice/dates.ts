import type { Candidate } from '../../candidates.js';
import type { FinderContext } from '../context.js';
import { findLabelled } from '../labelled.js';
import { parseDateAt } from '../values.js';
import { titleCandidates } from './title.js';

/** The invoice's issue and due dates' candidates. */
export interface DateCandidates {
  invoiceDate: Candidate<string>[];
  dueDate: Candidate<string>[];
}

/** The dates as the document's way of writing them (`ctx.order`) reads them. */
const datesIn = (ctx: FinderContext, titleDates: Candidate<string>[]): DateCandidates => {
  const dateAt = parseDateAt(ctx.order);
  return {
    invoiceDate: [
      ...findLabelled(ctx.doc, 'invoiceDate', dateAt, {
        confidence: 0.9,
        weakConfidence: 0.75,
        midCell: 'colon',
        via: 'label:invoice-date',
      }),
      ...titleDates,
    ],
    dueDate: findLabelled(ctx.doc, 'dueDate', dateAt, {
      confidence: 0.9,
      midCell: 'colon',
      via: 'label:due',
    }),
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

/** Whether the due date falls on or after the invoice date; undefined when both are not stated. */
const dueFollowsIssue = (dates: DateCandidates): boolean | undefined => {
  const issued = strongest(dates.invoiceDate);
  const due = strongest(dates.dueDate);
  return issued && due ? due.value >= issued.value : undefined;
};

/**
 * The invoice and due dates. Where nothing else settles which way round the document writes slash
 * dates (no date with a day above 12, a language that writes both), its due date does: payment
 * falls due on or after the invoice is issued, so when only one way round puts the due date there,
 * that is the document's way ("Invoice Date: 03/04/2024", "Due Date: 04/03/2024" is month first:
 * 4 March, due 3 April). Both dates then read one way, as a document with an unambiguous date does.
 */
export const invoiceDates = (ctx: FinderContext, titleDates: Candidate<string>[]): DateCandidates => {
  if (ctx.order === 'dmy' || ctx.order === 'mdy') return datesIn(ctx, titleDates);
  const dayFirst = datesReadAs(ctx, 'dmy');
  const monthFirst = datesReadAs(ctx, 'mdy');
  const dmy = dueFollowsIssue(dayFirst);
  const mdy = dueFollowsIssue(monthFirst);
  if (dmy === undefined || mdy === undefined || dmy === mdy) return datesIn(ctx, titleDates);
  return dmy ? dayFirst : monthFirst;
};
