import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { createDocumentClient } from '../shared/clients.js';
import { once, storeTablesFromEnv } from '../shared/config.js';
import { createObservability } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';
import { BookkeepingInputSchema } from '../shared/stageInput.js';
import { WorkflowStore } from '../shared/store/index.js';
import { markFailed } from './markFailed.js';

const observability = createObservability('mark-failed');
const store = once(() => new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }));

/** mark-failed Lambda: any stage error -> `failed` (when it can be) and the recovery decision. */
export const handler = stageHandler(observability, BookkeepingInputSchema, async (input) => {
  const result = await markFailed(store(), input);
  observability.metrics.addDimension('decision', result.decision);
  observability.metrics.addMetric('StageFailures', MetricUnit.Count, 1);
  observability.logger.warn('stage failure recorded', { errorName: input.error?.Error, recovery: result });
  return result;
});
