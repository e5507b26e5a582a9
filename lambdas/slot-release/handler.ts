import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as z from 'zod';
import { createDocumentClient } from '../shared/clients.js';
import { once, storeTablesFromEnv } from '../shared/config.js';
import { createObservability } from '../shared/observability.js';
import { ExecutionSlots, executionSlotLimitFromEnv } from '../shared/slots/index.js';
import { stageHandler } from '../shared/stageHandler.js';

const observability = createObservability('slot-release');
const deps = once(
  () =>
    new ExecutionSlots({
      client: createDocumentClient(),
      table: storeTablesFromEnv().workflows,
      limit: executionSlotLimitFromEnv(),
    }),
);

/**
 * The EventBridge "Step Functions Execution Status Change" event, as much of it as a release
 * needs. The rule sends only closing statuses; RUNNING is accepted and ignored so a broadened rule
 * cannot release a running execution's slot.
 */
export const ExecutionStatusChangeSchema = z.object({
  source: z.literal('aws.states'),
  'detail-type': z.literal('Step Functions Execution Status Change'),
  detail: z.object({
    name: z.string().min(1).max(80),
    executionArn: z.string().min(1),
    status: z.enum(['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED', 'PENDING_REDRIVE']),
  }),
});

/** slot-release Lambda: an execution closed, so the slot it took (if any) is free again. */
export const handler = stageHandler(observability, ExecutionStatusChangeSchema, async (event) => {
  if (event.detail.status === 'RUNNING') return { released: false };
  const released = await deps().release(event.detail.name);
  if (released) observability.metrics.addMetric('SlotsReleased', MetricUnit.Count, 1);
  return { released };
});
