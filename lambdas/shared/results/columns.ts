import type { DocType } from '../documents/index.js';
import type { ResultRecord } from './record.js';

/**
 * The column kinds of the Parquet results, each with its Parquet type and its Glue/Athena type.
 * Amounts are DECIMAL(18,6), not DOUBLE: the record holds them as exact decimal strings with at
 * most six fraction digits (DECIMAL_PATTERN), and `sum(total)` over DOUBLEs would drift by cents;
 * 18 digits fit a Parquet INT64 and leave twelve for the integer part (under 10^12 in any currency).
 */
export const ColumnKind = {
  string: { parquet: { type: 'BYTE_ARRAY', converted_type: 'UTF8' }, glue: 'string', duckdb: 'VARCHAR' },
  date: { parquet: { type: 'INT32', converted_type: 'DATE' }, glue: 'date', duckdb: 'DATE' },
  timestamp: {
    parquet: { type: 'INT64', converted_type: 'TIMESTAMP_MILLIS' },
    glue: 'timestamp',
    duckdb: 'TIMESTAMP',
  },
  decimal: {
    parquet: { type: 'INT64', converted_type: 'DECIMAL', precision: 18, scale: 6 },
    glue: 'decimal(18,6)',
    duckdb: 'DECIMAL(18,6)',
  },
  int: { parquet: { type: 'INT32' }, glue: 'int', duckdb: 'INTEGER' },
  boolean: { parquet: { type: 'BOOLEAN' }, glue: 'boolean', duckdb: 'BOOLEAN' },
} as const;

/** One of `ColumnKind`'s names. */
export type ColumnKind = keyof typeof ColumnKind;

/** A column of a doc type's Parquet results: its name, its kind, and where its value comes from. */
export interface ResultColumn {
  name: string;
  kind: ColumnKind;
  /** The value as the record holds it (a string, number, boolean) or undefined. */
  read: (record: ResultRecord) => unknown;
  description: string;
}

/** A column of a field's value, or of one part of it (`totalValue.amount`). */
const typed = (
  name: string,
  kind: ColumnKind,
  description: string,
  from: { field: string; part: string } = { field: name, part: '' },
): ResultColumn => ({
  name,
  kind,
  description,
  read: (record) => {
    const value = record.fields[from.field]?.value;
    return from.part ? (value as Record<string, unknown> | undefined)?.[from.part] : value;
  },
});
/** The last column of every type: the whole record as JSON. */
const recordColumn: ResultColumn = {
  name: 'record',
  kind: 'string',
  read: (record) => JSON.stringify(record),
  description: 'The whole record as JSON: every field with who set it, comparison, review, links',
};

/** Columns every doc type has first. `tenant` is also a partition key on AWS (see GLUE_PARTITION_KEYS). */
const COMMON: readonly ResultColumn[] = [
  { name: 'id', kind: 'string', read: (r) => r.id, description: 'Workflow id' },
  { name: 'tenant', kind: 'string', read: (r) => r.tenant, description: 'Tenant' },
  { name: 'docType', kind: 'string', read: (r) => r.docType, description: 'contract or invoice' },
  {
    name: 'completedAt',
    kind: 'timestamp',
    read: (r) => r.completedAt,
    description: 'When the workflow completed (UTC)',
  },
  { name: 'eventId', kind: 'string', read: (r) => r.eventId, description: 'Id of its completion event' },
];

/**
 * The columns of each doc type's Parquet results, in file order: the one list the writer and the
 * Glue tables are made from. A field the schema nests or repeats (line items) is in `record` only.
 */
export const RESULT_COLUMNS: { readonly [T in DocType]: readonly ResultColumn[] } = {
  invoice: [
    ...COMMON,
    typed('invoiceNumber', 'string', 'Invoice number'),
    typed('kind', 'string', 'invoice or credit_note'),
    typed('vendor', 'string', 'Issuer, to be paid'),
    typed('customer', 'string', 'Billed party'),
    typed('invoiceDate', 'date', 'Date issued'),
    typed('dueDate', 'date', 'Date payment is due'),
    typed('currency', 'string', 'ISO 4217 currency of every amount'),
    typed('subtotal', 'decimal', 'Net amount'),
    typed('tax', 'decimal', 'Tax amount'),
    typed('total', 'decimal', 'Gross total'),
    typed('amountDue', 'decimal', 'Total less prepayments and tax withheld'),
    typed('poNumber', 'string', 'Purchase order number'),
    typed('contractReference', 'string', 'Number of the contract billed'),
    typed('paymentTerms', 'string', 'Payment terms'),
    typed('vendorTaxId', 'string', "Vendor's VAT or tax id"),
    typed('iban', 'string', 'IBAN to pay to'),
    // Last, so files written before it existed keep every other column where it was.
    typed('adjustments', 'decimal', 'Discounts and charges between net and total'),
    typed('withholding', 'decimal', 'Income tax withheld by the buyer, deducted from the amount due'),
    recordColumn,
  ],
  contract: [
    ...COMMON,
    typed('contractNumber', 'string', 'Contract number'),
    typed('provider', 'string', 'Providing party'),
    typed('customer', 'string', 'Receiving party'),
    typed('effectiveDate', 'date', 'Date it takes effect'),
    typed('expirationDate', 'date', 'Date it ends'),
    typed('termMonths', 'int', 'Initial term in months'),
    typed('totalValueAmount', 'decimal', 'Total contract value', { field: 'totalValue', part: 'amount' }),
    typed('totalValueCurrency', 'string', 'Currency of the total value', {
      field: 'totalValue',
      part: 'currency',
    }),
    typed('paymentTerms', 'string', 'Payment terms'),
    typed('governingLaw', 'string', 'Governing law'),
    typed('autoRenewal', 'boolean', 'Renews automatically'),
    typed('terminationNoticeDays', 'int', 'Days of notice to terminate'),
    typed('signedDate', 'date', 'Date signed'),
    recordColumn,
  ],
};

/**
 * Fields of a doc type's schema kept in the `record` column only (nested or repeated); every
 * other field has a typed column (a test holds the two lists to FIELD_NAMES).
 */
export const RECORD_ONLY_FIELDS: { readonly [T in DocType]: readonly string[] } = {
  invoice: ['lineItems'],
  contract: [],
};

/**
 * The Glue tables' partition keys (projected, never crawled): `tenant` (injected: an Athena query
 * names its tenant, `WHERE tenant = 'acme'`) and `date` (`YYYY-MM-DD`, the completion day). A
 * Glue table may not list a partition key among its columns, so `tenant` is in the files and
 * the key, and not among the table's columns.
 */
export const GLUE_PARTITION_KEYS = [
  { name: 'tenant', glue: 'string' },
  { name: 'date', glue: 'string' },
] as const;

/** The view or table name of a doc type's results (`invoices`, `contracts`), locally and on AWS. */
export const resultTableName = (docType: DocType): string => `${docType}s`;
