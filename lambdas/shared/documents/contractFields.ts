import * as z from 'zod';
import {
  DocumentNumberSchema,
  IsoDateSchema,
  MoneySchema,
  PartyNameSchema,
  PaymentTermsSchema,
} from './primitives.js';

/**
 * The fields of a contract. Required fields (not `.optional()`) are the `*` fields of the issue;
 * `REQUIRED_FIELDS` is derived from this schema, so this is the only place that says which.
 */
export const ContractFieldsSchema = z
  .object({
    contractNumber: DocumentNumberSchema.describe('Contract or agreement number'),
    provider: PartyNameSchema.describe('The party providing goods or services (provider, supplier, vendor)'),
    customer: PartyNameSchema.describe('The party receiving and paying (customer, client, buyer)'),
    effectiveDate: IsoDateSchema.describe('Date the contract takes effect, YYYY-MM-DD'),
    expirationDate: IsoDateSchema.optional().describe('Date the contract ends, YYYY-MM-DD'),
    termMonths: z
      .int()
      .min(1)
      .max(1200)
      .optional()
      .describe('Initial term in months, when given as a duration instead of an end date'),
    totalValue: MoneySchema.describe('Total contract value'),
    paymentTerms: PaymentTermsSchema.optional(),
    governingLaw: z
      .string()
      .trim()
      .min(2)
      .max(120)
      .optional()
      .describe('Jurisdiction whose law governs, e.g. "New York" or "England and Wales"'),
    autoRenewal: z.boolean().optional().describe('True when the contract renews automatically'),
    terminationNoticeDays: z
      .int()
      .min(0)
      .max(3650)
      .optional()
      .describe('Days of written notice needed to terminate or prevent renewal'),
    signedDate: IsoDateSchema.optional().describe('Date the contract was signed, YYYY-MM-DD'),
  })
  .strict();

/** A contract's fields, every required field present. */
export type ContractFields = z.infer<typeof ContractFieldsSchema>;
