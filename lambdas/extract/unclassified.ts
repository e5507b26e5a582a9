import type { Extraction } from '../shared/documents/index.js';
import type { PdfText } from '../shared/pdfText.js';

/**
 * The record of a readable document of no recognised type: no fields, for a person to choose the
 * type and fill them in. Any extractor may conclude this; none rejects a readable document.
 */
export const unclassified = (
  text: PdfText,
  extractor: Extraction['extractor'],
  language: string | undefined,
): Extraction => ({
  schemaVersion: 1,
  docType: 'unclassified',
  classificationConfidence: 0,
  extractor,
  pageCount: text.pageCount,
  fields: {},
  rejected: [],
  ...(language ? { language } : {}),
  textOrigin: text.origin ?? 'text-layer',
});
