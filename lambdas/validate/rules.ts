import {
  addDecimals,
  type ContractExtraction,
  compareDecimals,
  decimalEquals,
  type InvoiceExtraction,
  multiplyDecimals,
  subtractDecimals,
} from '../shared/documents/index.js';
import type { ReviewReasonCode } from './reasons.js';

/** A business rule that failed. */
export interface RuleIssue {
  code: ReviewReasonCode;
  fields: string[];
  message: string;
}

/** What the cross-field rules found: failures, and fields that a passing rule confirmed. */
export interface RuleOutcome {
  issues: RuleIssue[];
  /** Fields whose values were checked against other fields and agree (e.g. subtotal + tax = total). */
  confirmed: string[];
}

/** Fraction digits of a currency (JPY 0, BHD 3), from the ICU data shipped with Node. */
export const minorDigits = (currency: string | undefined): number => {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency: currency ?? 'USD' }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
};

/** Contract rules: the contract must end after it starts. */
export const contractRules = (fields: ContractExtraction['fields']): RuleOutcome => {
  const issues: RuleIssue[] = [];
  const effective = fields.effectiveDate?.value;
  const expiration = fields.expirationDate?.value;
  if (effective && expiration && expiration <= effective) {
    issues.push({
      code: 'dates_out_of_order',
      fields: ['effectiveDate', 'expirationDate'],
      message: `The expiration date ${expiration} is not after the effective date ${effective}.`,
    });
  }
  return { issues, confirmed: [] };
};

/**
 * Invoice rules: subtotal + tax = total, the line items add up to the subtotal (or to the total
 * when there is no tax), each row's quantity x unit price is its amount (to one minor unit), and
 * the invoice is not due before it was issued. All in exact decimals.
 */
export const invoiceRules = (fields: InvoiceExtraction['fields']): RuleOutcome => {
  const issues: RuleIssue[] = [];
  const confirmed: string[] = [];
  const subtotal = fields.subtotal?.value;
  const tax = fields.tax?.value;
  const total = fields.total?.value;
  const digits = minorDigits(fields.currency?.value);
  const oneUnit = digits === 0 ? '1' : `0.${'0'.repeat(digits - 1)}1`;

  if (subtotal !== undefined && total !== undefined) {
    const expected = addDecimals([subtotal, tax ?? '0']);
    if (decimalEquals(expected, total))
      confirmed.push('subtotal', 'total', ...(tax !== undefined ? ['tax'] : []));
    else {
      issues.push({
        code: 'totals_mismatch',
        fields: ['subtotal', 'tax', 'total'],
        message: `Subtotal ${subtotal}${tax !== undefined ? ` + tax ${tax}` : ''} = ${expected}, but the total is ${total}.`,
      });
    }
  }

  const items = fields.lineItems?.value;
  if (items && items.length > 0) {
    const sum = addDecimals(items.map((i) => i.amount));
    const target =
      subtotal !== undefined ? 'subtotal' : tax === undefined && total !== undefined ? 'total' : undefined;
    const targetValue = target === 'subtotal' ? subtotal : target === 'total' ? total : undefined;
    if (target && targetValue !== undefined) {
      if (decimalEquals(sum, targetValue)) confirmed.push('lineItems', target);
      else {
        issues.push({
          code: 'line_items_mismatch',
          fields: ['lineItems', target, 'total'],
          message: `The ${items.length} line items add up to ${sum}, but the ${target} is ${targetValue}.`,
        });
      }
    }
    const badRows = items
      .map((item, i) => ({ item, row: i + 1 }))
      .filter(({ item }) => {
        if (item.quantity === undefined || item.unitPrice === undefined) return false;
        const diff = subtractDecimals(multiplyDecimals(item.quantity, item.unitPrice), item.amount);
        const abs = diff.startsWith('-') ? diff.slice(1) : diff;
        return compareDecimals(abs, oneUnit) > 0;
      });
    if (badRows.length > 0) {
      issues.push({
        code: 'line_items_mismatch',
        fields: ['lineItems', 'total'],
        message: `Quantity x unit price differs from the amount in row${badRows.length > 1 ? 's' : ''} ${badRows
          .slice(0, 5)
          .map((r) => r.row)
          .join(', ')}${badRows.length > 5 ? ', ...' : ''}.`,
      });
    }
  }

  const issued = fields.invoiceDate?.value;
  const due = fields.dueDate?.value;
  if (issued && due && due < issued) {
    issues.push({
      code: 'due_before_invoice_date',
      fields: ['invoiceDate', 'dueDate'],
      message: `The due date ${due} is before the invoice date ${issued}.`,
    });
  }
  return { issues, confirmed };
};
