import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { parseLimitsFromEnv } from '../parse/parseLimits.js';
import { createDocumentClient, createS3Client } from '../shared/clients.js';
import { once, storeTablesFromEnv } from '../shared/config.js';
import { createObservability } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';
import { WorkflowStore } from '../shared/store/index.js';
import { ingestObject } from './ingestObject.js';
import { IngestInputSchema } from './schema.js';

const observability = createObservability('ingest');
const deps = once(() => ({
  store: new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }),
  s3: createS3Client(),
  // The same limit parse enforces: what parse will refuse is not worth hashing.
  maxBytes: parseLimitsFromEnv().maxBytes,
}));

/** Ingest Lambda: S3 Object Created (via EventBridge and the state machine) -> workflow at pending. */
export const handler = stageHandler(observability, IngestInputSchema, async (input) => {
  const result = await ingestObject(deps(), input);
  if ('quarantined' in result) {
    observability.metrics.addMetric('UploadsQuarantined', MetricUnit.Count, 1);
    observability.logger.warn('upload quarantined: its key breaks the key policy', {
      quarantineKey: result.quarantineKey,
      reason: result.reason,
    });
    return result;
  }
  observability.logger.appendKeys({ workflowId: result.workflowId, tenant: result.tenant });
  observability.metrics.addMetric(
    result.duplicate ? 'DuplicateEvents' : 'DocumentsIngested',
    MetricUnit.Count,
    1,
  );
  return result;
});
