import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as z from 'zod';
import { createDocumentClient, createEventBridgeClient, createS3Client } from '../shared/clients.js';
import { EnvVar, once } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';
import { WorkflowOutbox } from '../shared/store/index.js';
import { deliverOutbox } from './deliverOutbox.js';
import { EventDeliveryMetric, OUTBOX_DELIVERER_SERVICE } from './metricNames.js';

/** Time left for the events under way when a run stops taking new ones. */
const STOP_BEFORE_TIMEOUT_MS = 15_000;

const observability = createObservability(OUTBOX_DELIVERER_SERVICE);
const deps = once(() => ({
  outbox: new WorkflowOutbox(createDocumentClient(), requireEnv(EnvVar.workflowsTable)),
  s3: createS3Client(),
  bucket: requireEnv(EnvVar.bucket),
  events: createEventBridgeClient(),
  busName: requireEnv(EnvVar.eventBusName),
}));

/**
 * outbox-deliverer Lambda, run every minute (and locally also when an execution closes): publishes
 * the completion events waiting in workflow outboxes to the event bus, at least once each (a
 * completed workflow's JSON result written first), and counts what it tried, delivered and left
 * for the next run.
 */
export const handler = stageHandler(observability, z.looseObject({}), async (_event, context) => {
  const report = await deliverOutbox({
    ...deps(),
    timeIsUp: () => context.getRemainingTimeInMillis() < STOP_BEFORE_TIMEOUT_MS,
    onFailure: (error) => observability.logger.warn('event not delivered', { error }),
  });
  const { metrics } = observability;
  metrics.addMetric(EventDeliveryMetric.attempts, MetricUnit.Count, report.attempts);
  metrics.addMetric(EventDeliveryMetric.delivered, MetricUnit.Count, report.delivered);
  metrics.addMetric(EventDeliveryMetric.failures, MetricUnit.Count, report.failed);
  return report;
});
