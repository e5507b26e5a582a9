import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { parseLimitsFromEnv } from '../parse/parseLimits.js';
import { createDocumentClient, createS3Client, createSqsClient } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { deadLetterUnparseable } from '../shared/deadLetterUnparseable.js';
import { optionalEnv } from '../shared/env.js';
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
// On AWS the construct binds the queue; the local stack has no SQS yet, so it may be unset there.
const deadLetterTarget = once(() => ({
  sqs: createSqsClient(),
  queueUrl: optionalEnv(EnvVar.deadLetterQueueUrl),
}));

/** The field of the raw input `key` names, if the input is an object that has it. */
const field = (raw: unknown, key: string): unknown =>
  typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[key] : undefined;

/**
 * Ingest Lambda: S3 Object Created (via EventBridge and the state machine) -> workflow at pending.
 * An event its schema refuses is dead-lettered with the reason and counted (`UnparseableEvents`)
 * before the invocation fails, so no upload disappears without a trace.
 */
export const handler = stageHandler(
  observability,
  IngestInputSchema,
  async (input) => {
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
  },
  {
    middlewares: [
      deadLetterUnparseable({
        observability,
        source: 'ingest',
        target: deadLetterTarget,
        // The S3 event alone: what `docket dlq redrive` sends back to the upload queue.
        eventOf: (raw) => field(raw, 'event') ?? raw,
        contextOf: (raw) => {
          const arn = field(raw, 'executionArn');
          return typeof arn === 'string' ? `ingest of execution ${arn}` : 'ingest';
        },
      }),
    ],
  },
);
