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
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { seededCount, seedFinishedWorkflows } from './support/seedFinished.js';
import { compareStartTimes } from './support/startTiming.js';

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
const main = async () => {
  const seededDir = resolve(options.dataDir ?? (await mkdtemp(join(tmpdir(), 'docket-bench-start-'))));
  const before = seededCount(seededDir);
  log(`seeded data directory ${seededDir}: ${before} finished workflows, ${options.count} wanted`);
  const seeding = await seedFinishedWorkflows(seededDir, options.count, log);
  if (seeding.seconds > 0) {
    log(`seeded ${seeding.seeded - before} in ${seeding.seconds.toFixed(0)} s`);
  }

  const figures = await compareStartTimes(seededDir, options.runs, log);
  const result = {
    finishedWorkflows: options.count,
    runs: options.runs,
    ...figures,
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
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
