import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOcrSettings } from '../../lambdas/ocr/ocrSettings.js';
import { endTesseractWorker } from '../../lambdas/ocr/tesseract/recognize.js';
import { ocrWithTesseract, recognizeDocument } from '../../lambdas/ocr/tesseract/tesseractEngine.js';
import { imagePageCount } from '../../lambdas/parse/imagePages.js';
import { extractPdfText } from '../../lambdas/parse/pdfText.js';
import type { PageText } from '../../lambdas/shared/pdfText.js';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';
import { imagePdf, multiPageTiff, type ScannedPage, scanPdf } from '../fixtures/scans.js';
import { INVOICE_ROWS } from '../fixtures/textPdfs.js';

const MIB = 1024 * 1024;
const settings = resolveOcrSettings({ engine: 'tesseract' });
let scans: ScannedPage[];

beforeAll(async () => {
  scans = await scanPdf(await fixtureBytes('invoice'));
}, 60_000);
afterAll(async () => {
  await endTesseractWorker();
});

const lines = (pages: PageText[]) => pages.flatMap((page) => page.lines);

describe('tesseract OCR (installed traineddata, this process)', () => {
  it('reads a 150 dpi scan of the invoice with the same table rows as its text layer', async () => {
    // Prepare
    const [first] = scans as [ScannedPage];
    const textLayer = (await extractPdfText(await fixtureBytes('invoice'))).pages[0]?.lines ?? [];

    // Act
    const pages = await recognizeDocument({ bytes: first.bytes, kind: 'png', pageCount: 1, settings });

    // Assess: every table row, cells two spaces apart, exactly as the text layer gives it
    const rows = INVOICE_ROWS.map((row) => row.join('  '));
    expect(textLayer).toEqual(expect.arrayContaining(rows));
    expect(lines(pages)).toEqual(expect.arrayContaining([...rows, 'Invoice number: INV-2024-0042']));
  }, 120_000);

  it('gives every line a box, its words with confidences, and the weakest word as its confidence', async () => {
    // Prepare
    const [first] = scans as [ScannedPage];

    // Act
    const [page] = await recognizeDocument({ bytes: first.bytes, kind: 'png', pageCount: 1, settings });

    // Assess
    expect(page?.geometry).toHaveLength(page?.lines.length ?? -1);
    for (const geometry of page?.geometry ?? []) {
      const words = geometry.words ?? [];
      expect(words.length).toBeGreaterThan(0);
      expect(geometry.confidence).toBe(Math.min(...words.map((word) => word.confidence)));
      expect(geometry.box.x + geometry.box.width).toBeLessThanOrEqual(1);
    }
    const header = page?.geometry?.[page.lines.indexOf('ACME Office Supplies Ltd')];
    // Drawn at x = 56 pt of 595 and 62 pt below the top of 842.
    expect(header?.box.x).toBeCloseTo(56 / 595, 2);
    expect(header?.box.y).toBeGreaterThan(0.05);
    expect(header?.box.y).toBeLessThan(0.09);
  }, 120_000);

  it('reads every page of a multi-page TIFF', async () => {
    // Prepare
    const tiff = await multiPageTiff(scans);

    // Act
    const pageCount = imagePageCount(tiff, 'tiff');
    const pages = await recognizeDocument({ bytes: tiff, kind: 'tiff', pageCount, settings });

    // Assess
    expect(pageCount).toBe(2);
    expect(pages.map((page) => page.page)).toEqual([1, 2]);
    expect(pages[1]?.lines).toContain('Total due: 236.80 EUR');
  }, 120_000);
});

