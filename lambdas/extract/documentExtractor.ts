import {
  confidenceFrom,
  type EInvoiceSummary,
  EVIDENCE_WEIGHT,
  type ExtractedField,
  type Extraction,
  fieldValues,
  normalizeCompanyName,
  withEvidence,
} from '../shared/documents/index.js';
import type { PdfText } from '../shared/pdfText.js';
import { crossCheckPrinted } from './einvoice/crossCheck.js';
import { einvoiceFields, NOT_INVOICE_CODES } from './einvoice/fields.js';
import { type EInvoiceReading, readEInvoice } from './einvoice/index.js';
import { UnclassifiableDocument } from './errors.js';
import type { Extractor } from './extractor.js';
import { finderContext } from './text/context.js';
import { HeuristicExtractor } from './text/heuristicExtractor.js';
import { indexText } from './text/textIndex.js';
import { unclassified } from './unclassified.js';

const PARTIES = new Set(['vendor', 'customer', 'provider']);

/** Two readers' values of a field agree: party names after normalisation, anything else as data. */
const sameValue = (field: string, a: unknown, b: unknown): boolean =>
  PARTIES.has(field) && typeof a === 'string' && typeof b === 'string'
    ? normalizeCompanyName(a) === normalizeCompanyName(b)
    : JSON.stringify(a) === JSON.stringify(b);

/** Written to every record read from e-invoice data; bump when a change alters what it returns. */
export const EINVOICE_READER_VERSION = '1.1.0';

/**
 * Extraction in order of trust: a document that carries its invoice as structured data (a
 * ZUGFeRD / Factur-X / XRechnung attachment, or a bare CII / UBL upload) gives its fields from that
 * data, checked against its own sums and against the printed page; anything else is read from its
 * text by the configured extractor (the layout heuristics, or a model). An attachment that cannot
 * be read safely leaves the printed page to speak, and the record says why.
 */
export class DocumentExtractor implements Extractor {
  readonly name: Extractor['name'];

  /** @param textExtractor reads the page when there is no e-invoice data (heuristics or a model). */
  constructor(
    readonly textExtractor: Extractor,
    private readonly heuristics: Extractor = new HeuristicExtractor(),
  ) {
    this.name = textExtractor.name;
  }

  async extract(text: PdfText): Promise<Extraction> {
    const outcome = text.embedded?.length ? readEInvoice(text.embedded) : ({ kind: 'none' } as const);
    if (outcome.kind === 'unreadable' && text.origin === 'xml') throw outcome.error;
    if (outcome.kind === 'none' && text.origin === 'xml') {
      throw new UnclassifiableDocument('the XML is neither a UN/CEFACT CII nor a UBL 2.1 invoice');
    }
    const hasText = text.pages.some((p) => p.lines.some((l) => l.trim() !== ''));
    if (outcome.kind !== 'einvoice') {
      const extraction = await this.withSecondReading(await this.textExtractor.extract(text), text);
      if (outcome.kind !== 'unreadable') return extraction;
      const { attachment, error } = outcome;
      return {
        ...extraction,
        einvoiceUnreadable: { attachment: attachment.slice(0, 300), reason: error.reason.slice(0, 500) },
      };
    }
    const printed = hasText ? await this.printedFields(text) : {};
    return fromEInvoice(outcome.reading, text, hasText, printed);
  }

  /**
   * A model's answers checked against the layout heuristics' reading of the same page: where the
   * two independent readers agree on a value, that is agreement; the model alone is a bare reading.
   */
  private async withSecondReading(extraction: Extraction, text: PdfText): Promise<Extraction> {
    if (extraction.extractor.name !== 'bedrock' || extraction.docType === 'unclassified') return extraction;
    let second: Extraction;
    try {
      second = await this.heuristics.extract(text);
    } catch (error) {
      if (error instanceof UnclassifiableDocument) return extraction;
      throw error;
    }
    if (second.docType !== extraction.docType) return extraction;
    const theirs = fieldValues(second) as Record<string, unknown>;
    const fields = extraction.fields as Record<string, ExtractedField<unknown> | undefined>;
    for (const [name, field] of Object.entries(fields)) {
      if (!field || theirs[name] === undefined || !sameValue(name, field.value, theirs[name])) continue;
      field.evidence = withEvidence(field.evidence ?? [], {
        kind: 'agreement',
        weight: EVIDENCE_WEIGHT.agreement,
        detail: 'the layout heuristics read the same value',
      });
      field.confidence = confidenceFrom(field.evidence);
    }
    return extraction;
  }

  /** What the page's own extraction reads, to show a reviewer beside the data when they differ. */
  private async printedFields(text: PdfText): Promise<Record<string, unknown>> {
    try {
      const extraction = await this.textExtractor.extract(text);
      return extraction.docType === 'invoice' ? fieldValues(extraction) : {};
    } catch (error) {
      if (error instanceof UnclassifiableDocument) return {};
      throw error;
    }
  }
}

const fromEInvoice = (
  reading: EInvoiceReading,
  text: PdfText,
  visible: boolean,
  printed: Record<string, unknown>,
): Extraction => {
  const ctx = finderContext(indexText(text));
  const extractor = { name: 'einvoice', version: EINVOICE_READER_VERSION } as const;
  // A pro forma's data is an invoice's, but its type code says it is none: as with a "Proforma
  // invoice" title on a page, a person rejects it or says what it is.
  const typeCode = reading.data.typeCode?.value.trim() ?? '';
  const notInvoice = NOT_INVOICE_CODES[typeCode];
  if (notInvoice) return unclassified(text, extractor, ctx.language, `${notInvoice} (type code ${typeCode})`);
  const { fields, rejected } = einvoiceFields(reading);
  const crossCheck = visible ? crossCheckPrinted(ctx, fields, printed) : [];
  for (const field of Object.values(fields)) field.confidence = confidenceFrom(field.evidence ?? []);
  const { data, report, attachment } = reading;
  const einvoice: EInvoiceSummary = {
    syntax: data.syntax,
    attachment,
    ...(data.profile ? { profile: data.profile.slice(0, 300) } : {}),
    ...(data.typeCode ? { typeCode: data.typeCode.value.slice(0, 10) } : {}),
    consistent: report.consistent,
    issues: report.issues.slice(0, 50).map((i) => i.slice(0, 500)),
    visible,
    sellerTaxIds: [...data.seller.vatIds, ...data.seller.taxNumbers]
      .map((t) => t.value.slice(0, 64))
      .slice(0, 10),
    crossCheck,
  };
  return {
    schemaVersion: 1,
    docType: 'invoice',
    classificationConfidence: 0.99,
    extractor,
    pageCount: text.pageCount,
    fields,
    rejected,
    ...(ctx.language ? { language: ctx.language } : {}),
    textOrigin: text.origin ?? 'text-layer',
    einvoice,
  } as Extraction;
};
