import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChildMessage, ChildProgress, SerializedError } from './childProtocol.js';
import { forkParseChild, type ParseChild, ParseChildPool } from './parseChildPool.js';
import { readProcessMemory } from './readProcessMemory.js';

export type { ChildMessage, ChildProgress, SerializedError } from './childProtocol.js';

/*
 * The guard around work on untrusted files (a PDF's parse, a scan's OCR): the work runs in a child
 * process forked on the very file that serves it (the Lambda bundle, once bundled), and the child
 * is killed when its wall time, its time between two progress reports, or its RSS crosses a bound.
 * pdf.js and the OCR engine allocate outside the V8 heap, so heap limits alone cannot hold memory
 * down; and a process, unlike a worker thread, gives all of it back when killed.
 */

/** How often the child's RSS is sampled. */
const RSS_SAMPLE_MS = 10;
const MIB = 1024 * 1024;
/** Last bytes of the child's stderr kept to tell a V8 heap exhaustion from other crashes. */
const STDERR_TAIL = 4096;
/**
 * How often the child reports its own RSS. Only a fallback for systems without `/proc` (macOS):
 * the report stalls while the child runs synchronous code, which reading `/proc` from the parent
 * does not.
 */
const SELF_REPORT_MS = 25;

/**
 * The child is killed this far below the RSS bound, so that what it allocates between two samples
 * (pdf.js copies a decode buffer when it doubles it: up to a few MB per millisecond) stays under
 * the bound. bench/parse.bench.ts prints the resulting peak for the flate bomb.
 */
const rssHeadroom = (maxRssBytes: number): number => Math.max(32 * MIB, maxRssBytes / 16);

/** Which bound stopped the child. `page-time`: no progress report within the per-step bound. */
export type GuardBound = 'time' | 'memory' | 'page-time';

/** The figures of one guarded run, for logs and metrics. */
export interface GuardedRunStats {
  /** Wall time from fork (or warm child) to verdict. */
  durationMs: number;
  /**
   * Peak RSS of the child: the kernel's high-water mark at the last 10 ms sample (where `/proc`
   * exists; elsewhere the highest RSS the child reported).
   */
  peakRssBytes: number;
  /** `text`, or the name of the error thrown. */
  outcome: string;
}

/** One kind of guarded child: the file it runs, its marker variable and its errors. */
export interface ChildKind {
  /** `import.meta.url` of the file the child is forked on (it must call `serveChildJobs`). */
  moduleUrl: string;
  /** Set to `1` in the child's environment, so the same file loaded elsewhere stays inert. */
  env: string;
  /** The child's own bound on its V8 heap, MB: a backstop where RSS cannot be read. */
  heapCapMb: number;
  /** Keeps a child warm after a job only while its RSS is under this. */
  keepBelowRssBytes: number;
  /** Variables added to the child's environment (read at its start, such as glibc's malloc tuning). */
  childEnv?: Readonly<Record<string, string>>;
}

/** The bounds and error mapping of one run. */
export interface GuardedRun<Result> {
  job: unknown;
  maxRssBytes: number;
  timeoutMs: number;
  /** Bound on the time between two progress reports (a page), when set. */
  stepTimeoutMs?: number;
  /** Bound on the time to the first progress report (the child loading its engine), when set. */
  startTimeoutMs?: number;
  /** The error for a crossed bound, given how far the child got. */
  boundError: (bound: GuardBound, progress: ChildProgress | undefined) => Error;
  /** The transient error for a child that died for a reason unrelated to the file. */
  workerFailed: (reason: string, cause?: unknown) => Error;
  /** Rebuilds an error the child reported. */
  revive: (error: SerializedError) => Error;
  /** Called once with the figures of the run, whatever its outcome. */
  onStats?: (stats: GuardedRunStats) => void;
  /** Checks the child's value before it is returned (a throw is a malformed result). */
  check?: (value: unknown) => Result;
}

/** How to start a child: plain node for a bundle, the tsx loader for TypeScript source. */
const childCommand = (kind: ChildKind): { modulePath: string; execArgv: string[] } => {
  const modulePath = fileURLToPath(kind.moduleUrl);
  const heapCap = `--max-old-space-size=${Math.floor(kind.heapCapMb)}`;
  return {
    modulePath,
    // tsx resolved from here, not from the working directory the process happens to run in.
    execArgv: modulePath.endsWith('.ts')
      ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, heapCap]
      : [heapCap],
  };
};

/**
 * Warm children, one pool per child command line, as many idle as there are cores: one covers a
 * Lambda (one document at a time), and a burst in the local runtime does not pay a start-up each.
 */
