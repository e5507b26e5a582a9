import * as z from 'zod';
import {
  CurrencyCodeSchema,
  DecimalSchema,
  DocumentNumberSchema,
  IbanSchema,
  IsoDateSchema,
  PartyNameSchema,
  PaymentTermsSchema,
  TaxIdSchema,
} from './primitives.js';

/** What kind of invoice: an ordinary one, or a credit note (Gutschrift, avoir, creditnota). */
export const InvoiceKindSchema = z
  .enum(['invoice', 'credit_note'])
  .describe('"credit_note" for a credit note (UNTDID 381, Gutschrift, avoir, creditnota), else "invoice"');
/** `invoice` or `credit_note`. */
export type InvoiceKind = z.infer<typeof InvoiceKindSchema>;

/** One row of an invoice's item table; `amount` is the row total in the invoice currency. */
export const LineItemSchema = z
  .object({
    description: z.string().trim().min(1).max(500).describe('What was sold'),
    quantity: DecimalSchema.optional().describe('Quantity as a decimal string'),
    unitPrice: DecimalSchema.optional().describe('Price per unit as a decimal string'),
    amount: DecimalSchema.describe('Row total as a decimal string (may be negative for a discount)'),
  })
  .strict();

/** One invoice line item. */
export type LineItem = z.infer<typeof LineItemSchema>;

/**
 * The fields of an invoice. Amounts are decimal strings in `currency`, signed as the document
 * states them (a corrective invoice may carry negative totals; a credit note usually states
 * positive ones). Required fields (not `.optional()`) are the `*` fields of the issue;
 * `REQUIRED_FIELDS` is derived from this schema.
 */
export const InvoiceFieldsSchema = z
  .object({
    invoiceNumber: DocumentNumberSchema.describe('Invoice number'),
    kind: InvoiceKindSchema.optional(),
    vendor: PartyNameSchema.describe('The party that issued the invoice and is to be paid'),
    customer: PartyNameSchema.optional().describe('The billed party (bill to)'),
    invoiceDate: IsoDateSchema.describe('Date the invoice was issued, YYYY-MM-DD'),
    dueDate: IsoDateSchema.optional().describe('Date payment is due, YYYY-MM-DD'),
    currency: CurrencyCodeSchema.describe('ISO 4217 currency of every amount on the invoice'),
    subtotal: DecimalSchema.optional().describe(
      'Total before tax (net amount), after discounts and charges on the whole invoice (EN 16931 BT-109)',
    ),
    adjustments: DecimalSchema.optional().describe(
      'Charges less discounts on the whole invoice (shipping, freight, an order discount), included in the subtotal (EN 16931 BT-108 - BT-107)',
    ),
    tax: DecimalSchema.optional().describe('Tax amount (VAT, sales tax, GST), all rates together'),
    total: DecimalSchema.describe(
      'Invoice total with tax (gross, EN 16931 BT-112), before any prepayment or tax withheld is deducted',
    ),
    withholding: DecimalSchema.optional().describe(
      "Tax the buyer withholds and pays to the tax office itself (Spanish IRPF, Italian ritenuta d'acconto, UK CIS deduction, the VAT an Italian public body pays under split payment), deducted from the amount to pay; signed like the total",
    ),
    amountDue: DecimalSchema.optional().describe(
      'Amount still to pay: the total less prepayments and tax withheld (EN 16931 BT-115)',
    ),
    lineItems: z.array(LineItemSchema).max(5000).optional().describe('Rows of the item table'),
    poNumber: DocumentNumberSchema.optional().describe('Purchase order number'),
    contractReference: DocumentNumberSchema.optional().describe('Number of the contract the invoice bills'),
    paymentTerms: PaymentTermsSchema.optional(),
    vendorTaxId: TaxIdSchema.optional().describe("The vendor's VAT or tax registration number"),
    iban: IbanSchema.optional().describe('The IBAN the vendor asks to be paid to'),
  })
  .strict();

/** An invoice's fields, every required field present. */
export type InvoiceFields = z.infer<typeof InvoiceFieldsSchema>;
