import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { createDocumentClient } from '../shared/clients.js';
import { once, storeTablesFromEnv } from '../shared/config.js';
import { createObservability } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';
import { BookkeepingInputSchema } from '../shared/stageInput.js';
import { StageRun } from '../shared/stageRunner.js';
import { WorkflowStore } from '../shared/store/index.js';

const observability = createObservability('mark-timed-out');
const store = once(() => new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }));

/** mark-timed-out Lambda: the review heartbeat ran out -> `timed_out`; the token is forgotten. */
export const handler = stageHandler(observability, BookkeepingInputSchema, async (input) => {
  const run = await StageRun.load('mark-timed-out', store(), input.workflowId, input.policy);
  if (run.item.state !== 'review_required') return run.result(true);
  await run.apply('review_timeout', {
    patch: { reviewTaskToken: null },
    metadata: { timeout: input.error?.Error ?? 'States.HeartbeatTimeout', dueAt: run.item.review?.dueAt },
  });
  observability.metrics.addMetric('ReviewsTimedOut', MetricUnit.Count, 1);
  return run.result();
});
