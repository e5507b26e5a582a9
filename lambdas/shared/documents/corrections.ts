import * as z from 'zod';
import { plainIssues } from '../plainIssues.js';
import {
  type DocType,
  FIELD_SCHEMAS,
  type FieldsOf,
  fieldSchema,
  isFieldOf,
  REQUIRED_FIELDS,
} from './docTypes.js';
import type { ClassifiedExtraction, ExtractedField, Extraction } from './extraction.js';

/** One reason a correction was refused, for the 422 body. */
export interface CorrectionIssue {
  field: string;
  message: string;
}

/** A field correction: a new value, or `null` to clear an optional field. */
export type Corrections<T extends DocType> = { [K in keyof FieldsOf[T]]?: FieldsOf[T][K] | null };

/** The outcome of `validateCorrections`. */
export type CorrectionsResult<T extends DocType> =
  | { ok: true; corrections: Corrections<T> }
  | { ok: false; issues: CorrectionIssue[] };

const CorrectionsObjectSchema = z.record(z.string(), z.unknown());

/**
 * Validates a reviewer's corrections (`{ field: value }`) against the same field schemas the
 * extractors use. Unknown fields, malformed values and clearing a required field are refused, each
 * with a message naming the field; the review API answers 422 with these issues.
 */
export const validateCorrections = <T extends DocType>(type: T, input: unknown): CorrectionsResult<T> => {
  const parsed = CorrectionsObjectSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      issues: [{ field: '(corrections)', message: 'must be an object of { field: value }' }],
    };
  }
  const issues: CorrectionIssue[] = [];
  const corrections: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(parsed.data)) {
    const schema = fieldSchema(type, field);
    if (!schema) {
      issues.push({ field, message: `is not a ${type} field` });
      continue;
    }
    if (value === null) {
      if ((REQUIRED_FIELDS[type] as readonly string[]).includes(field)) {
        issues.push({ field, message: 'is required and cannot be cleared' });
      } else corrections[field] = null;
      continue;
    }
    const result = schema.safeParse(value);
    if (result.success) corrections[field] = result.data;
    else
      issues.push(
        ...plainIssues(result.error, value).map((i) => ({
          field: i.field === '(body)' ? field : `${field}.${i.field}`,
          message: i.message,
        })),
      );
  }
  if (Object.keys(parsed.data).length === 0) issues.push({ field: '(corrections)', message: 'is empty' });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, corrections: corrections as Corrections<T> };
};

/**
 * Applies validated corrections to an extraction: a corrected field gets confidence 1, keeps the
 * source it replaced (the reviewer saw it) and is marked `corrected`; `null` removes the field.
 * Returns a new record; the input is not changed.
 */
export const applyCorrections = <E extends ClassifiedExtraction>(
  extraction: E,
  corrections: Corrections<E['docType']>,
): E => {
  const fields: Record<string, ExtractedField<unknown> | undefined> = { ...extraction.fields };
  for (const [field, value] of Object.entries(corrections)) {
    if (!isFieldOf(extraction.docType, field)) continue;
    if (value === null) {
      delete fields[field];
      continue;
    }
    const previous = fields[field];
    fields[field] = {
      value,
      confidence: 1,
      ...(previous?.source ? { source: previous.source } : {}),
      corrected: true,
    };
  }
  const rejected = extraction.rejected.filter((r) => !Object.hasOwn(corrections, r.field));
  return { ...extraction, fields, rejected } as E;
};

/** The outcome of `completeFields`. */
export type CompleteFieldsResult<T extends DocType> =
  | { ok: true; fields: FieldsOf[T] }
  | { ok: false; issues: CorrectionIssue[] };

/** What a reviewer reads for a schema issue: no "expected string, received undefined". */
const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a group of values',
};
const forPeople = (issue: { code: string; message: string; expected?: unknown }): string => {
  if (issue.code !== 'invalid_type') return issue.message;
  if (/received undefined/.test(issue.message)) return 'is missing: fill it in';
  return `must be ${TYPE_NAMES[String(issue.expected)] ?? String(issue.expected)}`;
};

/**
 * The extraction's values as a complete field record, checked with the full schema: what a
 * validated (approved) document's fields are, and what compare takes.
 */
export const completeFields = <T extends DocType>(
  extraction: ClassifiedExtraction & { docType: T },
): CompleteFieldsResult<T> => {
  const values = Object.fromEntries(
    Object.entries(extraction.fields).flatMap(([k, f]) =>
      f ? [[k, (f as ExtractedField<unknown>).value]] : [],
    ),
  );
  const result = FIELD_SCHEMAS[extraction.docType].safeParse(values);
  return result.success
    ? { ok: true, fields: result.data as FieldsOf[T] }
    : {
        ok: false,
        issues: result.error.issues.map((i) => ({
          field: i.path.join('.') || '(fields)',
          message: forPeople(i),
        })),
      };
};

/**
 * The extraction as a document of type `docType`, once a reviewer says what it is: an
 * unclassified document takes the type with no fields (the reviewer fills them in); a classified
 * one is kept as it is when the type is the same, and loses its fields when the reviewer retypes
 * it (an invoice's fields mean nothing for a contract).
 */
export const classifyAs = (extraction: Extraction, docType: DocType): ClassifiedExtraction =>
  extraction.docType === docType
    ? extraction
    : ({
        ...extraction,
        docType,
        classificationConfidence: 1,
        fields: {},
        rejected: [],
      } as ClassifiedExtraction);

/** Why an unclassified document cannot be approved or corrected yet. */
export const DOCUMENT_TYPE_NEEDED =
  'The document was not recognised as a contract or an invoice: choose its type before approving or correcting it.';
