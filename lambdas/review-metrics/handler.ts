import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as z from 'zod';
import { createDocumentClient } from '../shared/clients.js';
import { once } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { reviewSlaSecondsFromEnv } from '../shared/sla/index.js';
import { stageHandler } from '../shared/stageHandler.js';
import { tableEnvVar, WORKFLOWS_TABLE } from '../shared/store/index.js';
import { REVIEW_METRICS_SERVICE, ReviewQueueMetric } from './metricNames.js';
import { reviewQueueStats } from './reviewQueueStats.js';

const observability = createObservability(REVIEW_METRICS_SERVICE);
const deps = once(() => ({
  client: createDocumentClient(),
  table: requireEnv(tableEnvVar(WORKFLOWS_TABLE)),
  now: () => new Date(),
  targetSeconds: reviewSlaSecondsFromEnv(),
}));

/**
 * review-metrics Lambda, run on a schedule: publishes the review queue's depth, the age of its
 * oldest item and how many wait past the review target, which no AWS metric shows (the waits are
 * task tokens, not queue messages).
 */
export const handler = stageHandler(observability, z.looseObject({}), async () => {
  const stats = await reviewQueueStats(deps());
  observability.metrics.addMetric(ReviewQueueMetric.depth, MetricUnit.Count, stats.depth);
  observability.metrics.addMetric(ReviewQueueMetric.oldestAge, MetricUnit.Seconds, stats.oldestAgeSeconds);
  observability.metrics.addMetric(ReviewQueueMetric.pastTarget, MetricUnit.Count, stats.pastTarget);
  return stats;
});
