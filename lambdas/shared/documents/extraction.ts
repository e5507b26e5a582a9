import * as z from 'zod';
import type { ContractFields } from './contractFields.js';
import { type DocType, FIELD_SCHEMAS, type FieldsOf } from './docTypes.js';
import type { InvoiceFields } from './invoiceFields.js';

/** Where a value was read: 1-based page and line of the parse stage's text, and that line. */
export const FieldSourceSchema = z
  .object({
    page: z.int().min(1),
    line: z.int().min(1),
    text: z.string().max(2000),
  })
  .strict();

/** Where a value was read. */
export type FieldSource = z.infer<typeof FieldSourceSchema>;

/** One extracted field value with how sure the extractor is and where it came from. */
export interface ExtractedField<V> {
  value: V;
  /** 0-1: how likely the value is right. */
  confidence: number;
  /** The line the value was read from; absent for a reviewer's correction. */
  source?: FieldSource;
  /** Other readings of the same text (e.g. 05/03/2025 as 5 March or 3 May): the value is ambiguous. */
  alternatives?: V[];
  /** Set when a reviewer supplied the value. */
  corrected?: boolean;
}

/** Every field of a doc type, each optional, as extracted. */
export type ExtractedFields<F> = { [K in keyof F]?: ExtractedField<NonNullable<F[K]>> };

/** A value the extractor found but could not turn into a well-formed field value. */
export const RejectedValueSchema = z
  .object({
    field: z.string(),
    raw: z.string().max(2000),
    reason: z.string().max(500),
    source: FieldSourceSchema.optional(),
  })
  .strict();

/** A value found but not well-formed. */
export type RejectedValue = z.infer<typeof RejectedValueSchema>;

/** Which extractor produced a record. */
export const ExtractorInfoSchema = z
  .object({
    name: z.enum(['heuristic', 'bedrock']),
    version: z.string().min(1),
    modelId: z.string().optional(),
  })
  .strict();

/** Which extractor produced a record. */
export type ExtractorInfo = z.infer<typeof ExtractorInfoSchema>;

const extractedFieldSchema = (value: z.ZodType) =>
  z
    .object({
      value,
      confidence: z.number().min(0).max(1),
      source: FieldSourceSchema.optional(),
      alternatives: z.array(value).max(10).optional(),
      corrected: z.boolean().optional(),
    })
    .strict();

const extractedFieldsSchema = <T extends DocType>(type: T) => {
  const shape: Record<string, z.ZodType> = FIELD_SCHEMAS[type].shape;
  const mapped = Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => {
      const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
      return [name, extractedFieldSchema(inner).optional()];
    }),
  );
  return z.object(mapped).strict() as unknown as z.ZodType<ExtractedFields<FieldsOf[T]>>;
};

const common = {
  schemaVersion: z.literal(1),
  /** 0-1: how sure the classifier is of `docType`. */
  classificationConfidence: z.number().min(0).max(1),
  extractor: ExtractorInfoSchema,
  pageCount: z.int().min(0),
  rejected: z.array(RejectedValueSchema).max(1000),
};

/** The extraction of a contract. */
export const ContractExtractionSchema = z
  .object({ docType: z.literal('contract'), ...common, fields: extractedFieldsSchema('contract') })
  .strict();

/** The extraction of an invoice. */
export const InvoiceExtractionSchema = z
  .object({ docType: z.literal('invoice'), ...common, fields: extractedFieldsSchema('invoice') })
  .strict();

/** The record written to `artifacts/{id}/extraction.json`. */
export const ExtractionSchema = z.discriminatedUnion('docType', [
  ContractExtractionSchema,
  InvoiceExtractionSchema,
]);

/** A contract's extraction record. */
export type ContractExtraction = z.infer<typeof ContractExtractionSchema>;
/** An invoice's extraction record. */
export type InvoiceExtraction = z.infer<typeof InvoiceExtractionSchema>;
/** The extraction record of either doc type. */
export type Extraction = z.infer<typeof ExtractionSchema>;

/** Just the values of an extraction's fields (what compare and the review console show). */
export const fieldValues = <E extends Extraction>(
  extraction: E,
): E extends ContractExtraction ? Partial<ContractFields> : Partial<InvoiceFields> => {
  const values: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(extraction.fields)) {
    if (field !== undefined) values[name] = (field as ExtractedField<unknown>).value;
  }
  return values as never;
};
