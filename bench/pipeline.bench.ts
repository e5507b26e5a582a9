/**
 * `npm run bench:pipeline`: the whole pipeline on the local stack.
 *
 *   npx tsx bench/pipeline.bench.ts [--count N] [--load M] [--concurrency C] [--json] [--baseline FILE]
 *
 * 1. Bare work: parse (the guarded parser) + extract of the N documents in this process, one per
 *    core at a time: the floor any pipeline around them has to stand on.
 * 2. Pipeline: the same N documents uploaded to a fresh local stack (C uploads in flight) on the
 *    auto-approve path, once with the functions in 1 worker thread and once in one per core
 *    (`--workers`, default "1,<cores>"; 0 runs them in the runtime's thread, and only once per
 *    process: in-process handlers bind their endpoints once): documents/s, end-to-end latency
 *    p50/p95 (upload to `completed`), the overhead ratio = pipeline wall time / bare wall time
 *    (goal <= 2.0) and the speed-up of each run over the first; for the last run, calls per
 *    document by service and operation (every request the system's AWS clients sent, in every
 *    thread, the upload included, the bench's own polling not) and the connections the runtime's
 *    thread opened. `--baseline FILE` (the `--json` output of an earlier run) adds a `before`
 *    column. Peak RSS is the whole process's (worker threads included; parse children not).
 * 3. Load: M uploads at once on the last stack -> M workflows, none lost, none duplicated, ledger
 *    verify clean.
 * 4. With `--seeded-dir DIR` (a data directory `npm run bench:start -- --data-dir DIR` seeded with
 *    finished workflows; 100,000 take about two hours, so no run seeds them itself): the start
 *    time of that directory against an empty one, median of 3 alternating starts (goal <= 1.5x).
 */
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { generateCorpus } from '../cli/samples/corpus.js';
import { HeuristicExtractor } from '../lambdas/extract/text/heuristicExtractor.js';
import { parsePdf } from '../lambdas/parse/parsePdf.js';
import { verifyLedger } from '../lambdas/shared/store/index.js';
import {
  type CallsPerDocument,
  countConnections,
  type FunctionCalls,
  formatCallTable,
  formatFunctionTable,
  perDocument,
  perFunction,
  totals,
} from './support/callTable.js';
import { connectionsOf, runThrough, startStack, stopStack } from './support/pipelineStack.js';
import { pool } from './support/pool.js';
import { seededCount } from './support/seedFinished.js';
import { compareStartTimes } from './support/startTiming.js';
import { percentile } from './support/stats.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

const options = new Command('bench:pipeline')
  .option('--count <n>', 'documents on the auto path', Number, 500)
  .option('--load <n>', 'uploads at once in the load run (0 to skip)', Number, 1000)
  .option('--concurrency <n>', 'uploads (and bare parses) in flight', Number, 8)
  .option('--workers <list>', 'worker threads of each pipeline run, in order', `1,${availableParallelism()}`)
  .option('--json', 'print JSON only')
  .option('--seeded-dir <dir>', 'a data directory bench:start seeded: its start time against an empty one')
  .option('--baseline <file>', 'the --json output of an earlier run: its calls per document as "before"')
  .parse()
  .opts<{
    count: number;
    load: number;
    concurrency: number;
    workers: string;
    json?: boolean;
    baseline?: string;
    seededDir?: string;
  }>();
const workerRuns = options.workers.split(',').map(Number);
if (workerRuns.some((n) => !Number.isInteger(n) || n < 0) || workerRuns.filter((n) => n === 0).length > 1) {
  throw new Error(`--workers ${options.workers}: give worker counts such as 1,2 (0 at most once)`);
}

const log = (line: string) => {
  if (!options.json) process.stderr.write(`${line}\n`);
};

/** One pipeline run's figures. */
interface PipelineRun {
  workers: number;
  seconds: number;
  documentsPerSecond: number;
  latencyP50Ms: number;
  latencyP95Ms: number;
  overheadRatio: number;
  /** The first run's wall time over this one's. */
  speedUp: number;
  /** Event loop utilization during the run, %: the runtime's thread (emulators, engine) and each worker. */
  busyPercent: { runtime: number; workers: number[] };
  outcomes: Record<string, number>;
}

let connectionsByService: Record<string, number> = {};

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

// 2. The pipeline, once per worker count, each on a fresh stack.
const runs: PipelineRun[] = [];
let last:
  | { stack: Awaited<ReturnType<typeof startStack>>; calls: CallsPerDocument[]; byFunction: FunctionCalls[] }
  | undefined;
