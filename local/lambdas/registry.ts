import type { Context } from 'aws-lambda';
import { countedAs } from '../../lambdas/shared/callCount.js';
import type { Stage } from '../../statemachine/index.js';
import type { FaultPlan } from '../config.js';
import { runInvocation } from './invocationScope.js';
import type { InProcessHandler } from './invokeInProcess.js';

/**
 * Every function the local runtime runs: the stages, the review API, the upload path's
 * two, and the ledger snapshot, outbox deliverer and results compactor its schedules run.
 */
export type LocalFunction =
  | Stage
  | 'review-api'
  | 'starter'
  | 'slot-release'
  | 'ledger-snapshot'
  | 'outbox-deliverer'
  | 'results-compactor'
  | 'reprocess';

/** Loads a function's handler module the way Lambda would load its bundle: once, lazily. */
const loaders: Record<LocalFunction, () => Promise<{ handler: unknown }>> = {
  ingest: () => import('../../lambdas/ingest/handler.js'),
  parse: () => import('../../lambdas/parse/handler.js'),
  ocr: () => import('../../lambdas/ocr/handler.js'),
  extract: () => import('../../lambdas/extract/handler.js'),
  validate: () => import('../../lambdas/validate/handler.js'),
  'schedule-review': () => import('../../lambdas/schedule-review/handler.js'),
  'request-review': () => import('../../lambdas/request-review/handler.js'),
  'apply-review': () => import('../../lambdas/apply-review/handler.js'),
  compare: () => import('../../lambdas/compare/handler.js'),
  'mark-failed': () => import('../../lambdas/mark-failed/handler.js'),
  'mark-rejected': () => import('../../lambdas/mark-rejected/handler.js'),
  'mark-timed-out': () => import('../../lambdas/mark-timed-out/handler.js'),
  'review-api': () => import('../../lambdas/review-api/handler.js'),
  starter: () => import('../../lambdas/starter/handler.js'),
  'slot-release': () => import('../../lambdas/slot-release/handler.js'),
  'ledger-snapshot': () => import('../../lambdas/ledger-snapshot/handler.js'),
  'outbox-deliverer': () => import('../../lambdas/outbox-deliverer/handler.js'),
  'results-compactor': () => import('../../lambdas/results-compactor/handler.js'),
  reprocess: () => import('../../lambdas/reprocess/handler.js'),
};

const loaded = new Map<LocalFunction, Promise<{ handler: unknown }>>();

/** The handler of a local function (imported on first use). */
export const loadHandler = async (name: LocalFunction): Promise<unknown> => {
  let module = loaded.get(name);
  if (!module) {
    module = loaders[name]();
    loaded.set(name, module);
  }
  return (await module).handler;
};

/**
 * Runs `name`'s handler in this thread, in an invocation scope of its own, its AWS calls counted
 * under its name.
 */
export const invokeHere = async (name: LocalFunction, event: unknown, context: Context): Promise<unknown> => {
  const handler = (await loadHandler(name)) as InProcessHandler;
  return countedAs(name, () => runInvocation(context, () => handler(event, context)));
};

/**
 * A fault injected before a stage runs, for the end-to-end tests of retries (off unless the
 * runtime is started with a fault plan). It is retryable, as a throttled dependency would be.
 */
export class InjectedFaultError extends Error {
  override readonly name = 'InjectedFault';
  readonly retryable = true;
}

/** The workflow a stage's event is for; ingest's S3 event has none yet. */
const workflowOf = (event: unknown): string | undefined => {
  const id = (event as { workflowId?: unknown } | null)?.workflowId;
  return typeof id === 'string' ? id : undefined;
};

/** Where a stage function comes from and what it injects. */
export interface StageFunctionOptions {
  /** The fault plan (DOCKET_FAULTS); empty unless a test asks for faults. */
  faults?: FaultPlan;
  /** A workflow's recorded retry count (the store's `retryCount`). */
  retriesOf?: (workflowId: string) => Promise<number>;
  /**
   * Runs the invocation: `invokeHere` (this thread) unless the runtime hands its function host's
   * `invoke` (the worker threads).
   */
  invoke?: (name: LocalFunction, event: unknown, context: Context) => Promise<unknown>;
}

/**
 * The function the local Step Functions invokes for a stage: the real handler, loaded on first
 * use in whichever thread runs it, behind the fault plan (checked here, in the runtime's thread).
 * A planned fault hits a workflow until it has been retried n times, as its record says: with
 * several documents in flight a count kept in the process failed whichever document came first,
 * and a restart forgot it, so a workflow resumed after a `kill -9` failed again until it ran out
 * of retries. An event with no workflow yet (ingest) counts in the process.
 */
export const stageFunction = (name: LocalFunction, options: StageFunctionOptions = {}) => {
  const planned = options.faults?.[name as keyof FaultPlan];
  const invoke = options.invoke ?? invokeHere;
  let unattributed = 0;
  const faultDue = async (event: unknown): Promise<boolean> => {
    if (planned === undefined || planned === 0) return false;
    if (planned < 0) return true;
    const workflowId = workflowOf(event);
    if (workflowId === undefined || !options.retriesOf) return unattributed++ < planned;
    return (await options.retriesOf(workflowId)) < planned;
  };
  return async (event: unknown, context: Context): Promise<unknown> => {
    if (await faultDue(event)) {
      throw new InjectedFaultError(
        `Injected fault in ${name} (DOCKET_FAULTS); it is retried like any transient error.`,
      );
    }
    return invoke(name, event, context);
  };
};
