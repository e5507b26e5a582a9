import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as z from 'zod';
import { createDocumentClient, createSfnClient } from '../shared/clients.js';
import { once, storeTablesFromEnv } from '../shared/config.js';
import { createObservability } from '../shared/observability.js';
import { armReviewTask } from '../shared/review/index.js';
import { ExecutionSlots, executionSlotLimitFromEnv } from '../shared/slots/index.js';
import { stageHandler } from '../shared/stageHandler.js';
import { StageInputSchema } from '../shared/stageInput.js';
import { WorkflowStore } from '../shared/store/index.js';

const observability = createObservability('request-review');
const deps = once(() => {
  const client = createDocumentClient();
  const tables = storeTablesFromEnv();
  return {
    store: new WorkflowStore({ client, tables }),
    sfn: createSfnClient(),
    now: () => new Date(),
    slots: new ExecutionSlots({ client, table: tables.workflows, limit: executionSlotLimitFromEnv() }),
  };
});

/**
 * The review Task's payload: the stage input, the task token (never logged), and the heartbeat the
 * Task started with and when it was entered. The last two are optional: an execution started from
 * an older definition, still running after a deploy, does not send them.
 */
const RequestReviewInputSchema = StageInputSchema.extend({
  taskToken: z.string().min(1),
  heartbeatSeconds: z.number().int().min(1).optional(),
  enteredAt: z.iso.datetime().optional(),
  executionName: z.string().min(1).max(80).optional(),
});

/** request-review Lambda: called by the waitForTaskToken Task; keeps the token server-side. */
export const handler = stageHandler(observability, RequestReviewInputSchema, async (input) => {
  const result = await armReviewTask(deps(), input);
  // A document waiting for a reviewer holds no execution slot; the release is idempotent, and an
  // execution started without one (a resume) has none to give back.
  if (input.executionName) await deps().slots.release(input.executionName);
  observability.metrics.addMetric('ReviewsRequested', MetricUnit.Count, 1);
  observability.logger.info('review requested', { dueAt: result.dueAt });
  return result;
});
