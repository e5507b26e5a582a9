import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';
import { imagePdf, scanPdf } from '../fixtures/scans.js';
import { importCorpusProviders, upload, waitForWorkflow } from '../support/e2e.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack();
  await importCorpusProviders(stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

/** States a document reaches once its text exists: extraction and everything after it. */
const PAST_PARSING = [
  'extracting',
  'validating',
  'review_required',
  'validated',
  'comparing',
  'completed',
] as const;

describe('scans and images on the local stack (OCR with tesseract)', () => {
  it.each([
    [
      'a PNG photo of an invoice',
      'photo.png',
      async () => (await scanPdf(await fixtureBytes('invoice')))[0]?.bytes,
    ],
    [
      'an image-only PDF scan',
      'scan.pdf',
      async () => imagePdf(await scanPdf(await fixtureBytes('invoice'))),
    ],
  ])(
    'takes %s past parsing through the Ocr state instead of rejecting it',
    async (_what, name, bytes) => {
      // Act
      const key = await upload(stack, 'acme', name, (await bytes()) ?? new Uint8Array());
      const reached = await waitForWorkflow(stack, 'acme', key, [...PAST_PARSING, 'rejected'], 180_000);

      // Assess: the text came from OCR, and no parse error rejected it
      expect(reached.state).not.toBe('rejected');
      const history = await stack.store.history(reached.id);
      expect(history.slice(0, 2).map((e) => e.event)).toEqual(['start_parse', 'parsed']);
      expect(history[1]?.metadata).toMatchObject({ ocrEngine: 'tesseract' });
      expect(reached.pageCount).toBeGreaterThanOrEqual(1);
    },
    240_000,
  );
});
