import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ParseError } from '../../lambdas/parse/errors.js';
import { extractPdfText, type ParseProgress } from '../../lambdas/parse/pdfText.js';
import { PermanentError } from '../../lambdas/shared/errors.js';
import { MANY_PAGES } from '../fixtures/badPdfs.js';
import { type FixtureName, fixtureBytes, fixturePath } from '../fixtures/pdfFixtures.js';
import { INVOICE_ROWS } from '../fixtures/textPdfs.js';

/** Runs the extraction and returns the error it must throw. */
const failureOf = async (bytes: Uint8Array): Promise<ParseError> => {
  try {
    await extractPdfText(bytes);
  } catch (error) {
    return error as ParseError;
  }
  throw new Error('extractPdfText was expected to fail');
};

describe('extractPdfText on text PDFs', () => {
  it('returns every page with its lines, table cells separated by two spaces', async () => {
    // Prepare: a Buffer, as S3 and fs hand it over
    const bytes = await readFile(await fixturePath('invoice'));

    // Act
    const text = await extractPdfText(bytes);

    // Assess
    expect(text.pageCount).toBe(2);
    expect(text.pages.map((page) => page.page)).toEqual([1, 2]);
    expect(text.pages[0]?.lines).toEqual([
      'ACME Office Supplies Ltd',
      'Invoice number: INV-2024-0042',
      'Invoice date: 2024-03-15',
      ...INVOICE_ROWS.map((cells) => cells.join('  ')),
    ]);
    expect(text.pages[1]?.lines).toEqual(['Total due: 236.80 EUR', 'Payment terms: 30 days net']);
  });

  it('leaves the caller’s bytes intact (pdf.js detaches the buffer it is given)', async () => {
    // Prepare
    const bytes = await fixtureBytes('contract');
    const before = bytes.byteLength;

    // Act
    await extractPdfText(bytes);

    // Assess
    expect(bytes.byteLength).toBe(before);
  });

  it('reads a rotated page in display order', async () => {
    // Prepare
    const bytes = await fixtureBytes('rotated');

    // Act
    const text = await extractPdfText(bytes);

    // Assess
    expect(text.pages[0]?.lines).toEqual(['First line as displayed', 'Second line as displayed']);
  });

  it('extracts a file protected by an owner password only (no password needed to open)', async () => {
    // Prepare: encrypted by qpdf with an empty user password
    const bytes = await fixtureBytes('ownerPasswordOnly');

    // Act
    const text = await extractPdfText(bytes);

    // Assess
    expect(text.pages[0]?.lines[1]).toBe('Invoice number: INV-2024-0042');
  });

  it('reports progress after the page-count check and after each page', async () => {
    // Prepare
    const bytes = await fixtureBytes('contract');
    const progress: ParseProgress[] = [];

    // Act
    await extractPdfText(bytes, { onProgress: (step) => progress.push(step) });

    // Assess
    expect(progress.map((step) => step.pagesDone)).toEqual([0, 1, 2, 3]);
    expect(progress.every((step) => step.pageCount === 3)).toBe(true);
  });
});

describe('extractPdfText on bad input', () => {
  const cases: { fixture: FixtureName; name: string; message: RegExp }[] = [
    { fixture: 'empty', name: 'EmptyFile', message: /empty \(0 bytes\).*Upload the PDF again/ },
    { fixture: 'truncated', name: 'CorruptPdf', message: /incomplete.*upload the complete file again/ },
    {
      fixture: 'notAPdf',
      name: 'UnsupportedFileType',
      message:
        /not a kind of document Docket reads \(it looks like a ZIP archive.*accepts a PDF, a PNG, JPEG or TIFF image.*CrossIndustryInvoice.*UBL 2\.1 Invoice or CreditNote/,
    },
    { fixture: 'userPassword', name: 'EncryptedPdf', message: /password.*Save a copy without the password/ },
  ];

  it.each(cases)(
    '$fixture fails with a permanent $name that says what to do',
    async ({ fixture, name, message }) => {
      // Prepare
      const bytes = await fixtureBytes(fixture);

      // Act
      const error = await failureOf(bytes);

      // Assess
      expect(error).toBeInstanceOf(PermanentError);
      expect(error.name).toBe(name);
      expect(error.retryable).toBe(false);
      expect(error.message).toMatch(message);
    },
  );

  it('names what a non-PDF upload looks like', async () => {
    // Prepare
    const inputs = {
      text: new TextEncoder().encode('Invoice 42\nTotal: 10.00\n'),
      html: new TextEncoder().encode('<!DOCTYPE html><html><body>Invoice</body></html>'),
      zip: Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]),
    };

    // Act
    const messages = await Promise.all(
      Object.values(inputs).map(async (bytes) => (await failureOf(bytes)).message),
    );

    // Assess
    expect(messages).toEqual([
      expect.stringContaining('a plain text file'),
      expect.stringContaining('an HTML page'),
      expect.stringContaining('a ZIP archive, such as a Word or Excel file'),
    ]);
  });

  it('classifies a PDF whose structure pdf.js rejects as CorruptPdf', async () => {
    // Prepare: header and end marker present, nothing usable between them
    const bytes = new TextEncoder().encode('%PDF-1.7\nthis is not an object\n%%EOF\n');

    // Act
    const error = await failureOf(bytes);

    // Assess
    expect(error.name).toBe('CorruptPdf');
    expect(error.message).toMatch(/damaged.*print it to a new PDF/);
  });

  it('refuses 100,000 pages from the page count alone, before requesting any page', async () => {
    // Prepare
    const bytes = await fixtureBytes('pages100k');
    const progress: ParseProgress[] = [];

    // Act
    const error = await extractPdfText(bytes, {
      maxPages: 500,
      onProgress: (step) => progress.push(step),
    }).catch((thrown: unknown) => thrown as ParseError);

    // Assess: no progress at all means not even the first page was requested
    expect(error).toMatchObject({ name: 'TooManyPages', facts: { pageCount: MANY_PAGES, maxPages: 500 } });
    expect((error as Error).message).toMatch(/100000 pages.*Split it into parts of at most 500 pages/);
    expect(progress).toEqual([]);
  });
});
