/**
 * `npm run bench:backpressure`: a burst of distinct uploads against the execution-slot bound.
 *
 *   npx tsx bench/backpressure.bench.ts [--docs N] [--limit L] [--concurrency C] [--json]
 *
 * N distinct documents (the sample corpus, so none shares content with another) are put into
 * the local stack's S3 at once (C PUTs in flight), with `maxRunningExecutions` = L. Each goes
 * S3 -> upload queue -> starter -> one execution. Reported: lost (uploads without a workflow,
 * goal 0), duplicated (uploads with more than one workflow, or more than one execution named by
 * one workflow id; goal 0), how many reused a cached extraction, dead letters, the peak of held
 * slots (never above L) and of RUNNING executions (reviews waiting for a human count there, not
 * in the slots), and the total time from the first PUT until every upload finished its automatic
 * part (terminal, or waiting for a reviewer) and the slots were all given back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { type ExecutionListItem, ListExecutionsCommand } from '@aws-sdk/client-sfn';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { Command } from 'commander';
import { CORPUS_PROVIDERS, generateCorpus } from '../cli/samples/corpus.js';
import {
  createDocumentClient,
  createS3Client,
  createSfnClient,
  createSqsClient,
} from '../lambdas/shared/clients.js';
import { putProviders } from '../lambdas/shared/providersStore.js';
import { ExecutionSlots } from '../lambdas/shared/slots/index.js';
import { resolveLocalConfig } from '../local/config.js';
import { startLocalRuntime } from '../local/runtime.js';
import { isAtRest } from '../statemachine/index.js';
import { pool } from './support/pool.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

const options = new Command('bench:backpressure')
  .option('--docs <n>', 'distinct documents uploaded at once', Number, 10_000)
  .option('--limit <n>', 'maxRunningExecutions', Number, 50)
  .option('--concurrency <n>', 'PUTs in flight', Number, 64)
  .option('--json', 'print JSON only')
  .parse()
  .opts<{ docs: number; limit: number; concurrency: number; json?: boolean }>();

const log = (line: string) => {
  if (!options.json) process.stderr.write(`${line}\n`);
};

const dataDir = await mkdtemp(join(tmpdir(), 'docket-bench-bp-'));
const runtime = await startLocalRuntime(
  resolveLocalConfig({
    dataDir,
    ports: { api: 0, sfn: 0, dynamodb: 0, s3: 0, sqs: 0, events: 0 },
    policy: { maxRunningExecutions: options.limit },
    lambdaLogLevel: 'SILENT',
  }),
  { log: (line) => log(`  runtime: ${line}`) },
);
const { endpoints } = runtime;
const config = {
  region: endpoints.region,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
};
const documents = createDocumentClient({ ...config, endpoint: endpoints.dynamodb });
const s3 = createS3Client({ ...config, endpoint: endpoints.s3 });
const sfn = createSfnClient({ ...config, endpoint: endpoints.sfn });
const sqs = createSqsClient({ ...config, endpoint: endpoints.sqs });
const slots = new ExecutionSlots({
  client: documents,
  table: endpoints.tables.workflows,
  limit: options.limit,
});
await putProviders(documents, endpoints.tables.providers, CORPUS_PROVIDERS);

log(`rendering ${options.docs} distinct documents ...`);
const corpus = await generateCorpus({ count: options.docs });
const pdfs: Uint8Array[] = new Array(corpus.length);
await pool(corpus, 4, async (doc, i) => {
  pdfs[i] = await doc.pdf();
});
const keys = corpus.map((doc, i) => `incoming/bench/${String(i).padStart(5, '0')}-${doc.truth.id}.pdf`);

// Peaks: held slots sampled, RUNNING executions counted from the status changes.
let running = 0;
let peakRunning = 0;
let closed = 0;
runtime.sfn.onExecutionStatusChange((change) => {
  running += change.status === 'RUNNING' ? 1 : -1;
  if (change.status !== 'RUNNING') closed += 1;
  peakRunning = Math.max(peakRunning, running);
});
let peakSlots = 0;
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    peakSlots = Math.max(peakSlots, (await slots.holders()).length);
    await new Promise((r) => setTimeout(r, 200));
  }
})();

log(`uploading ${options.docs} at once (${options.concurrency} PUTs in flight), limit ${options.limit} ...`);
const started = performance.now();
await pool(keys, options.concurrency, async (key, i) => {
  await s3.send(new PutObjectCommand({ Bucket: endpoints.bucket, Key: key, Body: pdfs[i] }));
});
const uploadedMs = performance.now() - started;
log(`  uploaded in ${(uploadedMs / 1000).toFixed(1)} s`);

/** Workflows by source key, from one Scan. */
const workflowsByKey = async () => {
  const byKey = new Map<string, { state: string; cachedFrom?: string }[]>();
  for await (const item of runtime.store.listAll({ tenant: 'bench' })) {
    const key = item.source?.key ?? '';
    byKey.set(key, [
      ...(byKey.get(key) ?? []),
      { state: item.state, ...(item.cachedFrom && { cachedFrom: item.cachedFrom }) },
    ]);
  }
  return byKey;
};

