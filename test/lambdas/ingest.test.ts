import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nextSequencer, objectCreatedEvent } from '../../local/events/objectCreatedEvent.js';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { startIngestEnvironment } from '../support/ingestEnvironment.js';
import { putWithEvent } from '../support/localS3.js';
import { useFixture } from '../support/useFixture.js';

const env = useFixture(startIngestEnvironment);

const upload = (key: string, body: string) => putWithEvent(env.s3, env.bucket, key, body);
const EXECUTION = 'arn:aws:states:us-east-1:000000000000:execution:docket:x';
const invoke = (event: unknown, executionArn = EXECUTION) =>
  invokeInProcess<{ workflowId: string; tenant: string; duplicate: boolean }>(env.handler, 'ingest', {
    event,
    executionArn,
  });

describe('ingest', () => {
  it('creates the workflow at pending with its source, hash and execution', async () => {
    // Prepare
    const event = await upload('incoming/acme/contract 1.pdf', '%PDF-1.7 body');

    // Act
    const result = await invoke(event);

    // Assess
    expect(result).toMatchObject({ tenant: 'acme', duplicate: false });
    const workflow = await env.store.get(result.workflowId);
    expect(workflow).toMatchObject({
      state: 'pending',
      tenant: 'acme',
      executionArn: 'arn:aws:states:us-east-1:000000000000:execution:docket:x',
      source: {
        bucket: env.bucket,
        key: 'incoming/acme/contract 1.pdf',
        size: 13,
        sha256: createHash('sha256').update('%PDF-1.7 body').digest('hex'),
      },
    });
  });

  it('returns the existing workflow for the same event delivered twice, creating nothing', async () => {
    // Prepare: each delivery of the event starts an execution of its own.
    const event = await upload('incoming/acme/twice.pdf', '%PDF-1.7 twice');
    // Act
    const first = await invoke(event, `${EXECUTION}-first`);
    const second = await invoke(event, `${EXECUTION}-second`);
    // Assess
    expect(second).toEqual({ ...first, duplicate: true });
    expect(
      (await env.store.list({ tenant: 'acme' })).items.filter(
        (w) => w.source?.key === 'incoming/acme/twice.pdf',
      ),
    ).toHaveLength(1);
  });

  it('carries its own workflow on when the same execution retries ingest after the create', async () => {
    // Prepare
    const event = await upload('incoming/acme/retried.pdf', '%PDF-1.7 retried');
    // Act: the Task retry of one execution invokes ingest again with the same execution ARN.
    const first = await invoke(event, `${EXECUTION}-retried`);
    const retry = await invoke(event, `${EXECUTION}-retried`);
    // Assess: not a duplicate, or the execution would end at Duplicate and strand it at pending.
    expect(retry).toEqual({ ...first, duplicate: false });
  });

  it('makes a new workflow for the same key uploaded again', async () => {
    const first = await invoke(await upload('incoming/acme/again.pdf', '%PDF-1.7 again'));
    const second = await invoke(await upload('incoming/acme/again.pdf', '%PDF-1.7 again'));
    expect(second.duplicate).toBe(false);
    expect(second.workflowId).not.toBe(first.workflowId);
  });

  it('marks content already extracted for reuse, per tenant', async () => {
    // Prepare
    const body = '%PDF-1.7 cached content';
    const original = await invoke(await upload('incoming/acme/original.pdf', body));
    const { source } = await env.store.get(original.workflowId);
    await env.store.putExtractionCache({
      tenant: 'acme',
      sha256: source?.sha256 as string,
      workflowId: original.workflowId,
      artifacts: { text: 'artifacts/x/text.json', extraction: 'artifacts/x/extraction.json' },
      pageCount: 1,
    });

    // Act
    const copy = await invoke(await upload('incoming/acme/copy.pdf', body));
    const otherTenant = await invoke(await upload('incoming/globex/copy.pdf', body));

    // Assess
    expect((await env.store.get(copy.workflowId)).cachedFrom).toBe(original.workflowId);
    expect((await env.store.get(otherTenant.workflowId)).cachedFrom).toBeUndefined();
  });

  it('rejects an object outside incoming/{tenant}/ with a permanent, named error', async () => {
    const event = await upload('elsewhere/file.pdf', '%PDF');
    await expect(invoke(event)).rejects.toMatchObject({ name: 'NotAnIncomingObject', retryable: false });
  });

  it('reports an object deleted before ingest as SourceObjectMissing', async () => {
    const event = objectCreatedEvent({
      bucket: env.bucket,
      key: 'incoming/acme/gone.pdf',
      sequencer: nextSequencer(),
    });
    await expect(invoke(event)).rejects.toMatchObject({ name: 'SourceObjectMissing' });
  });

  it('refuses an event that is not an S3 Object Created event', async () => {
    await expect(invoke({ hello: 'world' })).rejects.toMatchObject({ name: 'UnparseableEvent' });
  });
});
