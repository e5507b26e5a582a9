import type { Context } from 'aws-lambda';
import type { Stage } from '../../statemachine/index.js';
import type { FaultPlan } from '../config.js';
import { runInvocation } from './invocationScope.js';
import type { InProcessHandler } from './invokeInProcess.js';

/** Every function the local runtime runs in-process: the stages and the review API. */
export type LocalFunction = Stage | 'review-api';

/** Loads a function's handler module the way Lambda would load its bundle: once, lazily. */
const loaders: Record<LocalFunction, () => Promise<{ handler: unknown }>> = {
  ingest: () => import('../../lambdas/ingest/handler.js'),
  parse: () => import('../../lambdas/parse/handler.js'),
  extract: () => import('../../lambdas/extract/handler.js'),
  validate: () => import('../../lambdas/validate/handler.js'),
  'request-review': () => import('../../lambdas/request-review/handler.js'),
  'apply-review': () => import('../../lambdas/apply-review/handler.js'),
  compare: () => import('../../lambdas/compare/handler.js'),
  'mark-failed': () => import('../../lambdas/mark-failed/handler.js'),
  'mark-rejected': () => import('../../lambdas/mark-rejected/handler.js'),
  'mark-timed-out': () => import('../../lambdas/mark-timed-out/handler.js'),
  'review-api': () => import('../../lambdas/review-api/handler.js'),
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
 * A fault injected before a stage runs, for the end-to-end tests of retries (off unless the
 * runtime is started with a fault plan). It is retryable, as a throttled dependency would be.
 */
export class InjectedFaultError extends Error {
  override readonly name = 'InjectedFault';
  readonly retryable = true;
}

/** The workflow a stage's event is for; ingest's S3 event has none yet (''). */
const workflowOf = (event: unknown): string => {
  const id = (event as { workflowId?: unknown } | null)?.workflowId;
  return typeof id === 'string' ? id : '';
};

/**
 * The in-process function the local Step Functions invokes for a stage: the real handler,
 * loaded on first use, behind the fault plan (which is empty unless a test asks for faults).
 * Faults are counted per workflow: with several documents in flight, which one a process-wide
 * count hit depended on timing (and after a restart, on which workflow recovery resumed first).
 */
export const stageFunction = (
  name: LocalFunction,
  faults: FaultPlan = {},
  load: (name: LocalFunction) => Promise<unknown> = loadHandler,
) => {
  const planned = faults[name as Stage];
  const injected = new Map<string, number>();
  return async (event: unknown, context: Context): Promise<unknown> => {
    if (planned !== undefined && planned !== 0) {
      const workflowId = workflowOf(event);
      const count = injected.get(workflowId) ?? 0;
      if (planned < 0 || count < planned) {
        injected.set(workflowId, count + 1);
        throw new InjectedFaultError(
          `Injected fault in ${name} (DOCKET_FAULTS); it is retried like any transient error.`,
        );
      }
    }
    const handler = (await load(name)) as InProcessHandler;
    return runInvocation(context, () => handler(event, context));
  };
};
