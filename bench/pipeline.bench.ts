/**
 * `npm run bench:pipeline`: the whole pipeline on the local stack.
 *
 *   npx tsx bench/pipeline.bench.ts [--count N] [--load M] [--concurrency C] [--json] [--baseline FILE]
 *
 * 1. Bare work: parse (the guarded parser) + extract of the N documents in this process, one per
 *    core at a time: the floor any pipeline around them has to stand on.
 * 2. Pipeline: the same N documents uploaded to the local stack (C uploads in flight) on the
 *    auto-approve path; documents/s, end-to-end latency p50/p95 (upload to `completed`), and the
 *    overhead ratio = pipeline wall time / bare wall time (goal <= 1.25); calls per document by
 *    service and operation (every request the system's AWS clients sent, the upload included, the
 *    bench's own polling not), the connections they opened, and the process's peak RSS.
 *    `--baseline FILE` (the `--json` output of an earlier run) adds a `before` column.
 * 3. Load: M uploads at once on a fresh stack -> M workflows, none lost, none duplicated, ledger
 *    verify clean.
 * Stages run in-process (the parse guard forks a child per document): there is no worker pool
 * to compare 1 vs 2 workers of.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Command } from 'commander';
import { CORPUS_PROVIDERS, generateCorpus } from '../cli/samples/corpus.js';
import { HeuristicExtractor } from '../lambdas/extract/text/heuristicExtractor.js';
import { parsePdf } from '../lambdas/parse/parsePdf.js';
import { callCounts, resetCallCounts, uncounted } from '../lambdas/shared/callCount.js';
import { createDocumentClient, createS3Client } from '../lambdas/shared/clients.js';
import { putProviders } from '../lambdas/shared/providersStore.js';
import { verifyLedger, type WorkflowItem, WorkflowStore } from '../lambdas/shared/store/index.js';
import { resolveLocalConfig } from '../local/config.js';
import { type LocalRuntime, startLocalRuntime } from '../local/runtime.js';
import { isTerminal } from '../statemachine/index.js';
import {
  type CallsPerDocument,
  countConnections,
  formatCallTable,
  perDocument,
  totals,
} from './support/callTable.js';
import { pool } from './support/pool.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

const options = new Command('bench:pipeline')
  .option('--count <n>', 'documents on the auto path', Number, 500)
  .option('--load <n>', 'uploads at once in the load run (0 to skip)', Number, 1000)
  .option('--concurrency <n>', 'uploads (and bare parses) in flight', Number, 8)
  .option('--json', 'print JSON only')
  .option('--baseline <file>', 'the --json output of an earlier run: its calls per document as "before"')
  .parse()
  .opts<{ count: number; load: number; concurrency: number; json?: boolean; baseline?: string }>();

const log = (line: string) => {
  if (!options.json) process.stderr.write(`${line}\n`);
};
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

const startStack = async (): Promise<{ runtime: LocalRuntime; dataDir: string }> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'docket-bench-'));
  const runtime = await startLocalRuntime(
    resolveLocalConfig({
      dataDir,
      ports: { api: 0, sfn: 0, dynamodb: 0, s3: 0, sqs: 0, events: 0 },
      lambdaLogLevel: process.env.POWERTOOLS_LOG_LEVEL,
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

/** Uploads every PDF and waits until each has a terminal workflow; returns upload times by key. */
const runThrough = async (runtime: LocalRuntime, pdfs: Uint8Array[], concurrency: number, prefix: string) => {
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
    const done = items.filter((i) => isTerminal(i.state)).length;
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

const corpus = await generateCorpus({ set: 'clean', count: Math.max(options.count, 1) });
const pdfs = await Promise.all(corpus.map((d) => d.pdf()));
log(`${pdfs.length} clean documents generated`);

// 1. Bare parse + extract, in this process.
const extractor = new HeuristicExtractor();
const bareStarted = performance.now();
// As many parses at once as the pipeline runs (one per core), so both keep their children warm.
await pool(pdfs, availableParallelism(), async (pdf) => {
  await extractor.extract(await parsePdf(pdf));
});
const bareSeconds = (performance.now() - bareStarted) / 1000;
log(`bare parse+extract: ${bareSeconds.toFixed(1)} s`);

// 2. The pipeline.
const stack = await startStack();
// Count from here: what starting the stack and importing providers cost is not per document.
resetCallCounts();
const connections = countConnections();
const run = await runThrough(stack.runtime, pdfs, options.concurrency, 'auto');
const calls = perDocument(callCounts(), pdfs.length);
const serviceOfPort = new Map(
  (['dynamodb', 's3', 'sfn', 'sqs', 'events'] as const).map((service) => [
    Number(new URL(stack.runtime.endpoints[service]).port),
    service,
  ]),
);
const connectionsByService = Object.fromEntries(
  [...connections.byPort()].map(([port, n]) => [serviceOfPort.get(port) ?? `port ${port}`, n]),
);
const finishedAt = Math.max(...run.items.map((i) => Date.parse(i.updatedAt)));
const pipelineSeconds = (finishedAt - run.started) / 1000;
const latencies = run.items
  .map((i) => Date.parse(i.updatedAt) - (run.uploadedAt.get(i.source?.key ?? '') ?? run.started))
  .sort((a, b) => a - b);
const outcomes = Object.fromEntries(
  [...new Set(run.items.map((i) => i.state))].map((s) => [s, run.items.filter((i) => i.state === s).length]),
);
// 3. Load: everything at once, on the same stack (the handlers bind their endpoints once per
// process, as on Lambda, so a second stack in this process would not be theirs).
let load: Record<string, unknown> | undefined;
if (options.load > 0) {
  log(`load run: ${options.load} uploads at once`);
  const loadPdfs = Array.from({ length: options.load }, (_, i) => pdfs[i % pdfs.length] as Uint8Array);
  const loadRun = await runThrough(stack.runtime, loadPdfs, options.load, 'load');
  const keys = loadRun.items.map((i) => i.source?.key);
  const ledger = await verifyLedger(stack.runtime.store, { tenant: 'bench' });
  load = {
    uploads: options.load,
    workflows: loadRun.items.length,
    lost: [...loadRun.uploadedAt.keys()].filter((k) => !keys.includes(k)).length,
    duplicated: keys.length - new Set(keys).size,
    seconds: Number(
      ((Math.max(...loadRun.items.map((i) => Date.parse(i.updatedAt))) - loadRun.started) / 1000).toFixed(1),
    ),
    ledger: { checked: ledger.checked, broken: ledger.broken.length },
  };
}
await stack.runtime.close();
await rm(stack.dataDir, { recursive: true, force: true });

const result = {
  documents: pdfs.length,
  concurrency: options.concurrency,
  bare: {
    seconds: Number(bareSeconds.toFixed(1)),
    documentsPerSecond: Number((pdfs.length / bareSeconds).toFixed(2)),
  },
  pipeline: {
    seconds: Number(pipelineSeconds.toFixed(1)),
    documentsPerSecond: Number((pdfs.length / pipelineSeconds).toFixed(2)),
    latencyP50Ms: percentile(latencies, 50),
    latencyP95Ms: percentile(latencies, 95),
    outcomes,
  },
  overheadRatio: Number((pipelineSeconds / bareSeconds).toFixed(2)),
  callsPerDocument: calls,
  callsPerDocumentByService: totals(calls),
  connectionsByService,
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  workers: 'n/a: stages run in-process; each parse runs in its own child process',
  ...(load && { load }),
};
const baseline = options.baseline
  ? (JSON.parse(await readFile(options.baseline, 'utf8')) as { callsPerDocument: CallsPerDocument[] })
  : undefined;
if (options.json) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`
Pipeline on the local stack (${result.documents} clean documents, ${result.concurrency} in flight)
  bare parse+extract      ${result.bare.seconds} s   ${result.bare.documentsPerSecond} docs/s
  full pipeline           ${result.pipeline.seconds} s   ${result.pipeline.documentsPerSecond} docs/s   ${JSON.stringify(outcomes)}
  end-to-end latency      p50 ${result.pipeline.latencyP50Ms} ms   p95 ${result.pipeline.latencyP95Ms} ms
  overhead ratio          ${result.overheadRatio}  (goal <= 1.25)
  peak RSS                ${result.peakRssMb} MB (this process; parse children not included)
  connections opened      ${JSON.stringify(connectionsByService)}
  calls per document (the upload's PutObject included; the bench's polling not)
${formatCallTable(calls, baseline?.callsPerDocument)}
  workers                 ${result.workers}${
    load
      ? `
  load run                ${load.uploads} uploads -> ${load.workflows} workflows, ${load.lost} lost, ${load.duplicated} duplicated, ledger broken ${(load.ledger as { broken: number }).broken} (${load.seconds} s)`
      : ''
  }`);
}
process.exit(0);