describe('tesseract OCR in the guarded child', () => {
  it('reads an image-only PDF page by page, as text with origin-ready pages', async () => {
    // Prepare
    const pdf = await imagePdf(scans);

    // Act
    const pages = await ocrWithTesseract(
      { bytes: pdf, kind: 'pdf', pageCount: 2, settings },
      { maxRssBytes: settings.maxRssBytes, pageTimeoutMs: settings.pageTimeoutMs },
    );

    // Assess
    expect(pages.map((page) => page.page)).toEqual([1, 2]);
    expect(lines(pages)).toEqual(
      expect.arrayContaining(['Total due: 236.80 EUR', 'Payment terms: 30 days net']),
    );
  }, 180_000);

  it('reads a five-page scan with two workers as the same page texts, in page order, as with one', async () => {
    // Prepare: the invoice's two pages and the contract's three, as one image-only PDF
    const contract = await scanPdf(await fixtureBytes('contract'));
    const pdf = await imagePdf([...scans, ...contract]);
    const job = { bytes: pdf, kind: 'pdf' as const, pageCount: 5, settings };
    const bounds = { maxRssBytes: settings.maxRssBytes, pageTimeoutMs: settings.pageTimeoutMs };
    const workersUsed: number[] = [];

    // Act
    const one = await ocrWithTesseract(job, { ...bounds, workers: 1 }, (stats) => {
      workersUsed.push(stats.peakRssBytesPerWorker.length);
    });
    const two = await ocrWithTesseract(job, { ...bounds, workers: 2 }, (stats) => {
      workersUsed.push(stats.peakRssBytesPerWorker.length);
    });

    // Assess
    expect(workersUsed).toEqual([1, 2]);
    expect(two.map((page) => page.page)).toEqual([1, 2, 3, 4, 5]);
    expect(two).toEqual(one);
    expect(two[4]?.lines).toContain('Article 3');
  }, 240_000);

  it('stops every worker of a document at the memory bound with a permanent OcrTooComplex', async () => {
    // Prepare: six language models alone need more than the smallest bound
    const pdf = await imagePdf(scans);
    let outcome = '';

    // Act
    const error = await ocrWithTesseract(
      { bytes: pdf, kind: 'pdf', pageCount: 2, settings },
      { maxRssBytes: 256 * MIB, pageTimeoutMs: settings.pageTimeoutMs, workers: 2 },
      (stats) => {
        outcome = stats.outcome;
      },
    ).then(
      () => new Error('OCR was expected to fail'),
      (thrown: unknown) => thrown as Error,
    );

    // Assess
    expect(error).toMatchObject({
      name: 'OcrTooComplex',
      retryable: false,
      facts: { bound: 'memory', pagesDone: 0, pageCount: 2 },
    });
    expect(outcome).toBe('OcrTooComplex');
  }, 120_000);

  it('stops OCR at its memory bound with a permanent OcrTooComplex', async () => {
    // Prepare: six language models alone need more than the smallest bound
    const [first] = scans as [ScannedPage];

    // Act
    const error = await ocrWithTesseract(
      { bytes: first.bytes, kind: 'png', pageCount: 1, settings },
      { maxRssBytes: 256 * MIB, pageTimeoutMs: settings.pageTimeoutMs },
    ).then(
      () => new Error('OCR was expected to fail'),
      (thrown: unknown) => thrown as Error,
    );

    // Assess
    expect(error).toMatchObject({ name: 'OcrTooComplex', retryable: false, facts: { bound: 'memory' } });
    expect(error.message).toMatch(/needed more than 256 MB of memory/);
  }, 120_000);

  it('refuses to start without the traineddata on disk instead of downloading it', async () => {
    // Prepare
    const empty = await mkdtemp(join(tmpdir(), 'docket-tessdata-'));
    const [first] = scans as [ScannedPage];

    // Act
    const error = await ocrWithTesseract(
      { bytes: first.bytes, kind: 'png', pageCount: 1, settings: { ...settings, tessdataDir: empty } },
      { maxRssBytes: settings.maxRssBytes, pageTimeoutMs: settings.pageTimeoutMs },
    ).then(
      () => new Error('OCR was expected to fail'),
      (thrown: unknown) => thrown as Error,
    );
    await rm(empty, { recursive: true, force: true });

    // Assess
    expect(error).toMatchObject({ name: 'ConfigurationError' });
    expect(error.message).toMatch(/eng\.traineddata.*never downloads language data/);
  }, 60_000);
});
