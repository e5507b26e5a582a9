import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { CORPUS_PROVIDERS } from '../../cli/samples/corpus.js';
import { uncounted } from '../../lambdas/shared/callCount.js';
import { createDocumentClient, createS3Client } from '../../lambdas/shared/clients.js';
import { putProviders } from '../../lambdas/shared/providersStore.js';
import { type WorkflowItem, WorkflowStore } from '../../lambdas/shared/store/index.js';
import { resolveLocalConfig } from '../../local/config.js';
import { type LocalRuntime, startLocalRuntime } from '../../local/runtime.js';
import { isAtRest } from '../../statemachine/index.js';
import type { countConnections } from './callTable.js';
import { pool } from './pool.js';

/*
 * The local stack as bench:pipeline drives it: started on a temp data directory with the corpus
 * providers, fed uploads, watched until every workflow is terminal, stopped and removed.
 */

/** A fresh local stack with `workers` function workers, on free ports, providers imported. */
export const startStack = async (workers: number): Promise<{ runtime: LocalRuntime; dataDir: string }> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'docket-bench-'));
  const runtime = await startLocalRuntime(
    resolveLocalConfig({
      dataDir,
      ports: { api: 0, sfn: 0, dynamodb: 0, s3: 0, sqs: 0, events: 0 },
      lambdaLogLevel: process.env.POWERTOOLS_LOG_LEVEL,
      workers,
    }),
  );
  const client = createDocumentClient({
    endpoint: runtime.endpoints.dynamodb,
    region: runtime.endpoints.region,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await putProviders(client, runtime.endpoints.tables.providers, CORPUS_PROVIDERS);
  client.destroy();
  return { runtime, dataDir };
};

/** Stops the stack and removes its data directory. */
export const stopStack = async ({ runtime, dataDir }: { runtime: LocalRuntime; dataDir: string }) => {
  await runtime.close();
  await rm(dataDir, { recursive: true, force: true });
};

/** The connections the runtime's thread opened, by the service on each port. */
export const connectionsOf = (runtime: LocalRuntime, connections: ReturnType<typeof countConnections>) => {
  const serviceOfPort = new Map(
    (['dynamodb', 's3', 'sfn', 'sqs', 'events'] as const).map((service) => [
      Number(new URL(runtime.endpoints[service]).port),
      service,
    ]),
  );
  return Object.fromEntries(
    [...connections.byPort()].map(([port, n]) => [serviceOfPort.get(port) ?? `port ${port}`, n]),
  );
};

/**
 * Uploads every PDF and waits until each workflow is terminal or waits for a review; returns upload
 * times by key.
 */
export const runThrough = async (
  runtime: LocalRuntime,
  pdfs: Uint8Array[],
  concurrency: number,
  prefix: string,
  log: (line: string) => void,
) => {
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const s3 = createS3Client({
    endpoint: runtime.endpoints.s3,
    region: runtime.endpoints.region,
    credentials,
  });
  // Watching the stack is not what a document costs: the polling store's calls are not counted.
  const watcher = uncounted(
    createDocumentClient({
      endpoint: runtime.endpoints.dynamodb,
      region: runtime.endpoints.region,
      credentials,
    }),
  );
  const watch = new WorkflowStore({ client: watcher, tables: runtime.endpoints.tables });
  const uploadedAt = new Map<string, number>();
  const started = Date.now();
  await pool(pdfs, concurrency, async (pdf, i) => {
    const key = `incoming/bench/${prefix}-${String(i).padStart(5, '0')}.pdf`;
    await s3.send(new PutObjectCommand({ Bucket: runtime.endpoints.bucket, Key: key, Body: pdf }));
    uploadedAt.set(key, Date.now());
  });
  log(`  uploaded ${pdfs.length} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  let items: WorkflowItem[] = [];
  // Stop waiting once nothing has moved for two minutes: what is missing then counts as lost.
  let lastProgress = { done: -1, at: Date.now() };
  for (;;) {
    items = [];
    for await (const item of watch.listAll({ tenant: 'bench' })) {
      if (item.source?.key.startsWith(`incoming/bench/${prefix}-`)) items.push(item);
    }
    // A document sent to review waits for a person, which no bench run provides: it is settled.
    const done = items.filter((i) => isAtRest(i.state)).length;
    log(`  ${done}/${pdfs.length} finished`);
    if (done >= pdfs.length) break;
    if (done !== lastProgress.done) lastProgress = { done, at: Date.now() };
    else if (Date.now() - lastProgress.at > 120_000) {
      log(`  no progress for 2 minutes: ${pdfs.length - done} not finished`);
      break;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
  s3.destroy();
  watcher.destroy();
  return { started, uploadedAt, items };
};
