import {
  addDecimals,
  arithmeticEvidence,
  type ContractExtraction,
  compareDecimals,
  decimalEquals,
  EVIDENCE_WEIGHT,
  type Evidence,
  type InvoiceExtraction,
  isoPlusDays,
  multiplyDecimals,
  paymentTermsDays,
  subtractDecimals,
  termMonthsBetween,
} from '../shared/documents/index.js';
import type { ReviewReasonCode } from './reasons.js';

/** A business rule that failed. */
export interface RuleIssue {
  code: ReviewReasonCode;
  fields: string[];
  message: string;
}

/** Evidence a passing rule gives one field. */
export interface FieldEvidence {
  field: string;
  evidence: Evidence;
}

/** What the cross-field rules found: failures, and the evidence of the rules that held. */
export interface RuleOutcome {
  issues: RuleIssue[];
  /** Fields checked against other fields that agree (subtotal + tax = total, start + term = end). */
  evidence: FieldEvidence[];
}

const arithmetic = (fields: readonly string[], detail: string): FieldEvidence[] =>
  fields.map((field) => ({
    field,
    evidence: arithmeticEvidence(detail),
  }));

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

/**
 * Contract rules: the contract must end after it starts; a stated term that runs from the
 * effective date to the stated end (to the day, or the day before) confirms all three.
 */
export const contractRules = (fields: ContractExtraction['fields']): RuleOutcome => {
  const issues: RuleIssue[] = [];
  const evidence: FieldEvidence[] = [];
  const effective = fields.effectiveDate?.value;
  const expiration = fields.expirationDate?.value;
  const months = fields.termMonths?.value;
  if (effective && expiration && expiration <= effective) {
    issues.push({
      code: 'dates_out_of_order',
      fields: ['effectiveDate', 'expirationDate'],
      message: `The expiration date ${expiration} is not after the effective date ${effective}.`,
    });
  } else if (effective && expiration && months !== undefined) {
    if (termMonthsBetween(effective, expiration) === months) {
      evidence.push(
        ...arithmetic(
          ['effectiveDate', 'expirationDate', 'termMonths'],
          `${effective} + ${months} months ends ${expiration}`,
        ),
      );
    }
  }
  return { issues, evidence };
};

/**
 * Invoice rules: subtotal + tax = total, the line items add up to the subtotal before the
 * discounts and charges on the whole invoice (or to the total when there is no tax, or, stated
 * with tax, to the total; with a tax and no subtotal, to the total or with the tax to it), each
 * row's quantity x unit price is its amount (to one minor unit), the total less the tax
 * withheld is the amount due, and the invoice is not due before it was issued. All in exact
 * decimals.
 */
