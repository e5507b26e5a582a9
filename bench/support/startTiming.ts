import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { DescribeExecutionCommand, ExecutionDoesNotExist, SFNClient } from '@aws-sdk/client-sfn';
import type { Endpoints } from '../../local/endpoints.js';

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values: number[]) => {
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
export const timeStart = async (dataDir: string): Promise<{ ready: number; lookup: number }> => {
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

/** Start times of an empty and a seeded data directory, and of the first lookup after each. */
export interface StartComparison {
  empty: number[];
  seeded: number[];
  lookups: { empty: number[]; seeded: number[] };
}

/**
 * Starts the stack on `emptyDir` and `seededDir` in turn, `runs` times each, so a busy machine
 * slows both alike; `onRun` hears each pair as it is timed.
 */
export const alternateStarts = async (
  emptyDir: string,
  seededDir: string,
  runs: number,
  onRun: (
    run: number,
    empty: { ready: number; lookup: number },
    seeded: { ready: number; lookup: number },
  ) => void = () => undefined,
): Promise<StartComparison> => {
  const result: StartComparison = { empty: [], seeded: [], lookups: { empty: [], seeded: [] } };
  for (let run = 1; run <= runs; run++) {
    const e = await timeStart(emptyDir);
    const s = await timeStart(seededDir);
    result.empty.push(e.ready);
    result.seeded.push(s.ready);
    result.lookups.empty.push(e.lookup);
    result.lookups.seeded.push(s.lookup);
    onRun(run, e, s);
  }
  return result;
};