for (const [index, workers] of workerRuns.entries()) {
  if (last) await stopStack(last.stack);
  log(
    `pipeline with ${workers === 0 ? 'the functions in the runtime thread' : `${workers} worker thread(s)`}`,
  );
  const stack = await startStack(workers);
  // Count from here: what starting the stack and importing providers cost is not per document.
  await stack.runtime.functions.resetCallCounts();
  const connections = index === workerRuns.length - 1 ? countConnections() : undefined;
  const busyBefore = {
    runtime: performance.eventLoopUtilization(),
    workers: stack.runtime.functions.eventLoopUtilization(),
  };
  const run = await runThrough(stack.runtime, pdfs, options.concurrency, `auto${index}`, log);
  const counted = await stack.runtime.functions.callCounts();
  const calls = perDocument(counted, pdfs.length);
  const byFunction = perFunction(counted, pdfs.length);
  const percent = (u: number) => Math.round(u * 100);
  const busy = {
    runtime: percent(performance.eventLoopUtilization(busyBefore.runtime).utilization),
    workers: stack.runtime.functions
      .eventLoopUtilization()
      .map((now, i) => percent(performance.eventLoopUtilization(now, busyBefore.workers[i]).utilization)),
  };
  const finishedAt = Math.max(...run.items.map((i) => Date.parse(i.updatedAt)));
  const seconds = (finishedAt - run.started) / 1000;
  const latencies = run.items
    .map((i) => Date.parse(i.updatedAt) - (run.uploadedAt.get(i.source?.key ?? '') ?? run.started))
    .sort((a, b) => a - b);
  runs.push({
    workers,
    seconds: Number(seconds.toFixed(1)),
    documentsPerSecond: Number((pdfs.length / seconds).toFixed(2)),
    latencyP50Ms: percentile(latencies, 50),
    latencyP95Ms: percentile(latencies, 95),
    overheadRatio: Number((seconds / bareSeconds).toFixed(2)),
    speedUp: Number(((runs[0]?.seconds ?? seconds) / seconds).toFixed(2)),
    busyPercent: busy,
    outcomes: Object.fromEntries(
      [...new Set(run.items.map((i) => i.state))].map((s) => [
        s,
        run.items.filter((i) => i.state === s).length,
      ]),
    ),
  });
  if (connections) connectionsByService = connectionsOf(stack.runtime, connections);
  last = { stack, calls, byFunction };
}
const { stack, calls, byFunction } = last as NonNullable<typeof last>;
// 3. Load: everything at once, on the last stack.
let load: Record<string, unknown> | undefined;
if (options.load > 0) {
  log(`load run: ${options.load} uploads at once`);
  const loadPdfs = Array.from({ length: options.load }, (_, i) => pdfs[i % pdfs.length] as Uint8Array);
  const loadRun = await runThrough(stack.runtime, loadPdfs, options.load, 'load', log);
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
await stopStack(stack);

// 4. Start time with the seeded directory's finished workflows, against an empty directory.
let startTime: Record<string, number> | undefined;
if (options.seededDir) {
  const seededDir = resolve(options.seededDir);
  const finished = seededCount(seededDir);
  if (finished === 0)
    throw new Error(
      `--seeded-dir ${seededDir}: seed it first with npm run bench:start -- --data-dir ${seededDir}`,
    );
  log(`start time: ${finished} finished workflows against an empty data directory`);
  const { emptyMedianMs, seededMedianMs, ratio } = await compareStartTimes(seededDir, 3, log);
  startTime = { finishedWorkflows: finished, emptyMedianMs, seededMedianMs, ratio };
}

const result = {
  documents: pdfs.length,
  concurrency: options.concurrency,
  bare: {
    seconds: Number(bareSeconds.toFixed(1)),
    documentsPerSecond: Number((pdfs.length / bareSeconds).toFixed(2)),
  },
  runs,
  callsPerDocument: calls,
  callsPerDocumentByService: totals(calls),
  callsPerDocumentByFunction: byFunction,
  connectionsByService,
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  ...(load && { load }),
  ...(startTime && { startTime }),
};
const baseline = options.baseline
  ? (JSON.parse(await readFile(options.baseline, 'utf8')) as { callsPerDocument: CallsPerDocument[] })
  : undefined;
const runLine = (r: PipelineRun) =>
  `  ${(r.workers === 0 ? 'runtime thread' : `${r.workers} worker${r.workers > 1 ? 's' : ''}`).padEnd(22)}  ` +
  `${r.seconds} s   ${r.documentsPerSecond} docs/s   overhead ${r.overheadRatio}   x${r.speedUp}   ` +
  `p50 ${r.latencyP50Ms} ms   p95 ${r.latencyP95Ms} ms   ${JSON.stringify(r.outcomes)}\n` +
  `  ${''.padEnd(22)}  busy: runtime thread ${r.busyPercent.runtime}%${r.busyPercent.workers.map((w, i) => `, worker ${i + 1} ${w}%`).join('')}`;
if (options.json) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`
Pipeline on the local stack (${result.documents} clean documents, ${result.concurrency} in flight, ${availableParallelism()} cores)
  bare parse+extract      ${result.bare.seconds} s   ${result.bare.documentsPerSecond} docs/s
  functions in            wall time, docs/s, overhead vs bare (goal <= 2.0), speed-up over the first run, latency upload to completed
${runs.map(runLine).join('\n')}
  peak RSS                ${result.peakRssMb} MB (this process, worker threads included; parse children not)
  connections opened      ${JSON.stringify(connectionsByService)} (the runtime thread's, last run)
  calls per document, last run (the upload's PutObject included; the bench's polling not)
${formatCallTable(calls, baseline?.callsPerDocument)}
  calls per document by function, last run
${formatFunctionTable(byFunction)}${
  load
    ? `
  load run                ${load.uploads} uploads -> ${load.workflows} workflows, ${load.lost} lost, ${load.duplicated} duplicated, ledger broken ${(load.ledger as { broken: number }).broken} (${load.seconds} s)`
    : ''
}${
  startTime
    ? `
  start time              ${startTime.emptyMedianMs} ms empty, ${startTime.seededMedianMs} ms with ${startTime.finishedWorkflows} finished workflows: ${startTime.ratio}x (goal <= 1.5)`
    : `
  start time              not measured: --seeded-dir DIR (seeded by npm run bench:start -- --data-dir DIR)`
}`);
}
process.exit(0);
