import { setTimeout as sleep } from 'node:timers/promises';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import middy from '@middy/core';
import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { createDocumentClient, createSfnClient, createSqsClient } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { REDRIVE_ATTRIBUTE, sendDeadLetter } from '../shared/deadLetters.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { ExecutionSlots, executionSlotLimitFromEnv, needsSlot } from '../shared/slots/index.js';
import { WorkflowStore } from '../shared/store/index.js';
import { abandonedUpload } from './abandoned.js';
import { SlotsFullError } from './errors.js';
import { type StarterDeps, startUpload } from './startUpload.js';

const observability = createObservability('starter');
/** A container reconciles the slots at most this often while they are all held. */
const RECONCILE_EVERY_MS = 30_000;
/** Time kept back from the function timeout for giving deferred messages back. */
const SAFETY_MS = 10_000;

const deps = once(() => {
  const client = createDocumentClient();
  const tables = storeTablesFromEnv();
  const sfn = createSfnClient({ maxAttempts: 6 });
  const sqs = createSqsClient();
  const stateMachineArn = requireEnv(EnvVar.stateMachineArn);
  const deadLetterQueueUrl = requireEnv(EnvVar.deadLetterQueueUrl);
  const limit = executionSlotLimitFromEnv();
  const slots = new ExecutionSlots({ client, table: tables.workflows, limit });
  const store = new WorkflowStore({ client, tables });
  const stillNeeded = needsSlot({ sfn, store, stateMachineArn });
  let reconciledAt = 0;
  const starter: StarterDeps = {
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
    abandoned: abandonedUpload({ sfn, store, stateMachineArn }),
    now: () => Date.now(),
    sleep: (ms) => sleep(ms),
  };
  return { starter, sqs, uploadQueueUrl: requireEnv(EnvVar.uploadQueueUrl) };
});

const METRIC = {
  started: 'UploadsStarted',
  duplicate: 'DuplicateUploads',
  deadLettered: 'UploadsDeadLettered',
} as const;

/**
 * starter Lambda: reads "Object Created" events from the upload queue (an SQS event source with
 * ReportBatchItemFailures, one record at a time) and starts one execution per upload within the
 * slot limit, waiting for a release while there is time. A record still without a slot is made
 * visible again at once and reported failed; a start that failed is reported failed and comes
 * back after the queue's visibility timeout.
 */
export const handler = middy(async (event: SQSEvent, context: Context) => {
  const { starter, sqs, uploadQueueUrl } = deps();
  const deadline = Date.now() + context.getRemainingTimeInMillis() - SAFETY_MS;
  const startRecord = async (record: SQSRecord) => {
    try {
      const outcome = await startUpload(starter, {
        body: record.body,
        receiveCount: Number(record.attributes.ApproximateReceiveCount) || 1,
        deadline,
        redrive: record.messageAttributes[REDRIVE_ATTRIBUTE]?.stringValue,
      });
      observability.metrics.addMetric(METRIC[outcome.kind], MetricUnit.Count, 1);
      if (outcome.kind === 'deadLettered') {
        observability.logger.error('upload sent to the dead-letter queue', { reason: outcome.reason });
      }
    } catch (error) {
      if (error instanceof SlotsFullError) {
        observability.metrics.addMetric('UploadsDeferred', MetricUnit.Count, 1);
        await sqs.send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: uploadQueueUrl,
            ReceiptHandle: record.receiptHandle,
            VisibilityTimeout: 0,
          }),
        );
      }
      throw error;
    }
  };
  // One record at a time: a record waiting for a slot must not be overtaken by nine racing for
  // it. Written out rather than with Powertools' BatchProcessor, which keeps the batch in the
  // InvokeStore when one environment runs invocations side by side (as the local runtime does),
  // and there lost the handler after the first record's awaits, counting the rest as done.
  const batchItemFailures: SQSBatchItemFailure[] = [];
  for (const record of event.Records) {
    try {
      await startRecord(record);
    } catch (error) {
      batchItemFailures.push({ itemIdentifier: record.messageId });
      if (!(error instanceof SlotsFullError)) {
        observability.logger.error('start failed; SQS offers the upload again', { error });
      }
    }
  }
  return { batchItemFailures } satisfies SQSBatchResponse;
})
  .use(injectLambdaContext(observability.logger, { resetKeys: true }))
  .use(logMetrics(observability.metrics));
