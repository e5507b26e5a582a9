/**
 * `npm run bench:start`: how long the local stack takes to start, with an empty data directory
 * and with N finished workflows in it, side by side.
 *
 *   npx tsx bench/startTime.bench.ts [--count N] [--data-dir DIR] [--runs R] [--json]
 *
 * The N workflows are seeded through the real APIs (workflow store on dynalite, StartExecution on
 * the local Step Functions endpoint; see support/seedFinished.ts) into `--data-dir`, once: a
 * later run with the same directory reuses them (and an interrupted seeding continues). A start
 * is timed from spawning `npm start`'s entry (`local/main.ts --json`) to the line it prints when
 * ready, then the stack is stopped with SIGINT as Ctrl-C would. Starts alternate between the
 * directories so a busy machine slows both alike; the median of R starts each is reported. The
 * first start of the seeded directory is a warm-up (it compacts what the seeding left) and is
 * printed apart. Goal: seeded median <= 1.5x the empty one. Also timed: the first execution lookup
 * after each start, which reads the compacted index a start leaves unread.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { DescribeExecutionCommand, ExecutionDoesNotExist, SFNClient } from '@aws-sdk/client-sfn';
import { Command } from 'commander';
import type { Endpoints } from '../local/endpoints.js';
import { seededCount, seedFinishedWorkflows } from './support/seedFinished.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

const options = new Command('bench:start')
  .option('--count <n>', 'finished workflows in the seeded data directory', Number, 100_000)
  .option('--data-dir <dir>', 'seeded data directory to create or reuse (default: a new temp dir)')
  .option('--runs <n>', 'timed starts of each directory', Number, 5)
  .option('--json', 'print JSON only')
  .parse()
  .opts<{ count: number; dataDir?: string; runs: number; json?: boolean }>();

const log = (line: string) => {
  if (!options.json) process.stderr.write(`${line}\n`);
};
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/**
 * Milliseconds of the first execution lookup after a start: the one that reads the index of the
 * compacted executions (any StartExecution or DescribeExecution does; a start does not).
 */
const timeFirstLookup = async (endpoints: Endpoints): Promise<number> => {
  const sfn = new SFNClient({
    endpoint: endpoints.sfn,
    region: endpoints.region,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const executionArn = endpoints.stateMachineArn.replace(':stateMachine:', ':execution:').concat(':no-such');
  const started = performance.now();
  try {
    await sfn.send(new DescribeExecutionCommand({ executionArn }));
  } catch (error) {
    if (!(error instanceof ExecutionDoesNotExist)) throw error;
  } finally {
    sfn.destroy();
  }
  return performance.now() - started;
};

/**
 * Milliseconds from spawning the stack on `dataDir` to its ready line, and of the first lookup
 * after it; then stops the stack cleanly.
 */
const timeStart = async (dataDir: string): Promise<{ ready: number; lookup: number }> => {
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'local/main.ts', '--data-dir', dataDir, '--ports', 'auto', '--json'],
    { env: { ...process.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const { ready, endpoints } = await new Promise<{ ready: number; endpoints: Endpoints }>((done, fail) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) =>
      done({ ready: performance.now() - started, endpoints: JSON.parse(line) as Endpoints }),
    );
    child.once('exit', (code) =>
      fail(new Error(`the stack exited (${code}) before it was ready:\n${stderr}`)),
    );
  });
  const lookup = await timeFirstLookup(endpoints);
  child.kill('SIGINT');
  await exited;
  return { ready, lookup };
};

const main = async () => {
  const seededDir = resolve(options.dataDir ?? (await mkdtemp(join(tmpdir(), 'docket-bench-start-'))));
  const before = seededCount(seededDir);
  log(`seeded data directory ${seededDir}: ${before} finished workflows, ${options.count} wanted`);
  const seeding = await seedFinishedWorkflows(seededDir, options.count, log);
  if (seeding.seconds > 0) {
    log(`seeded ${seeding.seeded - before} in ${seeding.seconds.toFixed(0)} s`);
  }

  const emptyDir = await mkdtemp(join(tmpdir(), 'docket-bench-empty-'));
  try {
    log('warm-up: first start of each directory (the seeded one compacts what seeding left)');
    const firstEmpty = await timeStart(emptyDir);
    const firstSeeded = await timeStart(seededDir);
    log(`  empty (fresh) ${firstEmpty.ready.toFixed(0)} ms, seeded ${firstSeeded.ready.toFixed(0)} ms`);
    const empty: number[] = [];
    const seeded: number[] = [];
    const lookups = { empty: [] as number[], seeded: [] as number[] };
    for (let run = 1; run <= options.runs; run++) {
      const e = await timeStart(emptyDir);
      const s = await timeStart(seededDir);
      empty.push(e.ready);
      seeded.push(s.ready);
      lookups.empty.push(e.lookup);
      lookups.seeded.push(s.lookup);
      log(
        `  run ${run}: empty ${e.ready.toFixed(0)} ms, ${options.count} finished ${s.ready.toFixed(0)} ms ` +
          `(first lookup after: ${e.lookup.toFixed(0)} / ${s.lookup.toFixed(0)} ms)`,
      );
    }
    const result = {
      finishedWorkflows: options.count,
      runs: options.runs,
      emptyMedianMs: Math.round(median(empty)),
      seededMedianMs: Math.round(median(seeded)),
      ratio: Number((median(seeded) / median(empty)).toFixed(2)),
      firstLookupMedianMs: {
        empty: Math.round(median(lookups.empty)),
        seeded: Math.round(median(lookups.seeded)),
      },
      firstStartMs: { emptyFresh: Math.round(firstEmpty.ready), seeded: Math.round(firstSeeded.ready) },
      seedingSeconds: Math.round(seeding.seconds),
    };
    if (options.json) {
      console.log(JSON.stringify(result));
      return;
    }
    console.log(
      [
        `start time, median of ${result.runs} (spawn to ready):`,
        `  empty data directory          ${result.emptyMedianMs} ms`,
        `  ${result.finishedWorkflows} finished workflows   ${result.seededMedianMs} ms`,
        `  ratio                         ${result.ratio} (goal <= 1.5)`,
        `  first execution lookup after  ${result.firstLookupMedianMs.empty} ms empty, ${result.firstLookupMedianMs.seeded} ms seeded (reads the compacted index)`,
        `  first start after seeding     ${result.firstStartMs.seeded} ms (compacts once)`,
      ].join('\n'),
    );
  } finally {
    await rm(emptyDir, { recursive: true, force: true });
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
