import type { EventLoopUtilization } from 'node:perf_hooks';
import type { Context } from 'aws-lambda';
import { type CallCount, callCounts, resetCallCounts } from '../../lambdas/shared/callCount.js';
import type { InProcessHandler } from './invokeInProcess.js';
import { invokeHere, type LocalFunction } from './registry.js';

/**
 * Where the local runtime's functions run: in the runtime's own thread, or in a pool of worker
 * threads (functionWorkers.ts). Either way a function is its real handler module, loaded once per
 * thread as Lambda loads a bundle once per execution environment, and each invocation runs in an
 * invocation scope of its own.
 */
export interface FunctionHost {
  /** Runs one invocation of `name` with `context`; rejects with what the handler threw. */
  invoke(name: LocalFunction, event: unknown, context: Context): Promise<unknown>;
  /** The AWS calls the functions sent, by service and operation, in every thread they run in. */
  callCounts(): Promise<CallCount[]>;
  /**
   * Each worker's event loop utilization since it started (`perf_hooks`' figures; none in-process):
   * the pipeline bench diffs two readings to tell a saturated worker from an idle one.
   */
  eventLoopUtilization(): EventLoopUtilization[];
  /** Forgets those counts (a benchmark starts its measured part here). */
  resetCallCounts(): Promise<void>;
  /** Stops the threads; invocations still running are abandoned, as on a runtime's Ctrl-C. */
  close(): Promise<void>;
}

/** A handler-shaped function that invokes `name` on `host` (for the event sources and the API). */
export const hostedHandler =
  (host: FunctionHost, name: LocalFunction): InProcessHandler =>
  (event, context) =>
    host.invoke(name, event, context);

/** The functions in the runtime's own thread (`--workers 0`). */
export const inProcessHost: FunctionHost = {
  invoke: invokeHere,
  callCounts: async () => callCounts(),
  eventLoopUtilization: () => [],
  resetCallCounts: async () => resetCallCounts(),
  close: async () => undefined,
};
