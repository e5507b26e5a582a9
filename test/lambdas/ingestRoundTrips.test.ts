import { describe, expect, it } from 'vitest';
import { type CallCount, callCounts, resetCallCounts } from '../../lambdas/shared/callCount.js';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { startIngestEnvironment } from '../support/ingestEnvironment.js';
import { putWithEvent } from '../support/localS3.js';
import { useFixture } from '../support/useFixture.js';

const env = useFixture(startIngestEnvironment);

/** The calls of one service the handler's clients sent, as `operation: count`. */
const callsTo = (counts: readonly CallCount[], service: string) =>
  Object.fromEntries(counts.filter((c) => c.service === service).map((c) => [c.operation, c.calls]));

describe('ingest round trips (issue #18)', () => {
  it('reads a new upload from S3 once: the GET that hashes it also finds it, no HEAD before', async () => {
    // Prepare
    const event = await putWithEvent(env.s3, env.bucket, 'incoming/acme/trips.pdf', '%PDF-1.7 body');
    resetCallCounts();

    // Act
    const result = await invokeInProcess<{ workflowId: string }>(env.handler, 'ingest', {
      event,
      executionArn: 'arn:aws:states:us-east-1:000000000000:execution:docket:trips',
    });

    // Assess: one S3 call; the store's are the duplicate check, the cache lookup and the create.
    const counts = callCounts();
    expect(callsTo(counts, 'S3')).toEqual({ GetObject: 1 });
    expect(callsTo(counts, 'DynamoDB')).toEqual({ GetItem: 2, PutItem: 1 });
    expect((await env.store.get(result.workflowId)).source?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
