import type { z } from 'zod';
import {
  type DocType,
  FIELD_NAMES,
  fieldSchema,
  REQUIRED_FIELDS,
} from '../lambdas/shared/documents/index.js';

/** How the console edits a field: text, a whole number, yes/no, one of named choices, named text parts, or JSON. */
export type FieldKind = 'text' | 'number' | 'boolean' | 'choice' | 'parts' | 'json';

/** One field as the console needs to know it. */
export interface CatalogField {
  name: string;
  required: boolean;
  kind: FieldKind;
  /** For `parts`: the names of the text parts (e.g. amount, currency). */
  parts?: string[];
  /** For `choice`: the values allowed (e.g. invoice, credit_note). */
  options?: string[];
}

/** The fields of each doc type, in schema order. */
export type FieldCatalog = Record<DocType, CatalogField[]>;

const typeOf = (schema: z.ZodType): string => (schema.def as { type: string }).type;

const kindOf = (schema: z.ZodType): Pick<CatalogField, 'kind' | 'parts' | 'options'> => {
  const type = typeOf(schema);
  if (type === 'enum') return { kind: 'choice', options: (schema as z.ZodEnum).options.map(String) };
  if (type === 'string') return { kind: 'text' };
  if (type === 'number') return { kind: 'number' };
  if (type === 'boolean') return { kind: 'boolean' };
  const shape = (schema.def as { shape?: Record<string, z.ZodType> }).shape;
  if (type === 'object' && shape && Object.values(shape).every((s) => typeOf(s) === 'string')) {
    return { kind: 'parts', parts: Object.keys(shape) };
  }
  return { kind: 'json' };
};

/**
 * Derives the console's field list from the zod field schemas at build time, so the browser bundle
 * carries a few hundred bytes of names and kinds instead of zod; the review API validates values
 * and answers 422 with the field and the reason.
 */
export const fieldCatalog = (): FieldCatalog => {
  const of = (docType: DocType): CatalogField[] =>
    FIELD_NAMES[docType].map((name) => ({
      name,
      required: (REQUIRED_FIELDS[docType] as readonly string[]).includes(name),
      ...kindOf(fieldSchema(docType, name) as z.ZodType),
    }));
  return { contract: of('contract'), invoice: of('invoice') };
};
