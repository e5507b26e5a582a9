import * as z from 'zod';
import type { ContractFields } from './contractFields.js';
import { type DocType, FIELD_SCHEMAS, type FieldsOf } from './docTypes.js';
import { type Evidence, EvidenceSchema, MAX_EVIDENCE_PER_FIELD } from './evidence.js';
import type { InvoiceFields } from './invoiceFields.js';

const fraction = z.number().min(0).max(1);

const BoxSchema = z.object({ x: fraction, y: fraction, width: fraction, height: fraction }).strict();

/**
 * Where a value was read on the page: 1-based page and line of the text artifact, that line, and
 * (when the text carries geometry) the line's box as fractions of the page from its top-left. A
 * line read by OCR also has its words with their boxes: a scan has no text layer for the console
 * to find the value's own words in, so it finds them here.
 */
export const TextSourceSchema = z
  .object({
    page: z.int().min(1),
    line: z.int().min(1),
    text: z.string().max(2000),
    box: BoxSchema.optional(),
    words: z
      .array(z.object({ text: z.string().max(200), box: BoxSchema }).strict())
      .max(200)
      .optional(),
  })
  .strict();

/** Where a value was read in an e-invoice's structured data: the file and the element's path. */
export const AttachmentSourceSchema = z
  .object({
    attachment: z.string().min(1).max(1024),
    path: z.string().min(1).max(500),
  })
  .strict();

/** Where a value was read: a line of the page, or an element of the e-invoice data. */
export const FieldSourceSchema = z.union([TextSourceSchema, AttachmentSourceSchema]);

/** Where a value was read. */
export type FieldSource = z.infer<typeof FieldSourceSchema>;
/** Where a value was read on the page. */
export type TextSource = z.infer<typeof TextSourceSchema>;
/** Where a value was read in the e-invoice data. */
export type AttachmentSource = z.infer<typeof AttachmentSourceSchema>;

/** True when a source is a line of the page (not the e-invoice data). */
export const isTextSource = (source: FieldSource | undefined): source is TextSource =>
  source !== undefined && 'page' in source;

