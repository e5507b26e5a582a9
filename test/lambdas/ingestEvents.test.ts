import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { emfRecordsDuring, recordsOf } from '../support/emfRecords.js';
import { s3EventFixture } from '../support/s3EventFixtures.js';
import { startSqsBoundaryStub } from '../support/sqsBoundaryStub.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
let sqs: Awaited<ReturnType<typeof startSqsBoundaryStub>>;
let handler: unknown;

beforeAll(async () => {
  sqs = await startSqsBoundaryStub();
  env = await startStageEnvironment({
    DEAD_LETTER_QUEUE_URL: sqs.queueUrl,
    AWS_ENDPOINT_URL_SQS: sqs.endpoint,
    // Metrics on, so the test reads the EMF record CloudWatch would ingest.
    POWERTOOLS_METRICS_DISABLED: 'false',
  });
  ({ handler } = await import('../../lambdas/ingest/handler.js'));
});
afterAll(async () => {
  await env?.close();
  await sqs?.close();
});

const EXECUTION = 'arn:aws:states:us-east-1:000000000000:execution:docket:events';
const invoke = (event: unknown, executionArn = EXECUTION) =>
  invokeInProcess<Record<string, unknown>>(handler, 'ingest', { event, executionArn });

/** A captured event pointed at an object stored in the local S3 under `key`. */
const capturedEventFor = async (fixture: string, key: string) => {
  await env.s3.send(new PutObjectCommand({ Bucket: env.bucket, Key: key, Body: `%PDF-1.7 ${fixture}` }));
  const event = s3EventFixture(fixture);
  event.detail.bucket.name = env.bucket;
  event.detail.object.key = key;
  return event;
};

describe('ingest of the events S3 really sends', () => {
  it('creates a workflow for an upload over IPv6 (a dual-stack endpoint)', async () => {
    // Prepare
    const event = await capturedEventFor('put-object-ipv6', 'incoming/acme/over-ipv6.pdf');
    // Act
    const result = await invoke(event);
    // Assess
    expect(event.detail['source-ip-address']).toBe('2001:db8:85a3::8a2e:370:7334');
    expect(result).toMatchObject({ tenant: 'acme', duplicate: false });
    expect(await env.store.get(result.workflowId as string)).toMatchObject({
      state: 'pending',
      source: { bucket: env.bucket, key: 'incoming/acme/over-ipv6.pdf' },
    });
  });

  it('creates a workflow for a copy S3 made itself (s3.amazonaws.com, no sequencer), keyed by its ETag', async () => {
    // Prepare
    const event = await capturedEventFor('copy-object-by-s3', 'incoming/acme/copied.pdf');
    // Act
    const first = await invoke(event, `${EXECUTION}-copy-1`);
    const again = await invoke(event, `${EXECUTION}-copy-2`);
    // Assess: the ETag stands in for the missing version, so a redelivery is still a duplicate.
    expect(first).toMatchObject({ tenant: 'acme', duplicate: false });
    expect(again).toEqual({ ...first, duplicate: true });
  });

  it('creates a workflow for a form upload with no source address (POST Object)', async () => {
    const event = await capturedEventFor('post-object-unversioned', 'incoming/acme/form.pdf');
    await expect(invoke(event)).resolves.toMatchObject({ tenant: 'acme', duplicate: false });
  });
});

describe('ingest of an event it cannot parse', () => {
  it('sends it to the dead-letter queue with the reason, counts it, and fails permanently (SQS boundary recorded by a stub server)', async () => {
    // Prepare: an event that names no version, sequencer or ETag: no idempotency key can be built.
    const event = s3EventFixture('put-object-ipv6');
    delete event.detail.object.sequencer;
    delete event.detail.object.etag;
    const before = sqs.calls.length;

    // Act
    const { outcome, records } = await emfRecordsDuring(() => invoke(event, `${EXECUTION}-bad`));

    // Assess: the error Step Functions sees is permanent (the Task is not retried)...
    expect(outcome).toMatchObject({
      error: {
        name: 'UnparseableEvent',
        retryable: false,
        message: expect.stringContaining('dead-letter queue'),
      },
    });
    // ...the queue got one letter, with the bare S3 event (what a redrive sends back) and why...
    const sent = sqs.calls.slice(before);
    expect(sent.map((c) => c.action)).toEqual(['SendMessage']);
    expect(sent[0]?.body.QueueUrl).toBe(sqs.queueUrl);
    const letter = JSON.parse(String(sent[0]?.body.MessageBody));
    expect(letter).toMatchObject({
      docketDeadLetter: 1,
      source: 'ingest',
      reason: expect.stringMatching(/execution .*-bad.*version-id, sequencer or etag/),
      event,
    });
    // ...and the UnparseableEvents metric was published for the alarm, per service.
    const unparseable = recordsOf(records, 'UnparseableEvents');
    expect(unparseable[0]).toMatchObject({
      UnparseableEvents: 1,
      service: 'ingest',
      dimensions: [['service']],
    });
  });

  it('fails with a retryable error when the dead-letter queue cannot be written, so a retry sends it (SQS boundary recorded by a stub server)', async () => {
    // Prepare: a queue that answers 500 to every send.
    const failing = await startSqsBoundaryStub({ failSends: true });
    const { deadLetterUnparseable } = await import('../../lambdas/shared/deadLetterUnparseable.js');
    const { createSqsClient } = await import('../../lambdas/shared/clients.js');
    const { stageHandler } = await import('../../lambdas/shared/stageHandler.js');
    const { createObservability } = await import('../../lambdas/shared/observability.js');
    const { IngestInputSchema } = await import('../../lambdas/ingest/schema.js');
    const observability = createObservability('ingest');
    const client = createSqsClient({ endpoint: failing.endpoint, maxAttempts: 1 });
    const probe = stageHandler(observability, IngestInputSchema, async () => 'unreachable', {
      middlewares: [
        deadLetterUnparseable({
          observability,
          source: 'ingest',
          target: () => ({ sqs: client, queueUrl: failing.queueUrl }),
        }),
      ],
    });

    // Act
    const { outcome, records } = await emfRecordsDuring(() =>
      invokeInProcess(probe, 'ingest', { event: { hello: 'world' } }),
    );
    client.destroy();
    await failing.close();

    // Assess: tried once, counted anyway, and retryable.
    expect(failing.calls.map((c) => c.action)).toEqual(['SendMessage']);
    expect(outcome).toMatchObject({ error: { name: 'DeadLetterUnavailable', retryable: true } });
    expect(records).toEqual([expect.objectContaining({ UnparseableEvents: 1 })]);
  });
});
