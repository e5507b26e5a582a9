import * as z from 'zod';
import {
  CurrencyCodeSchema,
  DecimalSchema,
  DocumentNumberSchema,
  IsoDateSchema,
  NonNegativeDecimalSchema,
  PartyNameSchema,
  PaymentTermsSchema,
} from './primitives.js';

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
 * The fields of an invoice. Amounts are decimal strings in `currency`. Required fields (not
 * `.optional()`) are the `*` fields of the issue; `REQUIRED_FIELDS` is derived from this schema.
 */
export const InvoiceFieldsSchema = z
  .object({
    invoiceNumber: DocumentNumberSchema.describe('Invoice number'),
    vendor: PartyNameSchema.describe('The party that issued the invoice and is to be paid'),
    customer: PartyNameSchema.optional().describe('The billed party (bill to)'),
    invoiceDate: IsoDateSchema.describe('Date the invoice was issued, YYYY-MM-DD'),
    dueDate: IsoDateSchema.optional().describe('Date payment is due, YYYY-MM-DD'),
    currency: CurrencyCodeSchema.describe('ISO 4217 currency of every amount on the invoice'),
    subtotal: NonNegativeDecimalSchema.optional().describe('Total before tax'),
    tax: NonNegativeDecimalSchema.optional().describe('Tax amount (VAT, sales tax, GST)'),
    total: NonNegativeDecimalSchema.describe('Total amount due, tax included'),
    lineItems: z.array(LineItemSchema).max(5000).optional().describe('Rows of the item table'),
    poNumber: DocumentNumberSchema.optional().describe('Purchase order number'),
    contractReference: DocumentNumberSchema.optional().describe('Number of the contract the invoice bills'),
    paymentTerms: PaymentTermsSchema.optional(),
  })
  .strict();

/** An invoice's fields, every required field present. */
export type InvoiceFields = z.infer<typeof InvoiceFieldsSchema>;