/**
 * Waits until every upload finished its automatic part. While work is queued or slots are held it
 * looks only at the queue depth and the slots (a Scan of thousands of workflows every few seconds
 * would take the cores the stages need); then one Scan confirms, or the wait goes on.
 */
const settle = async () => {
  for (;;) {
    const queued = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: endpoints.queues.uploads, AttributeNames: ['All'] }),
    );
    const inQueue =
      Number(queued.Attributes?.ApproximateNumberOfMessages ?? 0) +
      Number(queued.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
    const held = (await slots.holders()).length;
    log(
      `  ${((performance.now() - started) / 1000).toFixed(0)} s: ${inQueue} queued, ${held} slots held, ${closed} executions closed`,
    );
    if (inQueue === 0 && held === 0) {
      const byKey = await workflowsByKey();
      const all = [...byKey.values()].flat();
      const done = all.filter((w) => isAtRest(w.state as never));
      if (done.length === all.length) return byKey;
    }
    await new Promise((r) => setTimeout(r, 5_000));
  }
};
const byKey = await settle();
const totalMs = performance.now() - started;
sampling = false;
await sampler;

const executions: ExecutionListItem[] = [];
let nextToken: string | undefined;
do {
  const page = await sfn.send(
    new ListExecutionsCommand({ stateMachineArn: endpoints.stateMachineArn, nextToken, maxResults: 1000 }),
  );
  executions.push(...(page.executions ?? []));
  nextToken = page.nextToken;
} while (nextToken);
const perWorkflow = new Map<string, number>();
for (const e of executions) {
  const id = e.name?.replace(/-(rerun|redrive|resume)-.*$/, '') ?? '';
  perWorkflow.set(id, (perWorkflow.get(id) ?? 0) + 1);
}
const dlq = await sqs.send(
  new GetQueueAttributesCommand({
    QueueUrl: endpoints.queues.deadLetters,
    AttributeNames: ['ApproximateNumberOfMessages'],
  }),
);
const workflows = [...byKey.values()].flat();
const states: Record<string, number> = {};
for (const w of workflows) states[w.state] = (states[w.state] ?? 0) + 1;
const result = {
  docs: keys.length,
  limit: options.limit,
  workflows: workflows.length,
  lost: keys.filter((k) => !byKey.has(k)).length,
  duplicated:
    [...byKey.values()].filter((found) => found.length > 1).length +
    [...perWorkflow.values()].filter((n) => n > 1).length,
  reusedCachedExtraction: workflows.filter((w) => w.cachedFrom).length,
  deadLetters: Number(dlq.Attributes?.ApproximateNumberOfMessages ?? 0),
  peakSlotsHeld: peakSlots,
  peakRunningExecutions: peakRunning,
  uploadSeconds: Number((uploadedMs / 1000).toFixed(1)),
  totalSeconds: Number((totalMs / 1000).toFixed(1)),
  documentsPerSecond: Number((keys.length / (totalMs / 1000)).toFixed(2)),
  states,
};
if (options.json) console.log(JSON.stringify(result, null, 2));
else {
  console.log(
    `bench:backpressure  ${result.docs} distinct uploads at once, maxRunningExecutions ${result.limit}`,
  );
  for (const [name, value] of Object.entries(result)) {
    if (name !== 'docs' && name !== 'limit')
      console.log(`  ${name.padEnd(24)} ${typeof value === 'object' ? JSON.stringify(value) : value}`);
  }
}

for (const client of [documents, s3, sfn, sqs]) client.destroy();
await runtime.close();
await rm(dataDir, { recursive: true, force: true });
if (result.lost > 0 || result.duplicated > 0 || result.peakSlotsHeld > options.limit) process.exitCode = 1;
