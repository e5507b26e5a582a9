import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOcrSettings } from '../../lambdas/ocr/ocrSettings.js';
import { type OcrResult, ocrStage } from '../../lambdas/ocr/ocrStage.js';
import type { ParseStageResult } from '../../lambdas/parse/parseStage.js';
import type { PdfText } from '../../lambdas/shared/pdfText.js';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';
import { imagePdf, scanPdf } from '../fixtures/scans.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';
import { invoiceBlocks, startTextractStandIn, type TextractStandIn } from './support/textractStandIn.js';

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
let standIn: TextractStandIn;
let parseHandler: unknown;
let ocrHandler: unknown;
const policy = { confidenceThreshold: 80, maxRetries: 3, backoffBaseSeconds: 10, reviewTimeoutSeconds: 3600 };
let counter = 0;

beforeAll(async () => {
  env = await startStageEnvironment({ MAX_OCR_PAGES: '2' });
  standIn = await startTextractStandIn();
  ({ handler: parseHandler } = await import('../../lambdas/parse/handler.js'));
  ({ handler: ocrHandler } = await import('../../lambdas/ocr/handler.js'));
}, 60_000);
afterAll(async () => {
  await standIn?.close();
  await env?.close();
});

/** An upload and its workflow at pending, as ingest leaves them. */
const uploaded = async (bytes: Uint8Array, name: string) => {
  const key = `incoming/acme/${++counter}-${name}`;
  await env.s3.send(new PutObjectCommand({ Bucket: env.bucket, Key: key, Body: bytes }));
  const { workflow } = await env.store.create({
    tenant: 'acme',
    idempotencyKey: `ocr-test-${counter}`,
    source: { bucket: env.bucket, key, size: bytes.byteLength },
  });
  return workflow;
};
const parse = (workflowId: string) =>
  invokeInProcess<ParseStageResult>(parseHandler, 'parse', { workflowId, policy });
const ocr = (workflowId: string, previous?: unknown) =>
  invokeInProcess<OcrResult>(ocrHandler, 'ocr', {
    workflowId,
    policy,
    ...(previous !== undefined && { previous }),
  });
const textOf = async (key: string): Promise<PdfText> => {
  const { Body } = await env.s3.send(new GetObjectCommand({ Bucket: env.bucket, Key: key }));
  return JSON.parse(
    await (Body as { transformToString: () => Promise<string> }).transformToString(),
  ) as PdfText;
};

describe('parse and OCR stages (dynalite, the local S3, tesseract in its guarded child)', () => {
  it('hands a PNG upload from parse to OCR, which writes the text and moves it to extracting', async () => {
    // Prepare
    const [page] = await scanPdf(await fixtureBytes('invoice'));
    const wf = await uploaded(page?.bytes ?? new Uint8Array(), 'photo.jpg');

    // Act
    const parsed = await parse(wf.id);
    const recognised = await ocr(wf.id, parsed);

    // Assess
    expect(parsed).toMatchObject({ state: 'parsing_pdf', needsOcr: true });
    expect(recognised).toMatchObject({ state: 'extracting', ocrStatus: 'done' });
    const item = await env.store.get(wf.id);
    const text = await textOf(item.artifacts?.text as string);
    expect(text).toMatchObject({ pageCount: 1, origin: 'ocr' });
    expect(text.pages[0]?.lines).toContain('Invoice number: INV-2024-0042');
    const history = await env.store.history(wf.id);
    expect(history.map((e) => e.event)).toEqual(['start_parse', 'parsed']);
    expect(history.at(-1)?.metadata).toMatchObject({ ocrEngine: 'tesseract', pages: 1 });
  }, 120_000);

  it('refuses a scan over MAX_OCR_PAGES before any OCR, with a permanent error', async () => {
    // Prepare: three scanned pages, the limit is two
    const pages = await scanPdf(await fixtureBytes('contract'));
    const wf = await uploaded(await imagePdf(pages), 'scan.pdf');
    await parse(wf.id);

    // Act
    const error = await ocr(wf.id).catch((e: unknown) => e as Error);

    // Assess
    expect(error).toMatchObject({
      name: 'TooManyPagesForOcr',
      retryable: false,
      facts: { pageCount: 3, maxPages: 2 },
    });
    expect((await env.store.get(wf.id)).state).toBe('parsing_pdf');
  }, 120_000);

  it('takes a bare CII upload straight to extracting with its XML, no pages and no OCR', async () => {
    // Prepare
    const xml = '<?xml version="1.0"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:x"/>';
    const wf = await uploaded(new TextEncoder().encode(xml), 'invoice.bin');

    // Act
    const result = await parse(wf.id);

    // Assess
    expect(result).toMatchObject({ state: 'extracting' });
    expect(result.needsOcr).toBe(false);
    const item = await env.store.get(wf.id);
    expect(await textOf(item.artifacts?.text as string)).toEqual({
      pageCount: 0,
      pages: [],
      origin: 'xml',
      embedded: [{ name: `${counter}-invoice.bin`, xml }],
    });
    expect((await env.store.history(wf.id)).at(-1)?.metadata).toMatchObject({
      kind: 'xml',
      embedded: [`${counter}-invoice.bin`],
    });
  });
});

describe('the OCR stage with Textract, against a stand-in of the Textract API (no local Textract exists)', () => {
  it('starts a job, reports it running for the Wait loop, then writes its text and moves to extracting', async () => {
    // Prepare: an image-only PDF that parse hands on
    const pages = await scanPdf(await fixtureBytes('invoice'));
    const wf = await uploaded(await imagePdf(pages), 'scan.pdf');
    await parse(wf.id);
    standIn.answers.set('StartDocumentTextDetection', [{ body: { JobId: 'job-7' } }]);
    standIn.answers.set('GetDocumentTextDetection', [
      { body: { JobStatus: 'IN_PROGRESS' } },
      { body: { JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 2 }, Blocks: invoiceBlocks() } },
    ]);
    const deps = {
      store: env.store,
      s3: env.s3,
      bucket: env.bucket,
      maxBytes: 25 * 2 ** 20,
      settings: resolveOcrSettings({ engine: 'textract', pollSeconds: 7 }),
      textract: standIn.client,
      now: () => new Date('2024-05-01T10:00:00Z'),
    };

    // Act
    const first = await ocrStage(deps, { workflowId: wf.id, policy });
    const second = await ocrStage(deps, { workflowId: wf.id, policy, previous: { ...first } });

    // Assess
    expect(first).toMatchObject({
      state: 'parsing_pdf',
      ocrStatus: 'running',
      jobId: 'job-7',
      waitSeconds: 7,
    });
    expect(second).toMatchObject({ state: 'extracting', ocrStatus: 'done' });
    expect(standIn.calls.map((c) => c.operation)).toEqual([
      'StartDocumentTextDetection',
      'GetDocumentTextDetection',
      'GetDocumentTextDetection',
    ]);
    const text = await textOf((await env.store.get(wf.id)).artifacts?.text as string);
    expect(text.pages.map((p) => p.lines)).toEqual([
      ['Rechnung Nr. 471102', 'Trennblätter  198,00'],
      ['Bruttosumme  529,87'],
    ]);
    expect((await env.store.history(wf.id)).at(-1)?.metadata).toMatchObject({
      ocrEngine: 'textract',
      pages: 2,
    });
  }, 120_000);
});
