import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { createDocumentClient, createS3Client } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';
import { StageInputSchema } from '../shared/stageInput.js';
import { WorkflowStore } from '../shared/store/index.js';
import { parseLimitsFromEnv } from './parseLimits.js';
import { parseStage } from './parseStage.js';

// This bundle is also the guarded parse's child process (see parsePdf.ts): keep top-level work
// to declarations; clients are built on the first invocation only.
const observability = createObservability('parse');
const deps = once(() => ({
  store: new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }),
  s3: createS3Client(),
  bucket: requireEnv(EnvVar.bucket),
  limits: parseLimitsFromEnv(),
  onStats: (stats: { durationMs: number; peakRssBytes: number }) => {
    observability.metrics.addMetric('ParseDuration', MetricUnit.Milliseconds, stats.durationMs);
    observability.metrics.addMetric('ParsePeakRss', MetricUnit.Megabytes, stats.peakRssBytes / 2 ** 20);
  },
}));

/** parse Lambda: PDF in S3 -> text per page in artifacts/{id}/text.json. */
export const handler = stageHandler(observability, StageInputSchema, (input) => parseStage(deps(), input));
