import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PdfText } from '../../lambdas/shared/pdfText.js';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
let handler: unknown;
const policy = { confidenceThreshold: 80, maxRetries: 3, backoffBaseSeconds: 10, reviewTimeoutSeconds: 3600 };
let counter = 0;

beforeAll(async () => {
  env = await startStageEnvironment({ MAX_PDF_PAGES: '20' });
  ({ handler } = await import('../../lambdas/parse/handler.js'));
});
afterAll(async () => {
  await env.close();
});

/** An uploaded document and its workflow at pending, as ingest leaves them. */
const uploaded = async (bytes: Uint8Array, tenant = 'acme') => {
  const key = `incoming/${tenant}/doc-${++counter}.pdf`;
  await env.s3.send(new PutObjectCommand({ Bucket: env.bucket, Key: key, Body: bytes }));
  const { workflow } = await env.store.create({
    tenant,
    idempotencyKey: `parse-test-${counter}`,
    source: { bucket: env.bucket, key, size: bytes.byteLength },
  });
  return workflow;
};
const parse = (workflowId: string) =>
  invokeInProcess<{ state: string; alreadyDone?: boolean; needsOcr?: boolean }>(handler, 'parse', {
    workflowId,
    policy,
  });

describe('parse stage', () => {
  it('writes the text of every page and moves pending -> parsing_pdf -> extracting', async () => {
    // Prepare
    const wf = await uploaded(await fixtureBytes('invoice'));

    // Act
    const result = await parse(wf.id);

    // Assess: needsOcr is always there, as the AfterParse Choice reads it (a missing path fails it)
    expect(result).toMatchObject({ state: 'extracting', needsOcr: false });
    const item = await env.store.get(wf.id);
    expect(item.artifacts?.text).toBe(`artifacts/${wf.id}/text.json`);
    const { Body } = await env.s3.send(
      new GetObjectCommand({ Bucket: env.bucket, Key: item.artifacts?.text }),
    );
    const text = JSON.parse(
      await (Body as { transformToString: () => Promise<string> }).transformToString(),
    ) as PdfText;
    expect(text.pageCount).toBe(item.pageCount);
    expect(text.pages.flatMap((p) => p.lines).join('\n')).toMatch(/invoice/i);
    expect((await env.store.history(wf.id)).map((e) => e.event)).toEqual(['start_parse', 'parsed']);
  });

  it('is idempotent: invoked twice, it transitions once and reports the work done', async () => {
    const wf = await uploaded(await fixtureBytes('contract'));
    await parse(wf.id);
    const again = await parse(wf.id);
    expect(again).toMatchObject({ state: 'extracting', alreadyDone: true });
    expect(await env.store.history(wf.id)).toHaveLength(2);
  });

  it('fails a bad upload with its permanent, named error and leaves the workflow in parsing_pdf', async () => {
    const wf = await uploaded(await fixtureBytes('notAPdf'));
    await expect(parse(wf.id)).rejects.toMatchObject({ name: 'UnsupportedFileType', retryable: false });
    expect((await env.store.get(wf.id)).state).toBe('parsing_pdf');
  });

  it('applies the page limit from the environment', async () => {
    const wf = await uploaded(await fixtureBytes('pages300'));
    await expect(parse(wf.id)).rejects.toMatchObject({ name: 'TooManyPages' });
  });

  it('reuses the text of identical content (seed 002) and still logs both transitions', async () => {
    // Prepare
    const original = await uploaded(await fixtureBytes('invoice'));
    await parse(original.id);
    const source = (await env.store.get(original.id)).artifacts?.text as string;
    await env.store.putExtractionCache({
      tenant: 'acme',
      sha256: 'same-content',
      workflowId: original.id,
      artifacts: { text: source, extraction: `artifacts/${original.id}/extraction.json` },
      pageCount: 2,
    });
    const copy = await uploaded(new TextEncoder().encode('not parsed: the cached text is used'));
    await env.store.update(copy.id, { cachedFrom: original.id, 'source.sha256': 'same-content' });

    // Act
    await parse(copy.id);

    // Assess
    const item = await env.store.get(copy.id);
    expect(item).toMatchObject({
      state: 'extracting',
      pageCount: 2,
      artifacts: { text: `artifacts/${copy.id}/text.json` },
    });
    expect((await env.store.history(copy.id)).at(-1)).toMatchObject({
      event: 'parsed',
      metadata: { cachedFrom: original.id },
    });
  });
});
