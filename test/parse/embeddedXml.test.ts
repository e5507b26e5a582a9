import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { embeddedXmlOf, MAX_EMBEDDED_FILES, xmlUploadText } from '../../lambdas/parse/embeddedXml.js';
import { extractPdfText, readPdf } from '../../lambdas/parse/pdfText.js';
import { MAX_EMBEDDED_XML_CHARS, PdfTextSchema } from '../../lambdas/shared/pdfText.js';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';

const FACTUR_X =
  '<?xml version="1.0" encoding="UTF-8"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:x">Müller</rsm:CrossIndustryInvoice>';
const encode = (value: string): Uint8Array => new TextEncoder().encode(value);

/** The invoice fixture with attachments, as a ZUGFeRD/Factur-X producer writes them. */
const withAttachments = async (files: { name: string; bytes: Uint8Array; mimeType: string }[]) => {
  const document = await PDFDocument.load(await fixtureBytes('invoice'));
  for (const file of files) await document.attach(file.bytes, file.name, { mimeType: file.mimeType });
  return new Uint8Array(await document.save());
};

describe('XML attachments of a PDF (ZUGFeRD, Factur-X)', () => {
  it('puts the XML attachments, UTF-8 decoded without BOM, in embedded, and leaves the others out', async () => {
    // Prepare: an XML with a BOM, an XML named .txt (recognised by content), and a PNG
    const pdf = await withAttachments([
      { name: 'factur-x.xml', bytes: encode(`\uFEFF${FACTUR_X}`), mimeType: 'text/xml' },
      { name: 'data.txt', bytes: encode('  <Invoice/>'), mimeType: 'text/plain' },
      { name: 'logo.png', bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47]), mimeType: 'image/png' },
    ]);

    // Act
    const text = await extractPdfText(pdf);

    // Assess
    expect(text.embedded).toEqual([
      { name: 'factur-x.xml', xml: FACTUR_X },
      { name: 'data.txt', xml: '  <Invoice/>' },
    ]);
    expect(text.origin).toBe('text-layer');
    expect(text.pages[0]?.lines).toContain('ACME Office Supplies Ltd');
    expect(PdfTextSchema.safeParse(text).success).toBe(true);
  });

  it('skips an attachment that is not UTF-8, and says so, rather than refuse a readable PDF', async () => {
    // Prepare: Latin-1 bytes for "Müller"
    const pdf = await withAttachments([
      {
        name: 'latin1.xml',
        bytes: Uint8Array.from([0x3c, 0x61, 0x3e, 0x4d, 0xfc, 0x3c, 0x2f, 0x61, 0x3e]),
        mimeType: 'text/xml',
      },
    ]);

    // Act
    const { text, skippedAttachments } = await readPdf(pdf);

    // Assess
    expect(text.embedded).toBeUndefined();
    expect(skippedAttachments).toEqual([{ name: 'latin1.xml', reason: 'not UTF-8' }]);
  });

  it('skips XML over MAX_EMBEDDED_XML_CHARS and beyond MAX_EMBEDDED_FILES, naming why', () => {
    // Prepare
    const big = new Uint8Array(MAX_EMBEDDED_XML_CHARS + 1).fill(0x20);
    big[0] = 0x3c;
    const many = Object.fromEntries(
      Array.from({ length: MAX_EMBEDDED_FILES + 1 }, (_, i) => [
        `f${i}`,
        { filename: `f${i}.xml`, content: encode('<a/>') },
      ]),
    );

    // Act
    const oversized = embeddedXmlOf({ big: { filename: 'big.xml', content: big } });
    const tooMany = embeddedXmlOf(many);

    // Assess
    expect(oversized).toEqual({
      embedded: [],
      skipped: [{ name: 'big.xml', reason: expect.stringMatching(/over 5000000/) }],
    });
    expect(tooMany.embedded).toHaveLength(MAX_EMBEDDED_FILES);
    expect(tooMany.skipped).toEqual([
      { name: `f${MAX_EMBEDDED_FILES}.xml`, reason: 'more than 20 XML attachments' },
    ]);
  });
});

describe('a bare e-invoice XML upload', () => {
  it('becomes an artifact with no pages and the XML as its one embedded file, named after the key', () => {
    // Act
    const text = xmlUploadText(encode(`\uFEFF${FACTUR_X}`), 'incoming/acme/2024/rechnung-42.xml');

    // Assess
    expect(text).toEqual({
      pageCount: 0,
      pages: [],
      origin: 'xml',
      embedded: [{ name: 'rechnung-42.xml', xml: FACTUR_X }],
    });
    expect(PdfTextSchema.safeParse(text).success).toBe(true);
  });

  it('refuses XML that is not UTF-8 or larger than the artifact carries', () => {
    // Prepare
    const latin1 = Uint8Array.from([0x3c, 0x49, 0x6e, 0x76, 0x6f, 0x69, 0x63, 0x65, 0x3e, 0xfc]);
    const huge = encode(`<Invoice>${' '.repeat(MAX_EMBEDDED_XML_CHARS)}</Invoice>`);

    // Act + Assess
    expect(() => xmlUploadText(latin1, 'a.xml')).toThrow(
      expect.objectContaining({ name: 'XmlNotUtf8', retryable: false }),
    );
    expect(() => xmlUploadText(huge, 'a.xml')).toThrow(
      expect.objectContaining({ name: 'XmlTooLarge', retryable: false }),
    );
  });
});
