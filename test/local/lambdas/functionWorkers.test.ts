import { HeadObjectCommand } from '@aws-sdk/client-s3';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionHost } from '../../../local/lambdas/functionHost.js';
import { FunctionWorkerExitedError, startFunctionWorkers } from '../../../local/lambdas/functionWorkers.js';
import { enableInvocationScopes } from '../../../local/lambdas/invocationScope.js';
import { invokeHere } from '../../../local/lambdas/registry.js';
import { startStageEnvironment } from '../../support/stageEnvironment.js';

const scheduledEvent = { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} };

/** A Lambda context with a minute to run. */
const contextFor = (functionName: string): Context =>
  ({
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: crypto.randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 60_000,
  }) as Context;

/** How an invocation ended, as Step Functions would match it: the error's name and message. */
const failure = (invocation: Promise<unknown>) =>
  invocation.then(
    () => 'resolved',
    (error: Error) => ({ name: error.name, message: error.message }),
  );

describe('function workers: the real handlers in worker threads', () => {
  let env: Awaited<ReturnType<typeof startStageEnvironment>>;
  let host: FunctionHost;

  beforeAll(async () => {
    // The workers copy the environment the stage environment sets, so they start after it.
    env = await startStageEnvironment();
    await enableInvocationScopes();
    host = startFunctionWorkers(2);
  });
  afterAll(async () => {
    await host?.close();
    await env?.close();
  });

  it('runs a handler against the emulators and answers with its result; its calls are counted', async () => {
    // Prepare: one workflow, so the ledger snapshot has a tenant to write.
    await env.store.create({ tenant: 'acme', idempotencyKey: 'worker-test-1' });
    await host.resetCallCounts();

    // Act
    const result = (await host.invoke(
      'ledger-snapshot',
      scheduledEvent,
      contextFor('docket-ledger-snapshot'),
    )) as {
      snapshots: { tenant: string; key: string; workflows: number }[];
    };
    const counted = await host.callCounts();
    await host.resetCallCounts();
    const afterReset = await host.callCounts();

    // Assess: the snapshot the worker wrote is in the local S3, and the worker's S3 put was counted.
    expect(result.snapshots).toEqual([expect.objectContaining({ tenant: 'acme', workflows: 1 })]);
    const head = await env.s3.send(
      new HeadObjectCommand({ Bucket: env.bucket, Key: result.snapshots[0]?.key ?? '' }),
    );
    expect(head.ContentLength).toBeGreaterThan(0);
    expect(counted).toContainEqual({
      service: 'S3',
      operation: 'PutObject',
      calls: 1,
      function: 'ledger-snapshot',
    });
    expect(afterReset.every((c) => c.calls === 0)).toBe(true);
    expect(host.eventLoopUtilization()).toHaveLength(2);
  });

  it('rejects with the error the handler threw: same name and message as in this thread', async () => {
    // Prepare: an event the function's schema refuses (a scheduled event is an object), and the
    // same request id both times: the handler's message names it, so it must reach the worker.
    const invalid = 'not an event';
    const context = contextFor('docket-ledger-snapshot');

    // Act
    const inWorker = await failure(host.invoke('ledger-snapshot', invalid, context));
    const here = await failure(invokeHere('ledger-snapshot', invalid, context));

    // Assess
    expect(inWorker).toEqual({ name: 'ParseError', message: expect.stringContaining(context.awsRequestId) });
    expect(inWorker).toEqual(here);
  });

  it('fails what a worker was running when the worker stops, as Lambda.Unknown', async () => {
    // Prepare: a host of its own, so stopping it leaves the other tests' workers alone.
    const own = startFunctionWorkers(1);

    // Act: the worker is still loading the handler module when it is stopped.
    const running = own.invoke('ledger-snapshot', scheduledEvent, contextFor('docket-ledger-snapshot'));
    const outcome = running.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await own.close();

    // Assess
    const error = await outcome;
    expect(error).toBeInstanceOf(FunctionWorkerExitedError);
    expect((error as Error).name).toBe('Lambda.Unknown');
  });
});