/** One extracted field value with how sure the extractor is and where it came from. */
export interface ExtractedField<V> {
  value: V;
  /** 0-1: how likely the value is right. */
  confidence: number;
  /** Where the value was read; absent for a reviewer's correction. */
  source?: FieldSource;
  /** What supports (or doubts) the value; `confidence` is computed from it (`confidenceFrom`). */
  evidence?: Evidence[];
  /** Other readings of the same text (e.g. 05/03/2025 as 5 March or 3 May): the value is ambiguous. */
  alternatives?: V[];
  /** Set when a reviewer supplied the value. */
  corrected?: boolean;
  /**
   * A value a person set in an earlier run, kept by this one whatever the extractor read now:
   * who set it and when (`docket reprocess` never overwrites it).
   */
  locked?: { by: string; at: string };
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
    /** `einvoice` when the fields come from the document's structured data. */
    name: z.enum(['heuristic', 'bedrock', 'einvoice']),
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
      evidence: z.array(EvidenceSchema).max(MAX_EVIDENCE_PER_FIELD).optional(),
      alternatives: z.array(value).max(10).optional(),
      corrected: z.boolean().optional(),
      locked: z
        .object({ by: z.string().min(1).max(256), at: z.string().min(1).max(64) })
        .strict()
        .optional(),
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

/** What the record says about an e-invoice's structured data. */
export const EInvoiceSummarySchema = z
  .object({
    /** `cii` (ZUGFeRD 2 / Factur-X / XRechnung CII), `zugferd1` or `ubl`. */
    syntax: z.enum(['cii', 'zugferd1', 'ubl']),
    /** The attachment (or upload) it was read from. */
    attachment: z.string().min(1).max(1024),
    /** The specification / profile identifier the data declares. */
    profile: z.string().max(300).optional(),
    /** UNTDID 1001 document type code (380 invoice, 381 credit note, 384 corrected invoice). */
    typeCode: z.string().max(10).optional(),
    /** True when every EN 16931 sum that the data states checks to the cent. */
    consistent: z.boolean(),
    /** The sums that did not check, each in words. */
    issues: z.array(z.string().max(500)).max(50),
    /** True when the document also shows the invoice as text (a PDF, not a bare XML upload). */
    visible: z.boolean(),
    /** Every VAT and tax id the data states for the seller (the vendor master is checked against each). */
    sellerTaxIds: z.array(z.string().max(64)).max(10),
    /** Whether the printed page shows what the data says, for the fields that must agree. */
    crossCheck: z
      .array(
        z
          .object({
            field: z.string().max(64),
            /** `agrees`: printed as in the data; `differs`: the page says otherwise; `not_printed`: not found. */
            status: z.enum(['agrees', 'differs', 'not_printed']),
            /** The data's value, as text. */
            data: z.string().max(300),
            /** What the page shows instead, when it differs. */
            printed: z.string().max(300).optional(),
          })
          .strict(),
      )
      .max(30),
  })
  .strict();

/** What the record says about an e-invoice's structured data. */
export type EInvoiceSummary = z.infer<typeof EInvoiceSummarySchema>;

const common = {
  schemaVersion: z.literal(1),
  /** 0-1: how sure the classifier is of `docType`. */
  classificationConfidence: z.number().min(0).max(1),
  extractor: ExtractorInfoSchema,
  pageCount: z.int().min(0),
  rejected: z.array(RejectedValueSchema).max(1000),
  /** ISO 639-1 code of the document's language, when the vocabularies recognised it. */
  language: z
    .string()
    .regex(/^[a-z]{2}$/)
    .optional(),
  /** How the text was obtained (absent in records written before OCR: the text layer). */
  textOrigin: z.enum(['text-layer', 'ocr', 'xml']).optional(),
  /** The e-invoice the document carries or is, and whether its data adds up. */
  einvoice: EInvoiceSummarySchema.optional(),
  /**
   * An e-invoice attachment that could not be read safely (broken, an entity bomb, too deep), so
   * the fields come from the printed page instead: a reviewer sees why the data was not used.
   */
  einvoiceUnreadable: z
    .object({ attachment: z.string().max(300), reason: z.string().max(500) })
    .strict()
    .optional(),
};

/** The extraction of a contract. */
export const ContractExtractionSchema = z
  .object({ docType: z.literal('contract'), ...common, fields: extractedFieldsSchema('contract') })
  .strict();

/** The extraction of an invoice. */
export const InvoiceExtractionSchema = z
  .object({ docType: z.literal('invoice'), ...common, fields: extractedFieldsSchema('invoice') })
  .strict();

/**
 * The extraction of a readable document that is neither a recognisable contract nor invoice: no
 * fields; a person picks the type and fills them in review.
 */
export const UnclassifiedExtractionSchema = z
  .object({
    docType: z.literal('unclassified'),
    ...common,
    fields: z.object({}).strict(),
    /**
     * The title that says what the document is instead of an invoice ("Quotation", "Lieferschein",
     * "Devis"): the reviewer rejects it, or picks its type if it is one after all.
     */
    titled: z.string().min(1).max(100).optional(),
    /**
     * The invoice numbers it lists, as a statement of account or a reminder does: the reviewer
     * rejects it, as the invoices are booked on their own.
     */
    listsInvoices: z.array(z.string().min(1).max(60)).min(2).max(10).optional(),
  })
  .strict();

/** The record written to `artifacts/{id}/extraction.json`. */
export const ExtractionSchema = z.discriminatedUnion('docType', [
  ContractExtractionSchema,
  InvoiceExtractionSchema,
  UnclassifiedExtractionSchema,
]);

/** A contract's extraction record. */
export type ContractExtraction = z.infer<typeof ContractExtractionSchema>;
/** An invoice's extraction record. */
export type InvoiceExtraction = z.infer<typeof InvoiceExtractionSchema>;
/** The extraction of a document no type was recognised for. */
export type UnclassifiedExtraction = z.infer<typeof UnclassifiedExtractionSchema>;
/** The extraction record of either doc type, or of an unclassified document. */
export type Extraction = z.infer<typeof ExtractionSchema>;
/** An extraction whose document type is known. */
export type ClassifiedExtraction = ContractExtraction | InvoiceExtraction;

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
