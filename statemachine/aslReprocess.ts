/**
 * The reprocess state machine (`docket reprocess`): a Distributed Map over the ids of the
 * documents to run again, each item one invocation of the reprocess function, which makes the
 * `reprocess` transition and starts the document's own state machine at parse. Plain data, like
 * the document definition; the CDK stack and the local runtime both deploy this one.
 *
 * Why a Distributed Map and not a loop in a Lambda: a batch of many thousand documents outlives
 * any Lambda, the map bounds how many start at once (`MaxConcurrency`), and each item's retries and
 * outcome are recorded by Step Functions. Why the item only starts the rerun and does not wait for
 * it (`startExecution`, not `.sync`): a rerun whose record changed may wait days for a reviewer,
 * and would hold a map slot all that time; the workflows themselves report their progress.
 */

/** The input `docket reprocess` starts the machine with. */
export interface ReprocessInput {
  /** Workflow ids; at most `REPROCESS_BATCH_ITEMS` per execution (the 256 KiB limits). */
  workflowIds: string[];
  batch: string;
  requestedBy: string;
}

/**
 * Ids per execution: 500 ids, and their 500 outcomes (about 150 bytes each) as the map's output,
 * stay well inside the 256 KiB limit of both.
 */
export const REPROCESS_BATCH_ITEMS = 500;

/** Reprocess starts in flight at once: the document machine's own slots bound the processing. */
export const REPROCESS_MAX_CONCURRENCY = 10;

/** Errors of the reprocess function worth another try: throttling, a timeout, a store conflict. */
const RETRYABLE = [
  'Lambda.ServiceException',
  'Lambda.TooManyRequestsException',
  'Lambda.SdkClientException',
  'States.Timeout',
  'TransitionConflict',
  'TransitionContention',
  'StaleWorkflow',
];

/** The reprocess definition, with the reprocess function's ARN. */
export const buildReprocessDefinition = (reprocessFunctionArn: string) => ({
  Comment: 'Docket: run completed documents again from parse (docket reprocess)',
  StartAt: 'Reprocess',
  States: {
    Reprocess: {
      Type: 'Map',
      Label: 'Reprocess',
      ItemsPath: '$.workflowIds',
      ItemSelector: {
        'workflowId.$': '$$.Map.Item.Value',
        'batch.$': '$.batch',
        'requestedBy.$': '$.requestedBy',
      },
      MaxConcurrency: REPROCESS_MAX_CONCURRENCY,
      ItemProcessor: {
        ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
        StartAt: 'Rerun',
        States: {
          Rerun: {
            Type: 'Task',
            Resource: reprocessFunctionArn,
            TimeoutSeconds: 60,
            Retry: [
              { ErrorEquals: RETRYABLE, IntervalSeconds: 2, MaxAttempts: 4, BackoffRate: 2 },
              // Every execution slot held: wait for one, as long as a busy stack may take (about
              // 25 minutes); the map's concurrency waits with it, which is the backpressure.
              {
                ErrorEquals: ['SlotsFull'],
                IntervalSeconds: 5,
                MaxAttempts: 30,
                BackoffRate: 1.5,
                MaxDelaySeconds: 60,
              },
            ],
            // One document that cannot be run again must not stop the batch: its outcome says why.
            Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'NotRerun' }],
            End: true,
          },
          NotRerun: {
            Type: 'Pass',
            Parameters: { 'workflowId.$': '$.workflowId', status: 'failed', 'error.$': '$.error.Error' },
            End: true,
          },
        },
      },
      End: true,
    },
  },
});
