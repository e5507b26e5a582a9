import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as z from 'zod';
import { createDocumentClient, createSfnClient } from '../shared/clients.js';
import { once, storeTablesFromEnv } from '../shared/config.js';
import { createObservability } from '../shared/observability.js';
import { armReviewTask } from '../shared/review/index.js';
import { stageHandler } from '../shared/stageHandler.js';
import { StageInputSchema } from '../shared/stageInput.js';
import { WorkflowStore } from '../shared/store/index.js';

const observability = createObservability('request-review');
const deps = once(() => ({
  store: new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }),
  sfn: createSfnClient(),
  now: () => new Date(),
}));

/**
 * The review Task's payload: the stage input, the task token (never logged), and the heartbeat the
 * Task started with and when it was entered. The last two are optional: an execution started from
 * an older definition, still running after a deploy, does not send them.
 */
const RequestReviewInputSchema = StageInputSchema.extend({
  taskToken: z.string().min(1),
  heartbeatSeconds: z.number().int().min(1).optional(),
  enteredAt: z.iso.datetime().optional(),
});

/** request-review Lambda: called by the waitForTaskToken Task; keeps the token server-side. */
export const handler = stageHandler(observability, RequestReviewInputSchema, async (input) => {
  const result = await armReviewTask(deps(), input);
  observability.metrics.addMetric('ReviewsRequested', MetricUnit.Count, 1);
  observability.logger.info('review requested', { dueAt: result.dueAt });
  return result;
});
