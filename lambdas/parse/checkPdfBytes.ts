import { CorruptPdf, EmptyFile, NotAPdf } from './errors.js';

/**
 * How far from the start the `%PDF-` header and from the end the `%%EOF` marker may be. PDF 1.7
 * (ISO 32000-1) Annex H: readers accept the header within the first 1024 bytes and `%%EOF`
 * within the last 1024 bytes; anything further off is not a whole PDF.
 */
const MARKER_WINDOW = 1024;

/** What a non-PDF upload looks like, by leading bytes, so the message can name it. */
const SIGNATURES: readonly { bytes: readonly number[]; looksLike: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], looksLike: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], looksLike: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], looksLike: 'a GIF image' },
  { bytes: [0x49, 0x49, 0x2a, 0x00], looksLike: 'a TIFF image' },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], looksLike: 'a TIFF image' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], looksLike: 'a ZIP archive, such as a Word or Excel file' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], looksLike: 'an old-style Office document (.doc or .xls)' },
  { bytes: [0x7b, 0x5c, 0x72, 0x74, 0x66], looksLike: 'an RTF document' },
];

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Names what the bytes look like when they are clearly something else, for the NotAPdf message. */
const detectKind = (bytes: Uint8Array): string | undefined => {
  const match = SIGNATURES.find(({ bytes: magic }) => magic.every((byte, i) => bytes[i] === byte));
  if (match) return match.looksLike;
  const head = asBuffer(bytes).subarray(0, 512).toString('latin1');
  if (/^\s*</.test(head)) return 'an HTML or XML file';
  // Tabs, line breaks and printable ASCII only: someone uploaded a text file.
  if (/^[\t\n\r\x20-\x7e]+$/.test(head)) return 'a plain text file';
  return undefined;
};

/**
 * Cheap checks on the raw bytes before pdf.js sees them: empty, not a PDF at all, or cut off.
 * pdf.js is lenient (it parses files with no header and rebuilds missing cross-reference tables),
 * so these verdicts would otherwise surface as vague structure errors or as silently partial text.
 *
 * @throws EmptyFile, NotAPdf, or CorruptPdf (with `truncated: true`)
 */
export const checkPdfBytes = (bytes: Uint8Array): void => {
  if (bytes.byteLength === 0) throw new EmptyFile();
  const buffer = asBuffer(bytes);
  if (buffer.subarray(0, MARKER_WINDOW).indexOf('%PDF-', 0, 'latin1') === -1) {
    throw new NotAPdf({ detected: detectKind(bytes) });
  }
  if (buffer.subarray(-MARKER_WINDOW).lastIndexOf('%%EOF', undefined, 'latin1') === -1) {
    throw new CorruptPdf({ reason: 'it ends before its end-of-file marker (%%EOF)', truncated: true });
  }
};
