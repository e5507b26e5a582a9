import { findAmounts } from './parseAmount.js';
import { type DayMonthOrder, findDates, inferDayMonthOrder } from './parseDate.js';
import type { DocText } from './textIndex.js';

/** What every field finder of one document shares. */
export interface FinderContext {
  doc: DocText;
  /** How the document writes slash dates, settled from its unambiguous ones. */
  order: DayMonthOrder;
  /** The currency most amounts carry, for amounts written without one. */
  currency?: string;
}

/** The currency written most often next to amounts in the document. */
const dominantCurrency = (doc: DocText): string | undefined => {
  const counts = new Map<string, number>();
  for (const line of doc.lines) {
    const dates = findDates(line.text);
    for (const amount of findAmounts(line.text, { bare: false })) {
      if (!amount.currency || dates.some((d) => amount.start < d.end && amount.end > d.start)) continue;
      counts.set(amount.currency, (counts.get(amount.currency) ?? 0) + 1);
    }
    const stated = /\b(?:currency|all amounts in|amounts in)\s*:?\s*([A-Z]{3})\b/i.exec(line.text);
    if (stated?.[1]) counts.set(stated[1].toUpperCase(), (counts.get(stated[1].toUpperCase()) ?? 0) + 5);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
};

/** Builds the shared context of a document. */
export const finderContext = (doc: DocText): FinderContext => {
  const currency = dominantCurrency(doc);
  return {
    doc,
    order: inferDayMonthOrder(doc.lines.map((l) => l.text).join('\n')),
    ...(currency ? { currency } : {}),
  };
};
