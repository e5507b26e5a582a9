import { type EmbeddedFile, MAX_EMBEDDED_XML_CHARS, type PdfText } from '../shared/pdfText.js';
import { XmlNotUtf8, XmlTooLarge } from './errors.js';

/**
 * E-invoice XML as data: a PDF's XML attachments (ZUGFeRD, Factur-X) and bare CII/UBL uploads,
 * decoded to text and handed on unparsed. The extract stage parses it, with its own bounds on
 * entities, depth and size; nothing here looks past the first bytes.
 */

/** Most XML attachments carried per document (the artifact's bound). */
export const MAX_EMBEDDED_FILES = 20;

/** An attachment that looked like XML but was left out of the artifact, and why. */
export interface SkippedAttachment {
  name: string;
  reason: string;
}

/** What pdf.js's `getAttachments()` gives per attachment (the fields read here). */
export interface PdfAttachment {
  filename?: string;
  content?: Uint8Array;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** UTF-8 text without its byte-order mark, or undefined when the bytes are not UTF-8. */
const decodeUtf8 = (bytes: Uint8Array): string | undefined => {
  try {
    // ignoreBOM: false makes the decoder drop a leading BOM itself.
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
};

/** Whether the bytes start like XML: `<` after an optional BOM and whitespace. */
const startsLikeXml = (bytes: Uint8Array): boolean => {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (at < bytes.length && at < 1024 && [0x20, 0x09, 0x0a, 0x0d].includes(bytes[at] ?? 0)) at++;
  return bytes[at] === 0x3c;
};

/**
 * Keeps a PDF's XML attachments (a name ending `.xml`, or content that starts like XML), each
 * UTF-8 decoded with its BOM stripped, in the order pdf.js lists them. An attachment over
 * `MAX_EMBEDDED_XML_CHARS`, not UTF-8, or beyond `MAX_EMBEDDED_FILES` is skipped rather than
 * failing the document: its pages still carry readable text, which is worth more than a refusal.
 * Skipped ones are returned so the parse stage can record them.
 */
export const embeddedXmlOf = (
  attachments: Readonly<Record<string, PdfAttachment>> | null | undefined,
): { embedded: EmbeddedFile[]; skipped: SkippedAttachment[] } => {
  const embedded: EmbeddedFile[] = [];
  const skipped: SkippedAttachment[] = [];
  for (const [key, attachment] of Object.entries(attachments ?? {})) {
    const content = attachment.content;
    const name = (attachment.filename || key || 'attachment.xml').slice(0, 1024);
    if (!content || !(name.toLowerCase().endsWith('.xml') || startsLikeXml(content))) continue;
    const xml = decodeUtf8(content);
    if (xml === undefined) skipped.push({ name, reason: 'not UTF-8' });
    else if (xml.length > MAX_EMBEDDED_XML_CHARS) {
      skipped.push({ name, reason: `${xml.length} characters, over ${MAX_EMBEDDED_XML_CHARS}` });
    } else if (embedded.length >= MAX_EMBEDDED_FILES) {
      skipped.push({ name, reason: `more than ${MAX_EMBEDDED_FILES} XML attachments` });
    } else embedded.push({ name, xml });
  }
  return { embedded, skipped };
};

/** The file name of an S3 key (its last segment), as an embedded file's name. */
export const baseName = (key: string): string =>
  key.split('/').filter(Boolean).at(-1)?.slice(0, 1024) || 'upload.xml';

/**
 * The text artifact of a bare e-invoice XML upload: no pages, the XML as the one embedded file.
 * Call it only for bytes `detectDocumentKind` found to be XML.
 *
 * @throws XmlNotUtf8, XmlTooLarge (both permanent)
 */
export const xmlUploadText = (bytes: Uint8Array, name: string): PdfText => {
  const xml = decodeUtf8(bytes);
  if (xml === undefined) throw new XmlNotUtf8();
  if (xml.length > MAX_EMBEDDED_XML_CHARS) {
    throw new XmlTooLarge({ chars: xml.length, maxChars: MAX_EMBEDDED_XML_CHARS });
  }
  return { pageCount: 0, pages: [], origin: 'xml', embedded: [{ name: baseName(name), xml }] };
};
