import {
  addDecimals,
  decimalEquals,
  type FieldName,
  type InvoiceFields,
} from '../../shared/documents/index.js';
import type { Candidate } from '../candidates.js';
import type { FinderContext } from './context.js';
import { findLabelled, type Parsed } from './labelled.js';
import { findItemTable, type ItemTable } from './lineItems.js';
import { afterCue } from './prose.js';
import {
  cleanPartyName,
  hasLegalForm,
  parseAmountAt,
  parseDateAt,
  parseId,
  parseParty,
  parsePaymentTerms,
} from './values.js';

type Finder<K extends FieldName<'invoice'>> = (
  ctx: FinderContext,
  table: ItemTable | undefined,
) => Candidate<NonNullable<InvoiceFields[K]>>[];

const SUBTOTAL_LABELS =
  'sub-?\\s?total|net\\s+(?:total|amount)|total\\s+(?:before|excl\\.?|excluding|ex\\.?)\\s+(?:tax|vat)|amount\\s+before\\s+tax';
const TOTAL_LABELS =
  '(?:grand\\s+|invoice\\s+)?total(?:\\s+(?:amount|due|payable|incl\\.?\\s+(?:vat|tax)))?(?:\\s*\\(\\s*[A-Z]{3}\\s*\\))?(?!\\s+(?:before|excl|excluding|ex)\\b)|amount\\s+(?:due|payable)(?:\\s*\\(\\s*[A-Z]{3}\\s*\\))?|balance\\s+due';
const TAX_LABELS =
  '(?:(?:sales|consumption|value\\s+added)\\s+)?tax(?!\\s*(?:id|no|number|reg|registration|#|code|exempt))|vat(?!\\s*(?:id|no|number|reg|registration|#))|gst|hst|mwst|tva|iva';

/** An amount of the invoice: just the decimal string (the currency is a field of its own). */
const amountValue =
  (ctx: FinderContext) =>
  (text: string): Parsed<string> | undefined => {
    const parsed = parseAmountAt(ctx.currency)(text);
    return parsed
      ? { value: parsed.value.amount, ...(parsed.certainty ? { certainty: parsed.certainty } : {}) }
      : undefined;
  };

/** The company named at the top of the first page (the letterhead), or in a continuation header. */
const letterhead = (ctx: FinderContext): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  const firstPage = ctx.doc.lines
    .filter((l) => l.page === ctx.doc.lines[0]?.page && !l.furniture)
    .slice(0, 2);
  for (const line of firstPage) {
    const cell = line.cells[0]?.text ?? '';
    if (/invoice|statement|receipt|bill\b/i.test(cell)) continue;
    const name = cleanPartyName(cell);
    if (name) {
      found.push({ value: name, confidence: hasLegalForm(name) ? 0.84 : 0.6, line, via: 'letterhead' });
      break;
    }
  }
  for (const line of ctx.doc.lines.filter((l) => l.furniture)) {
    const m = /^(.+?)\s+-\s+invoice\b/i.exec(line.text);
    const name = m?.[1] && cleanPartyName(m[1]);
    if (name) found.push({ value: name, confidence: 0.8, line, via: 'running-header' });
  }
  return found;
};

/**
 * The recipient's address block of a window-envelope invoice: a company name alone on its line,
 * followed by a street line, near the top of the first page but not its first line (the sender).
 */
const recipientBlock = (ctx: FinderContext): Candidate<string>[] => {
  const page = ctx.doc.lines.filter((l) => l.page === ctx.doc.lines[0]?.page && !l.furniture).slice(0, 12);
  const found: Candidate<string>[] = [];
  page.forEach((line, i) => {
    const address = page.slice(i + 1, i + 3);
    if (i === 0 || line.cells.length !== 1 || !address.some((l) => /\d/.test(l.text))) return;
    if (/:\s*$/.test(page[i - 1]?.text ?? '')) return;
    const name = cleanPartyName(line.text);
    if (name && hasLegalForm(name) && name === line.text.trim()) {
      found.push({ value: name, confidence: 0.8, line, via: 'recipient-block' });
    }
  });
  return found;
};

