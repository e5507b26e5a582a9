import type { Extraction } from '../shared/documents/index.js';
import type { PdfText } from '../shared/pdfText.js';

/**
 * The record of a readable document of no recognised type: no fields, for a person to choose the
 * type and fill them in, or to reject it when its title (`titled`: "Quotation", "Lieferschein")
 * says it is no invoice or it lists the invoices it is about (`listsInvoices`, as a statement
 * does). Any extractor may conclude this; none rejects a readable document.
 */
export const unclassified = (
  text: PdfText,
  extractor: Extraction['extractor'],
  language: string | undefined,
  titled?: string,
  listsInvoices?: readonly string[],
): Extraction => ({
  schemaVersion: 1,
  docType: 'unclassified',
  classificationConfidence: 0,
  extractor,
  pageCount: text.pageCount,
  fields: {},
  rejected: [],
  ...(language ? { language } : {}),
  ...(titled ? { titled } : {}),
  ...(listsInvoices?.length ? { listsInvoices: [...listsInvoices] } : {}),
  textOrigin: text.origin ?? 'text-layer',
});
