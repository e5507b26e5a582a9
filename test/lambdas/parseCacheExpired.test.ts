import { DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';
import { putWithEvent } from '../support/localS3.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
const handlers: Record<'ingest' | 'parse' | 'extract', unknown> = { ingest: 0, parse: 0, extract: 0 };
const policy = { confidenceThreshold: 80, maxRetries: 3, backoffBaseSeconds: 10, reviewTimeoutSeconds: 3600 };
let counter = 0;

beforeAll(async () => {
  env = await startStageEnvironment();
  handlers.ingest = (await import('../../lambdas/ingest/handler.js')).handler;
  handlers.parse = (await import('../../lambdas/parse/handler.js')).handler;
  handlers.extract = (await import('../../lambdas/extract/handler.js')).handler;
});
afterAll(async () => {
  await env.close();
});

/** Uploads the bytes under a new key and runs ingest on its Object Created event. */
const ingest = async (tenant: string, bytes: Uint8Array) => {
  const key = `incoming/${tenant}/doc-${++counter}.pdf`;
  const event = await putWithEvent(env.s3, env.bucket, key, bytes);
  const { workflowId } = await invokeInProcess<{ workflowId: string }>(handlers.ingest, 'ingest', {
    event,
    executionArn: `arn:aws:states:us-east-1:000000000000:execution:docket:cache-${counter}`,
  });
  return workflowId;
};
const run = (stage: 'parse' | 'extract', workflowId: string) =>
  invokeInProcess<{ state: string }>(handlers[stage], stage, { workflowId, policy });

const deleteArtifact = (key: string) =>
  env.s3.send(new DeleteObjectCommand({ Bucket: env.bucket, Key: key }));
const exists = (key: string) =>
  env.s3.send(new HeadObjectCommand({ Bucket: env.bucket, Key: key })).then(
    () => true,
    () => false,
  );

/** A document ingested, parsed and extracted: its extraction is now in the content-hash cache. */
const cachedOriginal = async (tenant: string, bytes: Uint8Array) => {
  const id = await ingest(tenant, bytes);
  await run('parse', id);
  await run('extract', id);
  return id;
};

describe('content-hash reuse when the cached artifacts have expired (bucket lifecycle)', () => {
  it('parses and extracts identical content for real when both cached artifacts are gone', async () => {
    // Prepare
    const bytes = await fixtureBytes('invoice');
    const original = await cachedOriginal('expired-a', bytes);
    await deleteArtifact(`artifacts/${original}/text.json`);
    await deleteArtifact(`artifacts/${original}/extraction.json`);
    const copy = await ingest('expired-a', bytes);
    expect((await env.store.get(copy)).cachedFrom).toBe(original);

    // Act
    const parsed = await run('parse', copy);
    const extracted = await run('extract', copy);

    // Assess: both stages did the work, logged their transitions, and wrote their own artifacts.
    expect(parsed.state).toBe('extracting');
    expect(extracted.state).toBe('validating');
    const item = await env.store.get(copy);
    expect(item).toMatchObject({ docType: 'invoice', pageCount: 2 });
    expect(await exists(`artifacts/${copy}/text.json`)).toBe(true);
    expect(await exists(`artifacts/${copy}/extraction.json`)).toBe(true);
    const history = await env.store.history(copy);
    expect(history.map((e) => e.event)).toEqual(['start_parse', 'parsed', 'extracted']);
    expect(history[1]?.metadata).toMatchObject({ pages: 2, cacheExpired: original });
    expect(history[1]?.metadata).not.toHaveProperty('cachedFrom');
    expect(history[2]?.metadata).toMatchObject({ docType: 'invoice', cacheExpired: original });
  });

  it('reuses the cached text that is still there and extracts again when only the extraction is gone', async () => {
    // Prepare
    const bytes = await fixtureBytes('contract');
    const original = await cachedOriginal('expired-b', bytes);
    await deleteArtifact(`artifacts/${original}/extraction.json`);
    const copy = await ingest('expired-b', bytes);

    // Act
    await run('parse', copy);
    const extracted = await run('extract', copy);

    // Assess
    expect(extracted.state).toBe('validating');
    expect((await env.store.get(copy)).docType).toBe('contract');
    const history = await env.store.history(copy);
    expect(history[1]?.metadata).toMatchObject({ cachedFrom: original });
    expect(history[2]?.metadata).toMatchObject({ cacheExpired: original });
  });
});
