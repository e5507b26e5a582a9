import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { ListExecutionsCommand, SFNClient } from '@aws-sdk/client-sfn';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadIdempotencyKey } from '../../lambdas/shared/uploadIdentity.js';
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

  it('looks again at a queued upload until it is a workflow, and no more after', async () => {
    // Prepare: two uploads nobody started, and a reconciliation file. A first start queues both.
    const dataDir = await mkdtemp(join(tmpdir(), 'docket-recovery-'));
    const reconciledFile = join(dataDir, 'uploads-reconciled.json');
    await upload('incoming/globex/cut.pdf');
    await upload('incoming/globex/made.pdf');
    const recover = async () => {
      // Ahead of the uploads' LastModified by more than the reconciliation's slack.
      const report = await recoverAfterRestart(
        recoveryDeps({ reconciledFile, now: () => Date.now() + 5000 }),
      );
      return { report, queued: await drainQueuedKeys('incoming/globex/') };
    };
    const first = await recover();
    // The starter took both; only made.pdf's execution lived to ingest: cut.pdf's was killed first.
    await ingested(first.queued.events.find((e) => e.detail.object.key.endsWith('made.pdf')));

    // Act: the next start, then one after cut.pdf's second run reached ingest.
    const second = await recover();
    await ingested(second.queued.events[0]);
    const third = await recover();

    // Assess
    expect(first.queued.keys).toEqual(['incoming/globex/cut.pdf', 'incoming/globex/made.pdf']);
    expect(second.queued.keys).toEqual(['incoming/globex/cut.pdf']);
    expect(third.queued.keys).toEqual([]);
    expect([first, second, third].flatMap((r) => r.report.failed)).toEqual([]);
    await rm(dataDir, { recursive: true, force: true });
  });
});

interface QueuedEvent {
  detail: { bucket: { name: string }; object: { key: string; etag?: string; sequencer?: string } };
}

/** Receives and deletes every queued upload event, and returns those under `prefix`, sorted. */
const drainQueuedKeys = async (prefix: string) => {
  const events: QueuedEvent[] = [];
  for (;;) {
    const { Messages = [] } = await queue.client.send(
      new ReceiveMessageCommand({ QueueUrl: queues.uploads, MaxNumberOfMessages: 10 }),
    );
    if (Messages.length === 0) break;
    for (const m of Messages) {
      events.push(JSON.parse(m.Body ?? '{}'));
      await queue.client.send(
        new DeleteMessageCommand({ QueueUrl: queues.uploads, ReceiptHandle: m.ReceiptHandle }),
      );
    }
  }
  const mine = events.filter((e) => e.detail.object.key.startsWith(prefix));
  mine.sort((a, b) => a.detail.object.key.localeCompare(b.detail.object.key));
  return { events: mine, keys: mine.map((e) => e.detail.object.key) };
};

/** What ingest does first for a queued upload: makes its workflow, under the upload's identity. */
const ingested = async (event: QueuedEvent | undefined) => {
  if (!event) throw new Error('no queued event to ingest');
  await env.store.create({
    tenant: 'globex',
    idempotencyKey: uploadIdempotencyKey(event.detail.bucket.name, event.detail.object),
  });
};
