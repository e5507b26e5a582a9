import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { createDocumentClient } from '../shared/clients.js';
import { once, storeTablesFromEnv } from '../shared/config.js';
import { createObservability, DocketMetric } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';
import { BookkeepingInputSchema } from '../shared/stageInput.js';
import { WorkflowStore } from '../shared/store/index.js';
import { recordedError } from './caughtError.js';
import { markFailed } from './markFailed.js';

const observability = createObservability('mark-failed');
const store = once(() => new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }));

/**
 * Counts a rejection as what it is: a fault when a transient error outlasted the retries (the
 * alarm's metric), an outcome when the document itself is unusable (the dashboard's, by reason).
 * Each as a single metric, so its dimensions are exactly the ones the alarm and graph name.
 */
const countRejection = (errorName: string, retryable: boolean) => {
  const metric = observability.metrics.singleMetric();
  if (retryable) {
    metric.addMetric(DocketMetric.retriesExhausted, MetricUnit.Count, 1);
    return;
  }
  metric.addDimension('reason', errorName);
  metric.addMetric(DocketMetric.documentsRejected, MetricUnit.Count, 1);
};

/** mark-failed Lambda: any stage error -> `failed` (when it can be) and the recovery decision. */
export const handler = stageHandler(observability, BookkeepingInputSchema, async (input) => {
  const result = await markFailed(store(), input);
  if (result.decision === 'reject') {
    const error = recordedError(input.error);
    countRejection(error.type, error.retryable);
  }
  observability.metrics.addDimension('decision', result.decision);
  observability.metrics.addMetric('StageFailures', MetricUnit.Count, 1);
  observability.logger.warn('stage failure recorded', { errorName: input.error?.Error, recovery: result });
  return result;
});
