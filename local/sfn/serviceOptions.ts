import type { Clock } from './timers.js';

/** Options of the local Step Functions service. */
export interface LocalStepFunctionsOptions {
  /** Region in every ARN (default `us-east-1`). */
  region?: string;
  /** Account id in every ARN (default `123456789012`). */
  accountId?: string;
  /**
   * Directory for the execution history. It survives a restart; executions that were RUNNING
   * when the process died come back ABORTED. Without it, history lives in memory only.
   */
  dataDir?: string;
  /**
   * Multiplies Wait durations and Retry intervals (0.001 turns a 10 s backoff into 10 ms).
   * Heartbeats and Task timeouts are not scaled. Default 1.
   */
  timeScale?: number;
  /**
   * Tests only: where time comes from (default the system clock). A test gives a clock it moves
   * itself, so Waits, heartbeats and timeouts happen when it says rather than after real waiting.
   * The runtime never sets it: it has no behaviour AWS lacks.
   */
  clock?: Clock;
}
