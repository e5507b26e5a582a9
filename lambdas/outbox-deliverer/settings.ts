/**
 * How the outbox deliverer runs: one set of numbers for the CDK construct and the local runtime.
 * The schedule is what delivery relies on; the local runtime also runs it when an execution
 * closes, for latency only.
 */
export const DELIVERER_SETTINGS = {
  /** Minutes between two scheduled runs: the longest an event waits when nothing else is wrong. */
  everyMinutes: 1,
  /** The function's timeout: a run stops taking events 15 s before it (handler.ts). */
  timeoutSeconds: 60,
  memorySizeMb: 256,
} as const;
