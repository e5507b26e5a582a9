import { CorruptPdf, EmptyFile, UnsupportedFileType } from './errors.js';

/** The kinds of upload Docket reads, told apart by their bytes (never by the file name). */
export const DOCUMENT_KINDS = ['pdf', 'png', 'jpeg', 'tiff', 'xml'] as const;
/** One kind of upload Docket reads. */
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
/** The kinds that carry no text of their own: they go to OCR. */
export type ImageKind = Extract<DocumentKind, 'png' | 'jpeg' | 'tiff'>;

/** True for the image kinds (scans and photos), which only OCR can read. */
export const isImageKind = (kind: DocumentKind): kind is ImageKind =>
  kind === 'png' || kind === 'jpeg' || kind === 'tiff';

/**
 * How far from the start the `%PDF-` header and from the end the `%%EOF` marker may be. PDF 1.7
 * (ISO 32000-1) Annex H: readers accept the header within the first 1024 bytes and `%%EOF`
 * within the last 1024 bytes; anything further off is not a whole PDF.
 */
const MARKER_WINDOW = 1024;

/** Leading bytes of the image kinds Docket reads. */
const IMAGE_SIGNATURES: readonly { bytes: readonly number[]; kind: ImageKind }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], kind: 'png' },
  { bytes: [0xff, 0xd8, 0xff], kind: 'jpeg' },
  { bytes: [0x49, 0x49, 0x2a, 0x00], kind: 'tiff' },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], kind: 'tiff' },
];

/** What a refused upload looks like, by leading bytes, so the message can name it. */
const OTHER_SIGNATURES: readonly { bytes: readonly number[]; looksLike: string }[] = [
  { bytes: [0x47, 0x49, 0x46, 0x38], looksLike: 'a GIF image' },
  { bytes: [0x52, 0x49, 0x46, 0x46], looksLike: 'a RIFF file such as a WebP image' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], looksLike: 'a ZIP archive, such as a Word or Excel file' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], looksLike: 'an old-style Office document (.doc or .xls)' },
  { bytes: [0x7b, 0x5c, 0x72, 0x74, 0x66], looksLike: 'an RTF document' },
  { bytes: [0xfe, 0xff], looksLike: 'a UTF-16 text file (e-invoice XML must be UTF-8)' },
  { bytes: [0xff, 0xfe], looksLike: 'a UTF-16 text file (e-invoice XML must be UTF-8)' },
];

/** The root elements of the e-invoice syntaxes accepted as a bare upload (local names). */
const E_INVOICE_ROOTS: ReadonlySet<string> = new Set([
  // UN/CEFACT CII D16B (ZUGFeRD 2.x, Factur-X, XRechnung CII)
  'CrossIndustryInvoice',
  // ZUGFeRD 1.0
  'CrossIndustryDocument',
  // UBL 2.1
  'Invoice',
  'CreditNote',
]);

/** How much of an XML upload is looked at to find its root element. */
const XML_SNIFF_CHARS = 8192;

const startsWith = (bytes: Uint8Array, magic: readonly number[]): boolean =>
  magic.every((byte, i) => bytes[i] === byte);

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The local name of the root element of an XML text, or undefined when the text does not start
 * like XML. Only the prolog is skipped (BOM, declaration, comments, processing instructions, a
 * DOCTYPE without an internal subset): this sniffs, it does not parse. A DOCTYPE with an internal
 * subset (`[...]`, where entity bombs live) is left for the XML parser downstream to refuse, and
 * is reported here as the root it names.
 */
export const sniffXmlRoot = (head: string): string | undefined => {
  let rest = head.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    const prolog = /^(<\?[\s\S]*?\?>|<!--[\s\S]*?-->)/.exec(rest);
    if (!prolog) break;
    rest = rest.slice(prolog[0].length);
  }
  const doctype = /^<!DOCTYPE\s+(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/i.exec(rest);
  if (doctype) return doctype[1];
  return /^<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]/.exec(rest)?.[1];
};

/** Names what refused bytes look like, for the UnsupportedFileType message. */
const describeOther = (bytes: Uint8Array): string | undefined => {
  const match = OTHER_SIGNATURES.find(({ bytes: magic }) => startsWith(bytes, magic));
  if (match) return match.looksLike;
  const head = asBuffer(bytes).subarray(0, XML_SNIFF_CHARS).toString('utf8');
  const root = sniffXmlRoot(head);
  if (root !== undefined) {
    return root.toLowerCase() === 'html'
      ? 'an HTML page'
      : `an XML file whose root element is <${root}>, not an e-invoice`;
  }
  // Tabs, line breaks and printable ASCII only: someone uploaded a text file.
  if (/^[\t\n\r\x20-\x7e]+$/.test(head.slice(0, 512))) return 'a plain text file';
  return undefined;
};

/**
 * Tells which kind of document the bytes are, from the bytes alone: a PDF (`%PDF-` within the
 * first 1024 bytes, `%%EOF` within the last 1024), a PNG, JPEG or TIFF image by signature, or a
 * CII/UBL e-invoice XML by its root element. Nothing else is read.
 *
 * @throws EmptyFile; UnsupportedFileType naming what the bytes look like; CorruptPdf (truncated)
 *   for a PDF cut off before its end-of-file marker
 */
export const detectDocumentKind = (bytes: Uint8Array): DocumentKind => {
  if (bytes.byteLength === 0) throw new EmptyFile();
  const kind = documentKindOfHead(bytes);
  if (kind === 'pdf') {
    if (asBuffer(bytes).subarray(-MARKER_WINDOW).lastIndexOf('%%EOF', undefined, 'latin1') === -1) {
      throw new CorruptPdf({ reason: 'it ends before its end-of-file marker (%%EOF)', truncated: true });
    }
  }
  if (kind) return kind;
  throw new UnsupportedFileType({ detected: describeOther(bytes) });
};

/** How many leading bytes `documentKindOfHead` needs to see. */
export const DOCUMENT_HEAD_BYTES = XML_SNIFF_CHARS;

/**
 * The kind the leading bytes of a file announce (its first `DOCUMENT_HEAD_BYTES`), or undefined
 * for anything Docket does not read: what an uploader checks before sending a file, so it sends
 * exactly what parse will take (parse still checks the whole file).
 */
export const documentKindOfHead = (head: Uint8Array): DocumentKind | undefined => {
  const image = IMAGE_SIGNATURES.find(({ bytes: magic }) => startsWith(head, magic));
  if (image) return image.kind;
  const buffer = asBuffer(head);
  if (buffer.subarray(0, MARKER_WINDOW).indexOf('%PDF-', 0, 'latin1') !== -1) return 'pdf';
  const root = sniffXmlRoot(buffer.subarray(0, XML_SNIFF_CHARS).toString('utf8'));
  return root !== undefined && E_INVOICE_ROOTS.has(root) ? 'xml' : undefined;
};
