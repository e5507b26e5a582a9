import type { Extraction } from '../shared/documents/index.js';
import type { PdfText } from '../shared/pdfText.js';

/** Turns a document's text into a classified, field-by-field extraction record. */
export interface Extractor {
  /** `heuristic` or `bedrock`, as written to the record. */
  readonly name: Extraction['extractor']['name'];
  /**
   * Classifies the document and extracts its fields. Throws `UnclassifiableDocument` (permanent)
   * when it is neither a contract nor an invoice; the Bedrock extractor also throws
   * `BedrockUnavailable` / `ModelOutputInvalid` (transient) and `BedrockRequestRejected` (permanent).
   */
  extract(text: PdfText): Promise<Extraction>;
}
