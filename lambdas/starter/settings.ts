/**
 * How the upload queue feeds the starter: one set of numbers for the CDK construct and the local
 * runtime, so the local queue behaves as the deployed one does.
 */
export const STARTER_SETTINGS = {
  /** The starter's timeout: it waits for a slot for most of it. */
  timeoutSeconds: 60,
  /** Records per invocation (processed one at a time). */
  batchSize: 10,
  /** Starters at once (the event source's maximum concurrency; 2 is the least SQS allows). */
  concurrency: 2,
  /** Six times the function timeout, as AWS advises for an SQS event source. */
  visibilityTimeoutSeconds: 360,
  /**
   * Deliveries before SQS moves an upload to the dead-letter queue by itself (the most SQS
   * allows). The starter dead-letters a failing start much sooner, with the reason; a message
   * waiting for a slot is delivered again each time a starter gives up waiting, which must not
   * dead-letter it.
   */
  maxReceiveCount: 1000,
  /** Kept for two weeks, the most SQS allows: a long outage loses no upload. */
  retentionSeconds: 14 * 24 * 3600,
} as const;
