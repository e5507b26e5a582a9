import { describe, expect, it } from 'vitest';
import { detectDocumentKind, sniffXmlRoot } from '../../lambdas/parse/documentKind.js';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const CII =
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- Factur-X -->\n<rsm:CrossIndustryInvoice ' +
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"><rsm:ExchangedDocument/></rsm:CrossIndustryInvoice>';

describe('detectDocumentKind (from the bytes, never the name)', () => {
  it.each([
    ['a PDF', async () => fixtureBytes('invoice'), 'pdf'],
    ['a PNG', async () => Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'png'],
    ['a JPEG', async () => Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'jpeg'],
    ['a little-endian TIFF', async () => Uint8Array.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]), 'tiff'],
    ['a big-endian TIFF', async () => Uint8Array.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]), 'tiff'],
    ['a CII invoice with declaration and comment', async () => text(CII), 'xml'],
    ['a CII invoice with a BOM', async () => text(`\uFEFF${CII}`), 'xml'],
    [
      'a UBL Invoice',
      async () => text('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'),
      'xml',
    ],
    ['a UBL CreditNote', async () => text('<?xml version="1.0"?><ubl:CreditNote xmlns:ubl="x">'), 'xml'],
    ['a ZUGFeRD 1.0 document', async () => text('<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:x">'), 'xml'],
  ] as const)('recognises %s', async (_what, bytes, kind) => {
    // Act
    const detected = detectDocumentKind(await bytes());

    // Assess
    expect(detected).toBe(kind);
  });

  it.each([
    ['a GIF', Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]), 'a GIF image'],
    ['a Word file', Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), 'a ZIP archive'],
    ['an HTML page', text('<!DOCTYPE html><html><body>Invoice</body></html>'), 'an HTML page'],
    [
      'another XML',
      text('<?xml version="1.0"?><Order xmlns="urn:x"/>'),
      'root element is <Order>, not an e-invoice',
    ],
    ['a text file', text('Invoice 42\nTotal 10.00\n'), 'a plain text file'],
    ['UTF-16 XML', Uint8Array.from([0xff, 0xfe, 0x3c, 0x00]), 'e-invoice XML must be UTF-8'],
  ])('refuses %s with UnsupportedFileType naming it and the accepted kinds', (_what, bytes, looksLike) => {
    // Act
    const refuse = () => detectDocumentKind(bytes);

    // Assess
    expect(refuse).toThrow(expect.objectContaining({ name: 'UnsupportedFileType', retryable: false }));
    expect(refuse).toThrow(looksLike);
    expect(refuse).toThrow(
      /accepts a PDF, a PNG, JPEG or TIFF image.*CII CrossIndustryInvoice, or UBL 2\.1 Invoice or CreditNote/,
    );
  });

  it('refuses an empty file and a PDF cut off before its end marker', async () => {
    // Prepare
    const truncated = await fixtureBytes('truncated');

    // Act + Assess
    expect(() => detectDocumentKind(new Uint8Array(0))).toThrow(
      expect.objectContaining({ name: 'EmptyFile' }),
    );
    expect(() => detectDocumentKind(truncated)).toThrow(expect.objectContaining({ name: 'CorruptPdf' }));
  });

  it('only sniffs: a DOCTYPE names the root (its internal subset is left to the XML parser downstream)', () => {
    // Prepare: the start of a billion-laughs file
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><Invoice>&lol2;</Invoice>';

    // Act
    const root = sniffXmlRoot(bomb);

    // Assess
    expect(root).toBe('Invoice');
    expect(sniffXmlRoot('not xml')).toBeUndefined();
  });
});
