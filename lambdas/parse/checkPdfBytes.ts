import { detectDocumentKind } from './documentKind.js';
import { UnsupportedFileType } from './errors.js';

const ARTICLES: Record<string, string> = {
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  tiff: 'a TIFF image',
  xml: 'an e-invoice XML file',
};

/**
 * Cheap checks on the raw bytes before pdf.js sees them: empty, not a PDF at all, or cut off.
 * pdf.js is lenient (it parses files with no header and rebuilds missing cross-reference tables),
 * so these verdicts would otherwise surface as vague structure errors or as silently partial text.
 * The other kinds Docket reads are routed before this (see `detectDocumentKind`); here they are
 * refused like anything else that is not a PDF.
 *
 * @throws EmptyFile, UnsupportedFileType, or CorruptPdf (with `truncated: true`)
 */
export const checkPdfBytes = (bytes: Uint8Array): void => {
  const kind = detectDocumentKind(bytes);
  if (kind !== 'pdf') throw new UnsupportedFileType({ detected: ARTICLES[kind] });
};
