import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DescribeExecutionCommand, ExecutionDoesNotExist, SFNClient } from '@aws-sdk/client-sfn';
import type { Endpoints } from '../../local/endpoints.js';
import { median } from './stats.js';

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

/** One start: milliseconds to the ready line, and of the first lookup after it. */
interface Timed {
  ready: number;
  lookup: number;
}

/**
 * Milliseconds from spawning the stack on `dataDir` to its ready line, and of the first lookup
 * after it; then stops the stack cleanly.
 */
const timeStart = async (dataDir: string): Promise<Timed> => {
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

/** What `compareStartTimes` measured: medians of the alternating starts, and the warm-up starts. */
export interface StartFigures {
  emptyMedianMs: number;
  seededMedianMs: number;
  /** Seeded median over empty median (goal <= 1.5). */
  ratio: number;
  firstLookupMedianMs: { empty: number; seeded: number };
  /** The warm-up start of each directory: the seeded one compacts whatever its seeding left. */
  firstStartMs: { emptyFresh: number; seeded: number };
}

/**
 * The start time of `seededDir` against a new empty data directory: a warm-up start of each, then
 * `runs` starts of each in turn, so a busy machine slows both alike; medians of those. `log`
 * hears each start as it is timed.
 */
export const compareStartTimes = async (
  seededDir: string,
  runs: number,
  log: (line: string) => void = () => undefined,
): Promise<StartFigures> => {
  const emptyDir = await mkdtemp(join(tmpdir(), 'docket-bench-empty-'));
  try {
    log('warm-up: first start of each directory (the seeded one compacts what seeding left)');
    const firstEmpty = await timeStart(emptyDir);
    const firstSeeded = await timeStart(seededDir);
    log(`  empty (fresh) ${firstEmpty.ready.toFixed(0)} ms, seeded ${firstSeeded.ready.toFixed(0)} ms`);
    const empty: Timed[] = [];
    const seeded: Timed[] = [];
    for (let run = 1; run <= runs; run++) {
      const e = await timeStart(emptyDir);
      const s = await timeStart(seededDir);
      empty.push(e);
      seeded.push(s);
      log(
        `  run ${run}: empty ${e.ready.toFixed(0)} ms, seeded ${s.ready.toFixed(0)} ms ` +
          `(first lookup after: ${e.lookup.toFixed(0)} / ${s.lookup.toFixed(0)} ms)`,
      );
    }
    const medianOf = (timed: Timed[], key: keyof Timed) => median(timed.map((t) => t[key]));
    return {
      emptyMedianMs: Math.round(medianOf(empty, 'ready')),
      seededMedianMs: Math.round(medianOf(seeded, 'ready')),
      ratio: Number((medianOf(seeded, 'ready') / medianOf(empty, 'ready')).toFixed(2)),
      firstLookupMedianMs: {
        empty: Math.round(medianOf(empty, 'lookup')),
        seeded: Math.round(medianOf(seeded, 'lookup')),
      },
      firstStartMs: { emptyFresh: Math.round(firstEmpty.ready), seeded: Math.round(firstSeeded.ready) },
    };
  } finally {
    await rm(emptyDir, { recursive: true, force: true });
  }
};