const finders: { [K in FieldName<'invoice'>]: Finder<K> } = {
  invoiceNumber: (ctx) => [
    ...findLabelled(
      ctx.doc,
      'invoice\\s*(?:no\\.?|number|num\\.?|#|id)|inv\\.?\\s*(?:no\\.?|#)|bill\\s*(?:no\\.?|number)|document\\s*(?:no\\.?|number)',
      parseId,
      { midCell: 'loose', furniture: true, via: 'label:invoice-number' },
    ),
    ...findLabelled(ctx.doc, '(?:tax\\s+)?invoice(?!\\s+(?:total|date|to|amount|dated)\\b)', parseId, {
      confidence: 0.85,
      furniture: true,
      via: 'label:invoice',
    }),
  ],
  vendor: (ctx) => [
    ...findLabelled(
      ctx.doc,
      'from|vendor|supplier|seller|issued\\s+by|remit\\s+to|payee|bill\\s+from',
      parseParty,
      {
        confidence: 0.93,
        below: true,
        via: 'label:vendor',
      },
    ),
    ...letterhead(ctx),
    ...afterCue(
      ctx.doc,
      /\b(?:make\s+(?:payment|checks?|cheques?)\s+(?:payable\s+)?to|payable\s+to|remit\s+(?:payment\s+)?to)\s+/i,
      parseParty,
      0.86,
      'prose:payable-to',
    ),
  ],
  customer: (ctx) => [
    ...findLabelled(
      ctx.doc,
      'bill(?:ed)?\\s+to|invoice\\s+to|sold\\s+to|ship\\s+to|customer|client|buyer',
      parseParty,
      {
        confidence: 0.93,
        below: true,
        via: 'label:customer',
      },
    ),
    ...findLabelled(ctx.doc, 'to', parseParty, { confidence: 0.86, below: true, via: 'label:to' }),
    ...recipientBlock(ctx),
  ],
  invoiceDate: (ctx) => [
    ...findLabelled(
      ctx.doc,
      'invoice\\s+date|date\\s+of\\s+(?:issue|invoice)|issue\\s+date|date\\s+issued|issued(?:\\s+on)?|invoice\\s+dated|dated|billing\\s+date|tax\\s+point',
      parseDateAt(ctx.order),
      { midCell: 'colon', via: 'label:invoice-date' },
    ),
    ...findLabelled(ctx.doc, 'date', parseDateAt(ctx.order), { confidence: 0.88, via: 'label:date' }),
  ],
  dueDate: (ctx) => [
    ...findLabelled(
      ctx.doc,
      'due\\s+date|payment\\s+due(?:\\s+(?:date|by|on))?|due\\s+by|due\\s+on|(?:please\\s+)?pay\\s+by|payable\\s+by|due',
      parseDateAt(ctx.order),
      { midCell: 'colon', via: 'label:due' },
    ),
  ],
  currency: (ctx, table) => {
    const found: Candidate<string>[] = [
      ...findLabelled(
        ctx.doc,
        'currency|all\\s+amounts\\s+in|amounts\\s+in',
        (t) => {
          const code = /^([A-Z]{3})\b/.exec(t)?.[1];
          return code ? { value: code } : undefined;
        },
        { confidence: 0.97, via: 'label:currency' },
      ),
    ];
    for (const label of [TOTAL_LABELS, SUBTOTAL_LABELS]) {
      for (const c of findLabelled(ctx.doc, label, parseAmountAt(undefined), {
        via: 'label:amount-currency',
      })) {
        if (c.value.currency)
          found.push({ value: c.value.currency, confidence: 0.95, line: c.line, via: c.via });
      }
      for (const line of ctx.doc.lines) {
        const m = new RegExp(`^(?:${TOTAL_LABELS})`, 'i').exec(line.text);
        const code = m && /\(\s*([A-Z]{3})\s*\)/.exec(m[0])?.[1];
        if (code) found.push({ value: code, confidence: 0.95, line, via: 'label:total-currency' });
      }
    }
    const tableCurrency = table?.currencies[0];
    if (table && tableCurrency && table.currencies.every((c) => c === tableCurrency)) {
      found.push({ value: tableCurrency, confidence: 0.9, line: table.header, via: 'table-currency' });
    }
    if (found.length === 0 && ctx.currency && ctx.doc.lines[0]) {
      found.push({ value: ctx.currency, confidence: 0.8, line: ctx.doc.lines[0], via: 'dominant-currency' });
    }
    return found;
  },
  subtotal: (ctx) => findLabelled(ctx.doc, SUBTOTAL_LABELS, amountValue(ctx), { via: 'label:subtotal' }),
  tax: (ctx) => findLabelled(ctx.doc, TAX_LABELS, amountValue(ctx), { confidence: 0.93, via: 'label:tax' }),
  total: (ctx) => findLabelled(ctx.doc, TOTAL_LABELS, amountValue(ctx), { via: 'label:total' }),
  lineItems: (_ctx, table) => {
    if (!table) return [];
    return [
      {
        value: table.items,
        confidence: table.unreadable === 0 ? 0.9 : 0.6,
        line: table.header,
        via: 'table',
      },
    ];
  },
  poNumber: (ctx) =>
    findLabelled(
      ctx.doc,
      'p\\.?\\s?o\\.?\\s*(?:number|no\\.?|#)?|purchase\\s+order(?:\\s+(?:number|no\\.?))?|your\\s+(?:po|order)(?:\\s+(?:number|no\\.?))?|order\\s+(?:number|no\\.?)',
      parseId,
      { midCell: 'colon', via: 'label:po' },
    ),
  contractReference: (ctx) =>
    findLabelled(
      ctx.doc,
      'contract\\s*(?:ref(?:erence)?\\.?|no\\.?|number|#|id)?|agreement\\s*(?:no\\.?|number|ref\\.?)',
      parseId,
      { midCell: 'colon', via: 'label:contract' },
    ),
  paymentTerms: (ctx) => [
    ...findLabelled(ctx.doc, 'payment\\s+terms|terms(?:\\s+of\\s+payment)?|payment', parsePaymentTerms, {
      via: 'label:terms',
    }),
    ...findLabelled(ctx.doc, 'payable', (t) => parsePaymentTerms(`payable ${t}`), {
      confidence: 0.9,
      via: 'label:payable',
    }),
  ],
};

/** Every invoice field's candidates (the item table is read once and shared). */
export const invoiceCandidates = (
  ctx: FinderContext,
): { [K in FieldName<'invoice'>]: Candidate<NonNullable<InvoiceFields[K]>>[] } => {
  const table = findItemTable(ctx);
  return Object.fromEntries(
    Object.entries(finders).map(([field, find]) => [
      field,
      (find as Finder<FieldName<'invoice'>>)(ctx, table),
    ]),
  ) as never;
};

/** True when the items add up to `expected` (the subtotal, or the total when there is none). */
export const itemsAddUpTo = (items: readonly { amount: string }[], expected: string): boolean =>
  decimalEquals(addDecimals(items.map((i) => i.amount)), expected);
