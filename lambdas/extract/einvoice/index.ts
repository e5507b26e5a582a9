import type { EmbeddedFile } from '../../shared/pdfText.js';
import { EInvoiceUnreadable } from '../errors.js';
import { readCii } from './cii.js';
import { type ConsistencyReport, checkEn16931 } from './en16931.js';
import type { EInvoiceData } from './types.js';
import { readUbl } from './ubl.js';
import { parseXmlTree, type XmlNode } from './xmlTree.js';

export { type ConsistencyReport, checkEn16931 } from './en16931.js';
export type * from './types.js';
export { MAX_XML_CHARS, MAX_XML_DEPTH } from './xmlTree.js';

/** An e-invoice read from a document: its data, whether its sums check, and where it came from. */
export interface EInvoiceReading {
  data: EInvoiceData;
  report: ConsistencyReport;
  /** The attachment (or upload) name. */
  attachment: string;
}

/** What reading a document's XML gave: an e-invoice, XML that could not be read, or nothing. */
export type EInvoiceOutcome =
  | { kind: 'einvoice'; reading: EInvoiceReading }
  | { kind: 'unreadable'; attachment: string; error: EInvoiceUnreadable }
  | { kind: 'none' };

/** The names e-invoice standards give their attachment, tried first. */
const STANDARD_NAMES = /^(?:factur-x|zugferd-invoice|xrechnung|zugferd[-_]?invoice|order-x)\.xml$/i;

const fromTree = (tree: XmlNode): EInvoiceData | undefined => {
  if ('CrossIndustryInvoice' in tree) return readCii(tree, 'cii');
  if ('CrossIndustryDocument' in tree) return readCii(tree, 'zugferd1');
  if ('Invoice' in tree) return readUbl(tree, 'Invoice');
  if ('CreditNote' in tree) return readUbl(tree, 'CreditNote');
  return undefined;
};

/**
 * Finds and reads the e-invoice among a document's XML files (a PDF's attachments, or a bare
 * upload): the standard attachment names first, then any CII or UBL root. XML that is not an
 * invoice (other attachments) is passed over; an invoice attachment that cannot be read safely
 * is reported as `unreadable` so the caller can fall back to the printed page.
 */
export const readEInvoice = (files: readonly EmbeddedFile[]): EInvoiceOutcome => {
  const ordered = [...files].sort(
    (a, b) => Number(STANDARD_NAMES.test(b.name)) - Number(STANDARD_NAMES.test(a.name)),
  );
  let firstError: { attachment: string; error: EInvoiceUnreadable } | undefined;
  for (const file of ordered) {
    let tree: XmlNode;
    try {
      tree = parseXmlTree(file.xml);
    } catch (error) {
      if (!(error instanceof EInvoiceUnreadable)) throw error;
      firstError ??= { attachment: file.name, error };
      continue;
    }
    const data = fromTree(tree);
    if (!data) continue;
    return { kind: 'einvoice', reading: { data, report: checkEn16931(data), attachment: file.name } };
  }
  return firstError ? { kind: 'unreadable', ...firstError } : { kind: 'none' };
};