const pools = new Map<string, ParseChildPool>();
const poolFor = (kind: ChildKind): ParseChildPool => {
  const { modulePath, execArgv } = childCommand(kind);
  const key = `${kind.env} ${modulePath} ${execArgv.join(' ')} ${JSON.stringify(kind.childEnv ?? {})}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new ParseChildPool(
      () => forkParseChild(modulePath, execArgv, { ...process.env, ...kind.childEnv, [kind.env]: '1' }),
      {
        maxIdle: availableParallelism(),
        maxJobsPerChild: 200,
        keepBelowRssBytes: kind.keepBelowRssBytes,
      },
    );
    pools.set(key, pool);
  }
  return pool;
};

/** Kills the idle children of every pool (tests, benches and CLIs that want to exit at once). */
export const drainGuardedChildren = (): void => {
  for (const pool of pools.values()) pool.drain();
};

/** Runs one job in a child of `kind` and kills it at the first bound it crosses. */
export const runGuarded = async <Result>(kind: ChildKind, run: GuardedRun<Result>): Promise<Result> => {
  const started = performance.now();
  const pool = poolFor(kind);
  let child: ParseChild;
  try {
    child = await pool.acquire();
  } catch (error) {
    throw run.workerFailed((error as Error).message, error);
  }
  const proc = child.process;
  const fresh = child.jobs === 0;
  return new Promise<Result>((resolve, reject) => {
    let progress: ChildProgress | undefined;
    let selfReportedRss = 0;
    let peakRssBytes = 0;
    let stderrTail = '';
    let settled = false;

    // Settles once. A child that hit a bound or failed is killed, and the verdict waits until it
    // is gone so its memory is back before the caller goes on; one that succeeded goes back to
    // the pool.
    const settle = (outcome: { value: Result } | { error: Error }): void => {
      if (settled) return;
      settled = true;
      clearInterval(sampler);
      clearTimeout(timer);
      clearTimeout(stepTimer);
      proc.off('message', onMessage);
      proc.off('error', onError);
      proc.off('close', onClose);
      proc.stderr?.off('data', onStderr);
      const deliver = (): void => {
        run.onStats?.({
          durationMs: performance.now() - started,
          peakRssBytes,
          outcome: 'value' in outcome ? 'text' : outcome.error.name,
        });
        if ('value' in outcome) resolve(outcome.value);
        else reject(outcome.error);
      };
      if ('value' in outcome) {
        pool.release(child);
        deliver();
      } else if (proc.exitCode !== null || proc.signalCode !== null) deliver();
      else {
        proc.once('exit', deliver);
        proc.kill('SIGKILL');
      }
    };
    const bound = (which: GuardBound) => ({ error: run.boundError(which, progress) });

    const killAtRss = run.maxRssBytes - rssHeadroom(run.maxRssBytes);
    const sampler = setInterval(() => {
      const measured = proc.pid === undefined ? undefined : readProcessMemory(proc.pid);
      const rss = measured?.rssBytes ?? selfReportedRss;
      // The kernel's high-water mark spans the child's life: only a fresh child's is this job's.
      peakRssBytes = Math.max(peakRssBytes, (fresh ? measured?.peakRssBytes : undefined) ?? rss);
      if (rss > killAtRss) settle(bound('memory'));
    }, RSS_SAMPLE_MS);
    const timer = setTimeout(() => settle(bound('time')), run.timeoutMs);
    let stepTimer: NodeJS.Timeout | undefined;
    const armStep = (timeoutMs = run.stepTimeoutMs): void => {
      if (timeoutMs === undefined) return;
      clearTimeout(stepTimer);
      stepTimer = setTimeout(() => settle(bound('page-time')), timeoutMs);
    };

    const onStderr = (chunk: string) => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL);
    };
    const onMessage = (message: ChildMessage) => {
      if (message.kind === 'progress') {
        progress = message.progress;
        armStep();
      } else if (message.kind === 'rss') selfReportedRss = message.bytes;
      else if (message.kind === 'result') {
        try {
          settle({ value: run.check ? run.check(message.value) : (message.value as Result) });
        } catch (error) {
          settle({ error: run.workerFailed(`the child sent a malformed result: ${error}`, error) });
        }
      } else if (message.kind === 'failure') settle({ error: run.revive(message.error) });
    };
    const onError = (error: Error) => {
      settle({ error: run.workerFailed(error.message, error) });
    };
    const onClose = (code: number | null, signal: NodeJS.Signals | null) => {
      // V8 aborts the process when its heap cap is hit: that is the document's doing.
      if (/heap out of memory|Reached heap limit/i.test(stderrTail)) settle(bound('memory'));
      else {
        const how = signal === null ? `code ${code}` : `signal ${signal}`;
        settle({ error: run.workerFailed(`the child process ended with ${how} before a verdict`) });
      }
    };
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', onStderr);
    proc.on('message', onMessage);
    proc.on('error', onError);
    proc.on('close', onClose);
    armStep(run.startTimeoutMs ?? run.stepTimeoutMs);
    proc.send(run.job as Parameters<typeof proc.send>[0]);
  });
};

/** True in a child forked for `env` (the same file loaded anywhere else stays inert). */
export const isGuardedChild = (env: string): boolean =>
  process.env[env] === '1' && process.send !== undefined;

const send = (message: ChildMessage): Promise<void> =>
  new Promise((resolve) => {
    process.send?.(message, undefined, undefined, () => resolve());
  });

/** What a job handler gets to report progress with. */
export type ReportProgress = (progress: ChildProgress) => void;

/**
 * Serves jobs when this process is a child forked for `env`, and does nothing otherwise. Called at
 * the top level of the file the guard forks. `fail` turns whatever the handler throws into the
 * serialized error the parent revives.
 */
export const serveChildJobs = <Job>(
  env: string,
  handle: (job: Job, report: ReportProgress) => Promise<unknown>,
  fail: (error: unknown) => SerializedError,
): void => {
  if (!isGuardedChild(env)) return;
  // The guard's bounds live in the parent: a child whose parent has gone must not run on unbounded.
  process.once('disconnect', () => process.exit(1));
  setInterval(() => void send({ kind: 'rss', bytes: process.memoryUsage.rss() }), SELF_REPORT_MS).unref();
  // Jobs come one at a time: the guard sends the next only after this one's verdict, and keeps
  // the child between documents only when the verdict was a result.
  process.on('message', (job: Job) => {
    void handle(job, (progress) => void send({ kind: 'progress', progress })).then(
      (value) => send({ kind: 'result', value }),
      (error: unknown) => send({ kind: 'failure', error: fail(error) }),
    );
  });
  void send({ kind: 'ready' });
};
