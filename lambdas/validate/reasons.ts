/**
 * Why a document needs a human. Stable codes (stored, filtered on, shown in the console); the
 * message that goes with each is written per document.
 */
export const ReviewReasonCode = {
  /** Overall confidence is below the auto-approve threshold. */
  low_confidence: 'low_confidence',
  /** A required field was not found. */
  missing_required_field: 'missing_required_field',
  /** A value was found but is not well-formed. */
  invalid_field: 'invalid_field',
  /** Subtotal + tax differs from the total. */
  totals_mismatch: 'totals_mismatch',
  /** The line items do not add up to the subtotal (or the total when there is no subtotal). */
  line_items_mismatch: 'line_items_mismatch',
  /** A contract's expiration is not after its effective date. */
  dates_out_of_order: 'dates_out_of_order',
  /** An invoice is due before it was issued. */
  due_before_invoice_date: 'due_before_invoice_date',
  /** The provider or vendor is not in the Providers table. */
  unknown_provider: 'unknown_provider',
  /** A date reads two ways (05/03/2025) and nothing in the document settles which. */
  ambiguous_date: 'ambiguous_date',
  /** The classifier was unsure whether this is a contract or an invoice. */
  uncertain_document_type: 'uncertain_document_type',
  /** The text is readable but is neither a recognisable contract nor invoice: a person picks the type. */
  unclassified: 'unclassified',
  /** Nothing checks the invoice's total (no sum, no second place): it is never approved unseen. */
  uncorroborated_total: 'uncorroborated_total',
  /** An e-invoice's structured data does not add up (EN 16931 sums). */
  einvoice_inconsistent: 'einvoice_inconsistent',
  /** The document carries e-invoice data that could not be read; its fields come from the page. */
  einvoice_unreadable: 'einvoice_unreadable',
  /** An e-invoice's printed page does not show the number, total or vendor its data states. */
  einvoice_text_mismatch: 'einvoice_text_mismatch',
  /** The stated VAT id belongs to another vendor than the one named. */
  vendor_mismatch: 'vendor_mismatch',
  /** The IBAN to pay is not one the vendor master knows for this vendor. */
  iban_mismatch: 'iban_mismatch',
  /** Same vendor, number and total as an invoice already completed, but other bytes. */
  possible_duplicate: 'possible_duplicate',
  /** A rerun (`docket reprocess`) changed the record a person approved: a person looks again. */
  changed_since_approval: 'changed_since_approval',
} as const;

/** One review reason code. */
export type ReviewReasonCode = (typeof ReviewReasonCode)[keyof typeof ReviewReasonCode];

/** Every review reason code. */
export const REVIEW_REASON_CODES: readonly ReviewReasonCode[] = Object.values(ReviewReasonCode);

/** A reason a document goes to review: stable code, a message for the reviewer, the fields involved. */
export interface ReviewReason {
  code: ReviewReasonCode;
  message: string;
  fields: string[];
}

/** The order reasons are shown in: the document's kind first, the weakest evidence last. */
const reasonOrder: readonly ReviewReasonCode[] = [
  'unclassified',
  'uncertain_document_type',
  'changed_since_approval',
  'possible_duplicate',
  'einvoice_inconsistent',
  'einvoice_unreadable',
  'einvoice_text_mismatch',
  'missing_required_field',
  'invalid_field',
  'ambiguous_date',
  'unknown_provider',
  'vendor_mismatch',
  'iban_mismatch',
  'uncorroborated_total',
  'totals_mismatch',
  'line_items_mismatch',
  'dates_out_of_order',
  'due_before_invoice_date',
  'low_confidence',
];

/**
 * The review reasons of a document: one per code (messages and fields of the same code merged), in
 * the order a reviewer should read them: what the document is, then what is missing or wrong.
 */
export const groupReasons = (
  issues: readonly { field: string; code: ReviewReasonCode; message: string }[],
  rules: readonly { code: ReviewReasonCode; message: string; fields: readonly string[] }[],
): ReviewReason[] => {
  const byCode = new Map<ReviewReasonCode, ReviewReason>();
  const add = (code: ReviewReasonCode, message: string, fields: readonly string[]) => {
    const existing = byCode.get(code);
    if (existing) {
      existing.message = `${existing.message} ${message}`;
      existing.fields = [...new Set([...existing.fields, ...fields])];
    } else byCode.set(code, { code, message, fields: [...fields] });
  };
  for (const issue of issues) add(issue.code, issue.message, [issue.field]);
  for (const rule of rules) add(rule.code, rule.message, rule.fields);
  return reasonOrder.flatMap((code) => {
    const reason = byCode.get(code);
    return reason ? [reason] : [];
  });
};
