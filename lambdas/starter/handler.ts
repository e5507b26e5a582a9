import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { createDocumentClient, createSfnClient, createSqsClient } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { sendDeadLetter } from '../shared/deadLetters.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { ExecutionSlots, executionSlotLimitFromEnv, needsSlot } from '../shared/slots/index.js';
import { WorkflowStore } from '../shared/store/index.js';
import { type StarterDeps, startUpload } from './startUpload.js';

const observability = createObservability('starter');
/** A container reconciles the slots at most this often while they are all held. */
const RECONCILE_EVERY_MS = 30_000;

const deps = once((): StarterDeps => {
  const client = createDocumentClient();
  const tables = storeTablesFromEnv();
  const sfn = createSfnClient({ maxAttempts: 6 });
  const sqs = createSqsClient();
  const stateMachineArn = requireEnv(EnvVar.stateMachineArn);
  const deadLetterQueueUrl = requireEnv(EnvVar.deadLetterQueueUrl);
  const limit = executionSlotLimitFromEnv();
  const slots = new ExecutionSlots({ client, table: tables.workflows, limit });
  const stillNeeded = needsSlot({ sfn, store: new WorkflowStore({ client, tables }), stateMachineArn });
  let reconciledAt = 0;
  return {
    sfn,
    slots,
    stateMachineArn,
    limit,
    deadLetter: (reason, event) =>
      sendDeadLetter(sqs, deadLetterQueueUrl, { source: 'starter', reason, event }),
    reconcile: async () => {
      if (Date.now() - reconciledAt < RECONCILE_EVERY_MS) return;
      reconciledAt = Date.now();
      const released = await slots.reconcile(stillNeeded);
      if (released.length > 0) {
        observability.metrics.addMetric('SlotsReconciled', MetricUnit.Count, released.length);
        observability.logger.warn('released slots whose release never arrived', { released });
      }
    },
  };
});

const processor = new BatchProcessor(EventType.SQS);

const startRecord = async (record: SQSRecord) => {
  const outcome = await startUpload(deps(), {
    body: record.body,
    receiveCount: Number(record.attributes.ApproximateReceiveCount) || 1,
  });
  const metric = {
    started: 'UploadsStarted',
    duplicate: 'DuplicateUploads',
    deadLettered: 'UploadsDeadLettered',
  };
  observability.metrics.addMetric(metric[outcome.kind], MetricUnit.Count, 1);
  if (outcome.kind === 'deadLettered') {
    observability.logger.error('upload sent to the dead-letter queue', { reason: outcome.reason });
  }
};

/**
 * starter Lambda: reads "Object Created" events from the upload queue (an SQS event source with
 * ReportBatchItemFailures) and starts one execution per upload within the slot limit. A record
 * that finds every slot held, or whose start failed, is reported failed and offered again by SQS.
 */
export const handler = middy(async (event: SQSEvent, context: Context) => {
  const response = await processPartialResponse(event, startRecord, processor, {
    context,
    // All held is an ordinary day under a burst: report the records, don't fail the invocation.
    throwOnFullBatchFailure: false,
  });
  const deferred = response.batchItemFailures.length;
  if (deferred > 0) observability.metrics.addMetric('UploadsDeferred', MetricUnit.Count, deferred);
  return response;
})
  .use(injectLambdaContext(observability.logger, { resetKeys: true }))
  .use(logMetrics(observability.metrics));
