import * as z from 'zod';
import { type ContractFields, ContractFieldsSchema } from './contractFields.js';
import { type InvoiceFields, InvoiceFieldsSchema } from './invoiceFields.js';

/** The document types Docket processes. */
export const DocType = { contract: 'contract', invoice: 'invoice' } as const;
/** `contract` or `invoice`. */
export type DocType = (typeof DocType)[keyof typeof DocType];
/** Zod schema of a doc type string. */
export const DocTypeSchema = z.enum(['contract', 'invoice']);

/** The field schema of each doc type: the one definition everything else derives from. */
export const FIELD_SCHEMAS = {
  contract: ContractFieldsSchema,
  invoice: InvoiceFieldsSchema,
} as const;

/** The fields of each doc type. */
export interface FieldsOf {
  contract: ContractFields;
  invoice: InvoiceFields;
}

/** A field name of doc type `T`. */
export type FieldName<T extends DocType> = keyof FieldsOf[T] & string;
/** A field name of either doc type. */
export type AnyFieldName = FieldName<'contract'> | FieldName<'invoice'>;

const fieldNames = <T extends DocType>(type: T): FieldName<T>[] =>
  Object.keys(FIELD_SCHEMAS[type].shape) as FieldName<T>[];

const requiredOf = <T extends DocType>(type: T): FieldName<T>[] =>
  Object.entries(FIELD_SCHEMAS[type].shape)
    .filter(([, schema]) => !schema.isOptional())
    .map(([name]) => name as FieldName<T>);

/** Every field of each doc type, in schema order. */
export const FIELD_NAMES: { readonly [T in DocType]: readonly FieldName<T>[] } = {
  contract: fieldNames('contract'),
  invoice: fieldNames('invoice'),
};

/** The required (`*`) fields of each doc type, derived from the schemas. */
export const REQUIRED_FIELDS: { readonly [T in DocType]: readonly FieldName<T>[] } = {
  contract: requiredOf('contract'),
  invoice: requiredOf('invoice'),
};

/**
 * The schema of one field with `.optional()` removed: what a present value must satisfy.
 * Used to validate extracted values and reviewer corrections one field at a time.
 */
export const fieldSchema = (type: DocType, field: string): z.ZodType | undefined => {
  const shape: Record<string, z.ZodType> = FIELD_SCHEMAS[type].shape;
  if (!Object.hasOwn(shape, field)) return undefined;
  const schema = shape[field];
  return schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
};

/** True when `field` is a field of `type`. */
export const isFieldOf = <T extends DocType>(type: T, field: string): field is FieldName<T> =>
  Object.hasOwn(FIELD_SCHEMAS[type].shape, field);
