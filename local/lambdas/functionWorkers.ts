import { createRequire } from 'node:module';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Context } from 'aws-lambda';
import {
  type CallCount,
  callCounts,
  mergeCallCounts,
  resetCallCounts,
} from '../../lambdas/shared/callCount.js';
import type { FunctionHost } from './functionHost.js';
import { enableInvocationScopes } from './invocationScope.js';
import { invokeHere, type LocalFunction } from './registry.js';
import {
  contextFields,
  contextFrom,
  type FromWorker,
  reviveError,
  serializeError,
  type ToWorker,
} from './workerProtocol.js';

/*
 * The local runtime's functions in worker threads (`--workers N`): the emulators and the Step
 * Functions engine keep the runtime's thread, and the handlers, with the AWS SDK clients that are
 * most of a document's CPU, run beside them on the other cores. A worker is one execution
 * environment that takes many invocations at once (as the runtime's own thread did): each handler
 * module is loaded once per worker, and each invocation has its own invocation scope. A worker is
 * started on this very file, which serves invocations when it finds its marker in `workerData`.
 */

/** The `workerData` key that makes this file a function worker. */
const WORKER_MARKER = 'docketFunctionWorker';

/**
 * Functions that always run in the first worker. OCR bounds its children with process-wide slots
 * (`OCR_WORKERS`, pageLanes.ts), which are per thread here: one worker keeps that bound for the
 * whole runtime. The children do the reading; the worker only hands out pages.
 */
const FIRST_WORKER_ONLY: ReadonlySet<LocalFunction> = new Set(['ocr']);

/**
 * The error a pending invocation gets when its worker dies (an uncaught exception, memory
 * exhausted): what Step Functions reports when Lambda cannot say why an environment died, which
 * the definition retries in place a few times.
 */
export class FunctionWorkerExitedError extends Error {
  override readonly name = 'Lambda.Unknown';
}

/** How to start a worker on this file: directly when compiled, through tsx on TypeScript source. */
const workerScript = (): { script: string | URL; eval: boolean } => {
  const self = new URL(import.meta.url);
  if (!fileURLToPath(self).endsWith('.ts')) return { script: self, eval: false };
  // A worker does not inherit the tsx loader (Node 20 runs `--import` hooks apart from the
  // worker's own loader), so the worker registers it, then loads this file.
  const api = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const code = `import(${JSON.stringify(pathToFileURL(api).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(self.href)}); });`;
  return { script: code, eval: true };
};

/** `Omit` over each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One worker thread and the invocations it has not answered yet. */
class FunctionWorker {
  readonly pending = new Map<number, Pending>();
  /** Set once the thread has ended: it takes nothing more, and the host starts another on demand. */
  exited = false;
  private readonly worker: Worker;

  constructor() {
    const { script, eval: isEval } = workerScript();
    this.worker = new Worker(script, { eval: isEval, workerData: { [WORKER_MARKER]: true } });
    this.worker.on('message', (message: FromWorker) => this.answer(message));
    let reason = 'exited';
    this.worker.on('error', (error) => {
      reason = `crashed: ${error.message}`;
    });
    this.worker.on('exit', (code) => {
      this.exited = true;
      const error = new FunctionWorkerExitedError(`The function worker ${reason} (exit code ${code}).`);
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
    });
  }

  send(message: ToWorker, pending: Pending): void {
    if (this.exited) {
      pending.reject(new FunctionWorkerExitedError('The function worker had exited.'));
      return;
    }
    this.pending.set(message.id, pending);
    this.worker.postMessage(message);
  }

  private answer(message: FromWorker): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.kind === 'error') pending.reject(reviveError(message.error));
    else if (message.kind === 'counts') pending.resolve(message.counts);
    else pending.resolve(JSON.parse(message.payload));
  }

  eventLoopUtilization(): EventLoopUtilization {
    return this.worker.performance.eventLoopUtilization();
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/**
 * Starts `count` function workers. They copy `process.env` as it is now: the runtime sets the
 * functions' environment first. A worker that dies fails what it was running with
 * `FunctionWorkerExitedError`; the next invocation starts its replacement, so a worker that
 * cannot start at all costs a failed invocation each time, not a loop of threads.
 */
export const startFunctionWorkers = (count: number): FunctionHost => {
  let nextId = 0;
  let closing = false;
  const workers = Array.from({ length: count }, () => new FunctionWorker());
  /** The workers, each exited one replaced (unless the host is closing). */
  const live = (): FunctionWorker[] => {
    for (const [i, worker] of workers.entries()) {
      if (worker.exited && !closing) workers[i] = new FunctionWorker();
    }
    return workers;
  };

  const request = <T>(worker: FunctionWorker, message: DistributiveOmit<ToWorker, 'id'>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      worker.send(
        { ...message, id: nextId++ },
        {
          resolve: resolve as (value: unknown) => void,
          reject,
        },
      );
    });
  // The least busy worker: invocations differ in cost, so round-robin would pile up behind a slow one.
  const pick = (name: LocalFunction): FunctionWorker => {
    const candidates = live();
    const first = candidates[0] as FunctionWorker;
    if (FIRST_WORKER_ONLY.has(name)) return first;
    return candidates.reduce((best, w) => (w.pending.size < best.pending.size ? w : best), first);
  };
  return {
    invoke: (name: LocalFunction, event: unknown, context: Context) =>
      request(pick(name), {
        kind: 'invoke',
        name,
        event: JSON.stringify(event ?? null),
        context: contextFields(context),
      }),
    callCounts: async () =>
      mergeCallCounts([
        callCounts(),
        ...(await Promise.all(live().map((w) => request<CallCount[]>(w, { kind: 'counts' })))),
      ]),
    eventLoopUtilization: () => workers.map((w) => w.eventLoopUtilization()),
    resetCallCounts: async () => {
      resetCallCounts();
      await Promise.all(live().map((w) => request(w, { kind: 'reset-counts' })));
    },
    close: async () => {
      closing = true;
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
};

const answerInvocation = async (
  message: Extract<ToWorker, { kind: 'invoke' }>,
  reply: (message: FromWorker) => void,
): Promise<void> => {
  try {
    const value = await invokeHere(message.name, JSON.parse(message.event), contextFrom(message.context));
    // Inside the try: a result JSON cannot hold fails this invocation, not the worker.
    reply({ kind: 'result', id: message.id, payload: JSON.stringify(value ?? null) });
  } catch (error) {
    reply({ kind: 'error', id: message.id, error: serializeError(error) });
  }
};

/** The worker side: runs each invocation it is sent and answers with its result or error. */
const serveInvocations = (port: NonNullable<typeof parentPort>): void => {
  const reply = (message: FromWorker) => port.postMessage(message);
  port.on('message', (message: ToWorker) => {
    if (message.kind === 'counts') return reply({ kind: 'counts', id: message.id, counts: callCounts() });
    if (message.kind === 'reset-counts') {
      resetCallCounts();
      return reply({ kind: 'counts', id: message.id, counts: [] });
    }
    void answerInvocation(message, reply);
  });
};

if (!isMainThread && parentPort && (workerData as Record<string, unknown> | null)?.[WORKER_MARKER]) {
  const port = parentPort;
  // The Lambda InvokeStore exists before any handler module loads, as in the runtime's thread:
  // Powertools picks its per-invocation stores when it is constructed. Messages wait meanwhile
  // (a port queues them until it has a listener).
  void enableInvocationScopes().then(() => serveInvocations(port));
}
