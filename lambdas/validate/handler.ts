import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { createDocumentClient, createS3Client } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { cachedProviders } from '../shared/providersStore.js';
import { stageHandler } from '../shared/stageHandler.js';
import { StageInputSchema } from '../shared/stageInput.js';
import { WorkflowStore } from '../shared/store/index.js';
import { validateStage } from './validateStage.js';

const observability = createObservability('validate');
const deps = once(() => {
  const client = createDocumentClient();
  return {
    store: new WorkflowStore({ client, tables: storeTablesFromEnv() }),
    s3: createS3Client(),
    bucket: requireEnv(EnvVar.bucket),
    providers: cachedProviders(client, requireEnv(EnvVar.providersTable)),
    now: () => new Date(),
  };
});

/** validate Lambda: rules, provider lookup and confidence -> validated or review_required. */
export const handler = stageHandler(observability, StageInputSchema, async (input) => {
  const result = await validateStage(deps(), input);
  observability.metrics.addMetric(
    result.state === 'validated' ? 'AutoApproved' : 'SentToReview',
    MetricUnit.Count,
    result.alreadyDone ? 0 : 1,
  );
  return result;
});
