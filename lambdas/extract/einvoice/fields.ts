import {
  arithmeticEvidence,
  decimalEquals,
  EVIDENCE_WEIGHT,
  type Evidence,
  type ExtractedField,
  fieldSchema,
  type InvoiceFields,
  type LineItem,
  type RejectedValue,
  subtractDecimals,
} from '../../shared/documents/index.js';
import type { EInvoiceReading } from './index.js';
import type { EInvoiceData, EInvoiceTotals, Located } from './types.js';

/**
 * An e-invoice's data as invoice fields. Each value's source is its element in the attachment;
 * its evidence is the data itself, plus the EN 16931 sums that hold for the amounts. Whether the
 * printed page and the vendor master agree is added later (cross-check, validation).
 */

/**
 * UNTDID 1001 codes of documents that carry an invoice's data but are no invoice, with what
 * they are: a pro forma (325) asks for nothing to be paid or booked.
 */
export const NOT_INVOICE_CODES: Readonly<Record<string, string>> = { '325': 'Proforma invoice' };

/** UNTDID 1001 codes of credit notes; a corrected invoice (384) is one when its total is negative. */
const CREDIT_NOTE_CODES = new Set(['381', '261', '262', '296', '308', '396', '420', '458', '532']);

/** A multi-line party name keeps its name line: not "GLN 4333741000005" or "Lief-Nr: 549910". */
export const partyName = (raw: string): string => {
  const lines = raw
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^(?:gln|lief|kunden|nr|no|id|ust|vat)\b.*\d/i.test(l) && !/^[\d\s./-]+$/.test(l));
  if (lines.length <= 1) return (lines[0] ?? raw.trim()).replace(/\s+/g, ' ');
  // Several lines: the one with a company's legal form, else the last (the name under a trade mark).
  return (lines.find((l) =>
    /\b(?:gmbh|ag|kg|ltd|inc|llc|sarl|sas|sa|bv|nv|srl|spa|a\.g\.|e\.v\.|co\.)\s*$/i.test(l),
  ) ?? lines[lines.length - 1]) as string;
};

/** The fields, the values that failed their schema, and what the data's sums confirm. */
export interface EInvoiceFields {
  fields: Record<string, ExtractedField<unknown>>;
  rejected: RejectedValue[];
}

const AMOUNT_FIELDS = new Set(['subtotal', 'adjustments', 'tax', 'total', 'amountDue']);

/** Turns an e-invoice reading into the record's invoice fields. */
export const einvoiceFields = (reading: EInvoiceReading): EInvoiceFields => {
  const { data, report, attachment } = reading;
  const fields: Record<string, ExtractedField<unknown>> = {};
  const rejected: RejectedValue[] = [];
  const sums = report.held.filter((r) => r.startsWith('BR-CO'));
  const put = (name: keyof InvoiceFields, located: Located<unknown> | undefined) => {
    if (!located) return;
    const check = fieldSchema('invoice', name)?.safeParse(located.value);
    const source = { attachment, path: located.path };
    if (!check?.success) {
      rejected.push({
        field: name,
        raw: JSON.stringify(located.value).slice(0, 2000),
        reason: check?.error.issues.map((i) => i.message).join('; ') ?? 'unknown field',
        source,
      });
      return;
    }
    const evidence: Evidence[] = [
      { kind: 'structured', weight: EVIDENCE_WEIGHT.structured, detail: `${attachment}: ${located.path}` },
    ];
    if (AMOUNT_FIELDS.has(name) && report.consistent && sums.length > 0) {
      evidence.push(arithmeticEvidence(`EN 16931 sums hold (${sums.join(', ')})`));
    }
    fields[name] = { value: check.data, confidence: 0, source, evidence };
  };

  const t = data.totals;
  const kind = kindOf(data);
  put('invoiceNumber', data.number);
  if (kind) put('kind', kind);
  put('vendor', data.seller.name && { ...data.seller.name, value: partyName(data.seller.name.value) });
  put('customer', data.buyer.name && { ...data.buyer.name, value: partyName(data.buyer.name.value) });
  put('invoiceDate', data.issueDate);
  put('dueDate', data.dueDate);
  put('currency', data.currency);
  put('subtotal', t.taxBasisTotal);
  const adjustments = adjustmentsOf(t);
  if (adjustments) put('adjustments', adjustments);
  put('tax', t.taxTotal);
  put('total', t.grandTotal);
  if (t.duePayable) put('amountDue', t.duePayable);
  put('poNumber', data.poNumber);
  put('contractReference', data.contractReference);
  put('vendorTaxId', data.seller.vatIds[0] ?? data.seller.taxNumbers[0]);
  put('iban', data.ibans[0]);
  const items = lineItems(data);
  if (items) put('lineItems', { value: items, path: data.linesPath });
  return { fields, rejected };
};

/**
 * Charges less allowances on the whole invoice (BT-108 - BT-107), where the data states one that
 * is not zero: the text path's `adjustments`, already inside the tax basis (BT-109).
 */
const adjustmentsOf = (t: EInvoiceTotals): Located<string> | undefined => {
  const stated = t.chargeTotal ?? t.allowanceTotal;
  if (!stated) return undefined;
  const value = subtractDecimals(t.chargeTotal?.value.trim() ?? '0', t.allowanceTotal?.value.trim() ?? '0');
  return decimalEquals(value, '0') ? undefined : { value, path: stated.path };
};

const kindOf = (data: EInvoiceData): Located<'invoice' | 'credit_note'> | undefined => {
  const code = data.typeCode;
  if (!code) return undefined;
  const negative = data.totals.grandTotal?.value.trim().startsWith('-') ?? false;
  const credit = CREDIT_NOTE_CODES.has(code.value) || (code.value === '384' && negative);
  return { value: credit ? 'credit_note' : 'invoice', path: code.path };
};

const lineItems = (data: EInvoiceData): LineItem[] | undefined => {
  if (data.lines.length === 0) return undefined;
  const items: LineItem[] = [];
  for (const line of data.lines) {
    if (!line.amount) return undefined;
    items.push({
      description: (line.description ?? '-').slice(0, 500),
      amount: trimZeros(line.amount),
      ...(line.quantity ? { quantity: trimZeros(line.quantity) } : {}),
      ...(line.netPrice ? { unitPrice: trimZeros(line.netPrice) } : {}),
    });
  }
  return items;
};

/** "9.9000" as "9.90", "20.0000" as "20": decimal strings hold at most six fraction digits. */
const trimZeros = (value: string): string => {
  const v = value.trim().replace(/^\+/, '');
  if (!v.includes('.')) return v;
  const [whole, fraction = ''] = v.split('.');
  const kept = fraction.replace(/0+$/, '');
  return kept.length === 0
    ? (whole as string)
    : `${whole}.${kept.length === 1 ? `${kept}0` : kept.slice(0, 6)}`;
};
