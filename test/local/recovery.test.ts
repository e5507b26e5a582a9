import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { ListExecutionsCommand, SFNClient } from '@aws-sdk/client-sfn';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadQueues, type UploadQueues } from '../../local/events/uploadPath.js';
import { recoverAfterRestart, uploadId } from '../../local/recovery.js';
import { LocalStepFunctions } from '../../local/sfn/localStepFunctions.js';
import { type SfnHttpServer, startSfnHttpServer } from '../../local/sfn/sfnHttpServer.js';
import { writeCrashedEntry } from '../support/crashedWriter.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';
import { type SqsFixture, startSqsFixture } from './emulators/support/localSqs.js';
import { LOCAL_CREDENTIALS } from './sfn/support/sfnFixture.js';

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
let service: LocalStepFunctions;
let server: SfnHttpServer;
let sfn: SFNClient;
let stateMachineArn: string;
let queue: SqsFixture;
let queues: UploadQueues;

beforeAll(async () => {
  env = await startStageEnvironment();
  queue = await startSqsFixture();
  queues = await createUploadQueues(queue.client, queue.sqs);
  service = await LocalStepFunctions.open({});
  server = await startSfnHttpServer(service);
  sfn = new SFNClient({ endpoint: server.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  // Recovery only starts executions; what they run does not matter here.
  stateMachineArn = service.registerStateMachine({
    name: 'recovery',
    definition: { StartAt: 'Done', States: { Done: { Type: 'Pass', End: true } } },
  });
});
afterAll(async () => {
  sfn.destroy();
  await server.close();
  await service.close();
  await env.close();
  await queue.remove();
});

/** Recovery's dependencies on this file's emulators, with `extra` (a clock, a reconciliation file...). */
const recoveryDeps = (extra: Partial<Parameters<typeof recoverAfterRestart>[0]> = {}) => ({
  store: env.store,
  documents: env.documentClient,
  workflowsTable: env.dynamo.tables.workflows,
  s3: env.s3,
  sfn,
  sqs: queue.client,
  uploadQueueUrl: queues.uploads,
  bucket: env.bucket,
  stateMachineArn,
  region: 'us-east-1',
  ...extra,
});

const upload = async (key: string) =>
  (await env.s3.send(new PutObjectCommand({ Bucket: env.bucket, Key: key, Body: `%PDF-1.7 ${key}` }))).ETag;

describe('recovery after a restart', () => {
  it('resumes from the log, not a stale item, and queues each unbridged upload once', async () => {
    // Prepare: a workflow at pending; one whose cancel was logged but never reached its item
    // (killed between the two writes); an upload nobody started; one the live bridge started.
    const waiting = await env.store.create({ tenant: 'acme', idempotencyKey: 'waiting' });
    const cancelled = await env.store.create({ tenant: 'acme', idempotencyKey: 'cancelled' });
    await writeCrashedEntry(env.documentClient, env.dynamo.tables.transitions, {
      workflowId: cancelled.workflow.id,
      seq: 1,
      tenant: 'acme',
      from: 'pending',
      to: 'cancelled',
      event: 'cancel',
      actor: 'ops',
      at: new Date().toISOString(),
      durationMs: 5,
      retryCount: 0,
    });
    await upload('incoming/acme/lost.pdf');
    const bridgedEtag = await upload('incoming/acme/bridged.pdf');

    // Act
    const report = await recoverAfterRestart(
      recoveryDeps({
        alreadyStarted: (key, etag) =>
          uploadId(key, etag) === uploadId('incoming/acme/bridged.pdf', bridgedEtag),
      }),
    );

    // Assess
    const { executions = [] } = await sfn.send(new ListExecutionsCommand({ stateMachineArn }));
    const inputs = await Promise.all(
      executions.map(async (e) =>
        JSON.parse((await service.waitForExecution(e.executionArn ?? '')).input ?? '{}'),
      ),
    );
    const { Messages = [] } = await queue.client.send(
      new ReceiveMessageCommand({ QueueUrl: queues.uploads, MaxNumberOfMessages: 10 }),
    );
    expect(report).toEqual({ resumed: 1, started: 1, failed: [] });
    expect(inputs.map((i) => i.workflowId)).toEqual([waiting.workflow.id]);
    expect(Messages.map((m) => JSON.parse(m.Body ?? '{}').detail.object.key)).toEqual([
      'incoming/acme/lost.pdf',
    ]);
    expect((await env.store.get(cancelled.workflow.id)).state).toBe('cancelled');
  });

  it('looks again only at uploads newer than the last complete reconciliation', async () => {
    // Prepare: an upload nobody started, reconciled (queued) by a first start.
    const dataDir = await mkdtemp(join(tmpdir(), 'docket-recovery-'));
    const reconciledFile = join(dataDir, 'uploads-reconciled.json');
    await upload('incoming/globex/once.pdf');
    const recover = () =>
      recoverAfterRestart(
        // Ahead of the uploads' LastModified by more than the reconciliation's slack.
        recoveryDeps({ reconciledFile, now: () => Date.now() + 5000 }),
      );
    const first = await recover();

    // Act
    const second = await recover();

    // Assess
    expect(first.started).toBeGreaterThanOrEqual(1);
    expect(second.started).toBe(0);
    expect(second.failed).toEqual([]);
    await rm(dataDir, { recursive: true, force: true });
  });
});
