import { detectDocumentKind, isImageKind } from '../parse/documentKind.js';
import { baseName, xmlUploadText } from '../parse/embeddedXml.js';
import { imagePageCount } from '../parse/imagePages.js';
import { needsOcr, readPdf } from '../parse/pdfText.js';
import type { PdfText } from '../shared/pdfText.js';
import { type OcrSettingsInput, resolveOcrSettings } from './ocrSettings.js';
import { ocrText } from './ocrText.js';
import { recognizeDocument } from './tesseract/tesseractEngine.js';

/**
 * Any upload's bytes as the text artifact, exactly as the parse stage and (for scans and images)
 * the OCR stage with tesseract would write it, in this process and without their guards: for
 * benchmarks and tools on trusted files. `name` stands for the S3 key (a bare XML upload's
 * embedded file is named after it).
 *
 * @throws every parse and OCR error the stages would record
 */
export const readDocumentText = async (
  bytes: Uint8Array,
  options: { name: string; ocr?: OcrSettingsInput },
): Promise<PdfText> => {
  const kind = detectDocumentKind(bytes);
  if (kind === 'xml') return xmlUploadText(bytes, baseName(options.name));
  const settings = resolveOcrSettings({ engine: 'tesseract', ...options.ocr });
  if (isImageKind(kind)) {
    const before: PdfText = { pageCount: imagePageCount(bytes, kind), pages: [], origin: 'ocr' };
    return ocrText(before, await recognizeDocument({ bytes, kind, pageCount: before.pageCount, settings }));
  }
  const { text } = await readPdf(bytes);
  if (!needsOcr(text)) return text;
  return ocrText(text, await recognizeDocument({ bytes, kind, pageCount: text.pageCount, settings }));
};
