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

/** The review Task's payload: the stage input plus the task token (never logged). */
const RequestReviewInputSchema = StageInputSchema.extend({ taskToken: z.string().min(1) });

/** request-review Lambda: called by the waitForTaskToken Task; keeps the token server-side. */
export const handler = stageHandler(observability, RequestReviewInputSchema, async (input) => {
  const result = await armReviewTask(deps(), input);
  observability.metrics.addMetric('ReviewsRequested', MetricUnit.Count, 1);
  observability.logger.info('review requested', { dueAt: result.dueAt });
  return result;
});
