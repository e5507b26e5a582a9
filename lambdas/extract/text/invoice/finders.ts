import { type FieldName, type InvoiceFields, isCurrencyCode } from '../../../shared/documents/index.js';
import type { Candidate } from '../../candidates.js';
import type { FinderContext } from '../context.js';
import { findLabelled } from '../labelled.js';
import { findItemTable, type ItemTable } from '../lineItems.js';
import { parseDateAt, parseId, parsePaymentTerms } from '../values.js';
import { labelledAmounts } from './amounts.js';
import { ibanCandidates, vatIdCandidates } from './identifiers.js';
import { partyCandidates } from './parties.js';
import { titleCandidates } from './title.js';
import { resolveTotals } from './totals.js';

/** Every invoice field's candidates. */
export type InvoiceCandidates = { [K in FieldName<'invoice'>]: Candidate<NonNullable<InvoiceFields[K]>>[] };

/** A three-letter code or a symbol stated as the currency ("Rechnungswährung : EUR", "Devise : €"). */
const currencyValue = (text: string) => {
  const code = /^([A-Z]{3})\b/.exec(text.trim())?.[1];
  if (code && isCurrencyCode(code)) return { value: code };
  if (/^€|^euro\b/i.test(text.trim())) return { value: 'EUR' };
  return undefined;
};

/** The currency: stated by a label, carried by the totals' amounts, by the item table, or by most amounts. */
const currencyCandidates = (ctx: FinderContext, table: ItemTable | undefined): Candidate<string>[] => {
  const found: Candidate<string>[] = [
    ...findLabelled(ctx.doc, 'currency', currencyValue, {
      confidence: 0.9,
      midCell: 'colon',
      via: 'label:currency',
    }),
  ];
  for (const amount of labelledAmounts(ctx)) {
    if (
      !amount.currency ||
      (amount.role !== 'total' && amount.role !== 'subtotal' && amount.role !== 'amountDue')
    )
      continue;
    // "$" is the dollar of several countries (mostly the US one); "€", "£" and written codes say which.
    const dollar = amount.currency === 'USD' && !/USD|US\$/.test(amount.line.text);
    found.push({
      value: amount.currency,
      confidence: dollar ? 0.75 : 0.85,
      line: amount.line,
      via: `amount-currency:${amount.role}`,
    });
  }
  const tableCurrency = table?.currencies[0];
  if (table && tableCurrency && table.currencies.every((c) => c === tableCurrency)) {
    found.push({ value: tableCurrency, confidence: 0.8, line: table.header, via: 'table-currency' });
  }
  if (found.length === 0 && ctx.currency && ctx.doc.lines[0]) {
    found.push({
      value: ctx.currency,
      confidence: 0.6,
      reading: 'position',
      line: ctx.doc.lines[0],
      via: 'dominant-currency',
    });
  }
  return found;
};

/**
 * Every invoice field's candidates, in any language with a vocabulary: labels from the
 * vocabularies, the title line, the parties' roles, registration numbers and the totals settled by
 * their sums. The item table is read once and shared.
 */
export const invoiceCandidates = (ctx: FinderContext): InvoiceCandidates => {
  const table = findItemTable(ctx);
  const title = titleCandidates(ctx);
  const parties = partyCandidates(ctx);
  const totals = resolveTotals(labelledAmounts(ctx));
  const dateAt = parseDateAt(ctx.order);
  return {
    invoiceNumber: [
      ...findLabelled(ctx.doc, 'invoiceNumber', parseId, {
        confidence: 0.9,
        weakConfidence: 0.6,
        midCell: 'loose',
        furniture: true,
        via: 'label:invoice-number',
      }),
      ...title.invoiceNumber,
    ],
    kind: title.kind,
    vendor: parties.vendor,
    customer: parties.customer,
    invoiceDate: [
      ...findLabelled(ctx.doc, 'invoiceDate', dateAt, {
        confidence: 0.9,
        weakConfidence: 0.75,
        midCell: 'colon',
        via: 'label:invoice-date',
      }),
      ...title.invoiceDate,
    ],
    dueDate: findLabelled(ctx.doc, 'dueDate', dateAt, {
      confidence: 0.9,
      midCell: 'colon',
      via: 'label:due',
    }),
    currency: currencyCandidates(ctx, table),
    subtotal: totals.subtotal,
    tax: totals.tax,
    total: totals.total,
    amountDue: totals.amountDue,
    lineItems: table
      ? [
          {
            value: table.items,
            confidence: table.unreadable === 0 ? 0.85 : 0.5,
            line: table.header,
            via: 'table',
          },
        ]
      : [],
    poNumber: findLabelled(ctx.doc, 'poNumber', parseId, { midCell: 'colon', via: 'label:po' }),
    contractReference: findLabelled(ctx.doc, 'contractReference', parseId, {
      midCell: 'colon',
      via: 'label:contract',
    }),
    paymentTerms: findLabelled(ctx.doc, 'paymentTerms', parsePaymentTerms, { via: 'label:terms' }),
    vendorTaxId: vatIdCandidates(ctx),
    iban: ibanCandidates(ctx),
  };
};
