import { readFile } from 'node:fs/promises';
import type { Extractor } from '../../lambdas/extract/index.js';
import { readDocumentText } from '../../lambdas/ocr/readDocumentText.js';
import {
  type Extraction,
  type ProviderLookup,
  REQUIRED_FIELDS,
} from '../../lambdas/shared/documents/index.js';
import type { PdfText } from '../../lambdas/shared/pdfText.js';
import { validateDocument } from '../../lambdas/validate/index.js';
import { transition } from '../../statemachine/index.js';
import { valueMatches } from '../../test/fixtures/corpus/scoring.js';
import type { Variant } from './realCorpus.js';

const MONEY = new Set(['total', 'tax', 'subtotal']);

/** One field of one real document, as extracted and judged against the truth. */
export interface RealField {
  field: string;
  right: boolean;
  /** Extracted at all. */
  found: boolean;
  /** Validated confidence 0-1 (0 when not found). */
  confidence: number;
}

/** The outcome of one variant. */
export interface RealResult {
  variant: Variant;
  fields: RealField[];
  autoApproved: boolean;
  /** The document was rejected for good (an error), not sent to a person. */
  rejected?: string;
  reasons: string[];
  /** On a page path: the customer read from the page, judged against the e-invoice's buyer. */
  buyer?: RealField;
  /** The e-invoice data's number is not on its own page: the page is another invoice. */
  pageIsAnotherInvoice: boolean;
  extractMs: number;
}

/** Reads a variant's file as the parse (and, for a scan, the OCR) stage would. */
export const readVariant = async (file: string): Promise<PdfText> =>
  readDocumentText(new Uint8Array(await readFile(file)), { name: file });

const judgeBuyer = (buyer: string, customer: unknown, confidence: number): RealField => ({
  field: 'customer',
  found: customer !== undefined,
  right: customer !== undefined && valueMatches('customer', buyer, customer),
  confidence: customer === undefined ? 0 : confidence,
});

/** Runs one variant through extraction, validation and the transition table. */
export const runVariant = async (
  variant: Variant,
  read: (file: string) => Promise<PdfText>,
  extractor: Extractor,
  lookupProvider: ProviderLookup,
  threshold: number,
): Promise<RealResult> => {
  const t0 = performance.now();
  let extraction: Extraction;
  try {
    extraction = await extractor.extract(await read(variant.file));
  } catch (error) {
    return {
      variant,
      fields: Object.keys(variant.doc.truth).map((field) => ({
        field,
        right: false,
        found: false,
        confidence: 0,
      })),
      autoApproved: false,
      rejected: (error as Error).name,
      reasons: [],
      pageIsAnotherInvoice: false,
      extractMs: performance.now() - t0,
    };
  }
  const extractMs = performance.now() - t0;
  const validation = await validateDocument(extraction, {
    lookupProvider,
    confidenceThreshold: threshold,
    now: new Date('2025-06-01T00:00:00Z'),
  });
  const decision = transition('validating', 'validation_completed', {
    confidence: validation.confidence,
    confidenceThreshold: threshold,
    requiredFieldsValid: validation.requiredFieldsValid,
  });
  const values = extraction.fields as Record<string, { value: unknown } | undefined>;
  // The truth is read from the XML, where a credit note states positive amounts; its printed page
  // shows the same amounts negative. On the page's paths the sign is presentation, not a value.
  const creditNote = values.kind?.value === 'credit_note' && variant.path !== 'xml';
  const fields = Object.entries(variant.doc.truth).map(([field, truth]) => {
    const value = values[field]?.value;
    const magnitude = (v: unknown) => (creditNote && MONEY.has(field) ? String(v).replace(/^-/, '') : v);
    return {
      field,
      found: value !== undefined,
      right: value !== undefined && valueMatches(field, magnitude(truth), magnitude(value)),
      confidence: value === undefined ? 0 : (validation.fieldConfidence[field] ?? 0),
    };
  });
  // The xml path reads the customer from the very data the buyer comes from: nothing to judge.
  const buyer =
    variant.doc.buyer !== undefined && (variant.path === 'text' || variant.path.startsWith('image'))
      ? judgeBuyer(variant.doc.buyer, values.customer?.value, validation.fieldConfidence.customer ?? 0)
      : undefined;
  const cross = extraction.einvoice?.crossCheck ?? [];
  const notPrinted = (f: string) => cross.some((c) => c.field === f && c.status !== 'agrees');
  return {
    variant,
    fields,
    autoApproved: decision.ok && decision.to === 'validated',
    reasons: validation.reasons.map((r) => r.code),
    ...(buyer ? { buyer } : {}),
    // Another invoice number on the page than in the data: the page is another invoice.
    pageIsAnotherInvoice: notPrinted('invoiceNumber'),
    extractMs,
  };
};

/** True when every required invoice field the truth states was extracted right. */
export const requiredRight = (result: RealResult): boolean =>
  (REQUIRED_FIELDS.invoice as readonly string[]).every((f) => {
    const outcome = result.fields.find((x) => x.field === f);
    return outcome === undefined || outcome.right;
  });