export const invoiceRules = (
  fields: InvoiceExtraction['fields'],
  options: {
    /**
     * The items come from e-invoice data whose own sums (EN 16931 BR-CO-10 and the line totals)
     * already checked them, against the line total, which document-level allowances and charges
     * set apart from the subtotal: they are not checked again here.
     */
    itemsCheckedByData?: boolean;
  } = {},
): RuleOutcome => {
  const issues: RuleIssue[] = [];
  const evidence: FieldEvidence[] = [];
  const subtotal = fields.subtotal?.value;
  const tax = fields.tax?.value;
  const total = fields.total?.value;
  const digits = minorDigits(fields.currency?.value);
  const oneUnit = digits === 0 ? '1' : `0.${'0'.repeat(digits - 1)}1`;

  if (subtotal !== undefined && total !== undefined) {
    const expected = addDecimals([subtotal, tax ?? '0']);
    if (decimalEquals(expected, total)) {
      evidence.push(
        ...arithmetic(
          ['subtotal', 'total', ...(tax !== undefined ? ['tax'] : [])],
          `subtotal ${subtotal}${tax !== undefined ? ` + tax ${tax}` : ''} = total ${total}`,
        ),
      );
    } else {
      issues.push({
        code: 'totals_mismatch',
        fields: ['subtotal', 'tax', 'total'],
        message: `Subtotal ${subtotal}${tax !== undefined ? ` + tax ${tax}` : ''} = ${expected}, but the total is ${total}.`,
      });
    }
  }

  const items = options.itemsCheckedByData ? undefined : fields.lineItems?.value;
  if (items && items.length > 0) {
    const sum = addDecimals(items.map((i) => i.amount));
    const target =
      subtotal !== undefined ? 'subtotal' : tax === undefined && total !== undefined ? 'total' : undefined;
    // The rows add up to the net before the discounts and charges on the whole invoice.
    const adjustments = fields.adjustments?.value;
    const lineTotal =
      subtotal !== undefined && adjustments !== undefined
        ? subtractDecimals(subtotal, adjustments)
        : subtotal;
    const targetValue = target === 'subtotal' ? lineTotal : target === 'total' ? total : undefined;
    const before = target === 'subtotal' && adjustments !== undefined ? ' before discounts and charges' : '';
    // Rows priced with tax ("Amount incl. GST", "Total TTC", "VAT included") add up to the total.
    const withTax = () =>
      arithmetic(
        ['lineItems', 'total'],
        `the ${items.length} line items, with tax, add up to the total ${sum}`,
      );
    // No target means no net printed, only the tax: the items are priced with tax, or they are
    // net and with the tax they make the total. Either way the sum checks the total. Rows that
    // make neither are left alone: without a net there is no saying which rows were misread.
    if (!target && tax !== undefined && total !== undefined) {
      if (decimalEquals(sum, total)) evidence.push(...withTax());
      else if (decimalEquals(addDecimals([sum, tax]), total)) {
        evidence.push(
          ...arithmetic(
            ['lineItems', 'tax', 'total'],
            `the ${items.length} line items ${sum} + tax ${tax} = total ${total}`,
          ),
        );
      }
    }
    if (target && targetValue !== undefined) {
      if (decimalEquals(sum, targetValue)) {
        evidence.push(
          ...arithmetic(
            ['lineItems', target, ...(before ? ['adjustments'] : [])],
            `the ${items.length} line items add up to the ${target}${before} ${sum}`,
          ),
        );
      } else if (target === 'subtotal' && total !== undefined && decimalEquals(sum, total)) {
        // With a net printed too, the rows may still be priced with tax: they add up to the total.
        evidence.push(...withTax());
      } else {
        issues.push({
          code: 'line_items_mismatch',
          fields: ['lineItems', target, 'total'],
          message: `The ${items.length} line items add up to ${sum}, but the ${target}${before} is ${targetValue}.`,
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
  const terms = fields.paymentTerms?.value;
  const days = terms === undefined ? undefined : paymentTermsDays(terms);
  if (issued && due && days !== undefined && isoPlusDays(issued, days) === due) {
    evidence.push(
      ...arithmetic(['invoiceDate', 'dueDate', 'paymentTerms'], `${issued} + ${days} days = due ${due}`),
    );
  }
  const amountDue = fields.amountDue?.value;
  if (amountDue !== undefined && total !== undefined && decimalEquals(amountDue, total)) {
    evidence.push({
      field: 'amountDue',
      evidence: { kind: 'agreement', weight: EVIDENCE_WEIGHT.agreement, detail: `equals the total ${total}` },
    });
  }
  // The tax a buyer withholds comes off the total: what is left is what it pays the vendor.
  const withholding = fields.withholding?.value;
  if (
    withholding !== undefined &&
    amountDue !== undefined &&
    total !== undefined &&
    decimalEquals(subtractDecimals(total, withholding), amountDue)
  ) {
    evidence.push(
      ...arithmetic(
        ['total', 'withholding', 'amountDue'],
        `total ${total} - withholding ${withholding} = amount due ${amountDue}`,
      ),
    );
  }
  return { issues, evidence };
};
