/**
 * How the results compaction runs: one set of numbers for the CDK construct and the local runtime.
 * A scheduled run rewrites today's and yesterday's files of every tenant, so a completed
 * workflow's row is in Parquet at most this long after its JSON result.
 */
export const COMPACTION_SETTINGS = {
  everyMinutes: 15,
  timeoutSeconds: 300,
  memorySizeMb: 1024,
} as const;

/** The Powertools service name (and the folder under lambdas/). */
export const RESULTS_COMPACTOR_SERVICE = 'results-compactor';
