import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { putWithEvent } from '../support/localS3.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';

/** A small size limit, so "too large to hash" needs kilobytes rather than gigabytes. */
const MAX_PDF_BYTES = 1024;

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
let ingestHandler: unknown;
let parseHandler: unknown;
const policy = { confidenceThreshold: 80, maxRetries: 3, backoffBaseSeconds: 10, reviewTimeoutSeconds: 3600 };
let counter = 0;

beforeAll(async () => {
  env = await startStageEnvironment({ MAX_PDF_BYTES: String(MAX_PDF_BYTES) });
  ({ handler: ingestHandler } = await import('../../lambdas/ingest/handler.js'));
  ({ handler: parseHandler } = await import('../../lambdas/parse/handler.js'));
});
afterAll(async () => {
  await env.close();
});

/** Puts `body` under a new key and returns its Object Created event (size as given, else real). */
const upload = async (tenant: string, body: Uint8Array, eventSize = body.byteLength) => {
  const key = `incoming/${tenant}/big-${++counter}.pdf`;
  return putWithEvent(env.s3, env.bucket, key, body, { eventSize });
};
const ingest = (event: unknown) =>
  invokeInProcess<{ workflowId: string; duplicate: boolean }>(ingestHandler, 'ingest', {
    event,
    executionArn: `arn:aws:states:us-east-1:000000000000:execution:docket:big-${counter}`,
  });

/** A PDF-looking body of `bytes` bytes. */
const pdfOfSize = (bytes: number) => new TextEncoder().encode(`%PDF-1.7\n${'%'.repeat(bytes - 16)}\n%%EOF\n`);

describe('ingest of an upload over the parse size limit (MAX_PDF_BYTES)', () => {
  it('creates the workflow without hashing or a cache lookup, and parse rejects it as TooLarge', async () => {
    // Prepare: identical content is even in the cache, which a hashed upload would reuse.
    const body = pdfOfSize(2 * MAX_PDF_BYTES);
    await env.store.putExtractionCache({
      tenant: 'big',
      sha256: createHash('sha256').update(body).digest('hex'),
      workflowId: 'wf-cached-earlier',
      artifacts: { text: 'artifacts/x/text.json', extraction: 'artifacts/x/extraction.json' },
      pageCount: 1,
    });
    const event = await upload('big', body);

    // Act
    const ingested = await ingest(event);
    const parsed = invokeInProcess(parseHandler, 'parse', { workflowId: ingested.workflowId, policy });

    // Assess
    expect(ingested.duplicate).toBe(false);
    const workflow = await env.store.get(ingested.workflowId);
    expect(workflow.source).toMatchObject({ key: event.detail.object.key, size: body.byteLength });
    expect(workflow.source?.sha256).toBeUndefined();
    expect(workflow.cachedFrom).toBeUndefined();
    await expect(parsed).rejects.toMatchObject({
      name: 'TooLarge',
      retryable: false,
      message: expect.stringMatching(/The file is 2 KB; Docket accepts PDFs of at most 1 KB/),
    });
  });

  it('trusts the event’s size: an object the event says is over the limit is not read', async () => {
    // Prepare: the event reports 5 GiB (the object itself is small here, so hashing would show).
    const event = await upload('big', pdfOfSize(100), 5 * 1024 ** 3);

    // Act
    const ingested = await ingest(event);

    // Assess
    const workflow = await env.store.get(ingested.workflowId);
    expect(workflow.state).toBe('pending');
    expect(workflow.source?.sha256).toBeUndefined();
  });

  it('still hashes an upload within the limit', async () => {
    // Prepare
    const body = pdfOfSize(MAX_PDF_BYTES);
    const event = await upload('big', body);

    // Act
    const ingested = await ingest(event);

    // Assess
    expect((await env.store.get(ingested.workflowId)).source?.sha256).toBe(
      createHash('sha256').update(body).digest('hex'),
    );
  });
});
