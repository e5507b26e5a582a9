import { CreateQueueCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { INCOMING_PREFIX } from '../../lambdas/shared/keyPolicy.js';
import { exponentialBackoff, retry } from '../../lambdas/shared/retry.js';
import { STARTER_SETTINGS } from '../../lambdas/starter/settings.js';
import type { CreatedObject as StoredObject } from '../emulators/s3.js';
import type { LocalSqs } from '../emulators/sqs/index.js';
import { invokeInProcess } from '../lambdas/invokeInProcess.js';
import type { ExecutionStatusChange } from '../sfn/index.js';
import { type CreatedObject, objectCreatedEvent, sequencerOf } from './objectCreatedEvent.js';
import { pollQueue, type QueuePoller } from './queuePoller.js';

/** The local names of the upload queue and its dead-letter queue. */
export const QUEUE_NAMES = { uploads: 'docket-uploads', deadLetters: 'docket-dead-letters' } as const;

/** The queues' URLs. */
export interface UploadQueues {
  uploads: string;
  deadLetters: string;
}

/**
 * Creates the upload queue and its dead-letter queue with the attributes the CDK construct gives
 * them (CreateQueue is idempotent, so a restart finds them as they were).
 */
export const createUploadQueues = async (sqs: SQSClient, local: LocalSqs): Promise<UploadQueues> => {
  const deadLetters = await sqs.send(
    new CreateQueueCommand({
      QueueName: QUEUE_NAMES.deadLetters,
      Attributes: { MessageRetentionPeriod: String(STARTER_SETTINGS.retentionSeconds) },
    }),
  );
  const uploads = await sqs.send(
    new CreateQueueCommand({
      QueueName: QUEUE_NAMES.uploads,
      Attributes: {
        MessageRetentionPeriod: String(STARTER_SETTINGS.retentionSeconds),
        VisibilityTimeout: String(STARTER_SETTINGS.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: local.queueArn(QUEUE_NAMES.deadLetters),
          maxReceiveCount: STARTER_SETTINGS.maxReceiveCount,
        }),
      },
    }),
  );
  return { uploads: uploads.QueueUrl as string, deadLetters: deadLetters.QueueUrl as string };
};

const SEND_ATTEMPTS = 5;

/** Queues the "Object Created" event of one object, as the EventBridge rule's SQS target does. */
export const queueObjectCreated = (
  sqs: SQSClient,
  queueUrl: string,
  object: CreatedObject,
  region: string,
): Promise<void> =>
  retry(
    async () => {
      const body = JSON.stringify(objectCreatedEvent(object, { region }));
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
    },
    { attempts: SEND_ATTEMPTS, delayMs: exponentialBackoff(200) },
  );

/**
 * Plays the part of S3 -> EventBridge -> SQS on one machine: each object created under
 * `incoming/` puts the same "Object Created" event AWS would on the upload queue. An event that
 * cannot be queued is not lost: the object stays in S3 and start-up reconciliation queues it.
 */
export const bridgeUploads = (options: {
  sqs: SQSClient;
  queueUrl: string;
  region: string;
  onError: (key: string, error: unknown) => void;
}) => {
  return (stored: StoredObject): void => {
    const { key, size, etag, lastModified } = stored;
    if (!key.startsWith(INCOMING_PREFIX)) return;
    queueObjectCreated(
      options.sqs,
      options.queueUrl,
      { bucket: stored.bucket, key, size, etag, sequencer: sequencerOf(lastModified, etag) },
      options.region,
    ).catch((error) => options.onError(key, error));
  };
};

/**
 * Plays Lambda's SQS event source mapping for the starter: the same batch size, concurrency and
 * partial batch responses the construct configures, the real handler invoked in-process with its
 * timeout.
 */
export const runStarter = (options: {
  sqs: SQSClient;
  queueUrl: string;
  handler: unknown;
  onError: (error: unknown) => void;
}): QueuePoller =>
  pollQueue({
    sqs: options.sqs,
    queueUrl: options.queueUrl,
    batchSize: STARTER_SETTINGS.batchSize,
    concurrency: STARTER_SETTINGS.concurrency,
    handler: (event) =>
      invokeInProcess(options.handler, 'docket-starter', event, {
        timeoutMs: STARTER_SETTINGS.timeoutSeconds * 1000,
        memorySizeMb: 256,
      }),
    onError: options.onError,
  });

/** Closing statuses: the ones the construct's "Execution Status Change" rule sends. */
const CLOSED = new Set(['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED']);

/**
 * Plays the EventBridge rule that gives an execution's slot back when it closes: the
 * "Step Functions Execution Status Change" event AWS sends, to the slot-release handler.
 */
export const releaseSlotsOnClose = (options: {
  stateMachineArn: string;
  region: string;
  account: string;
  handler: unknown;
  onError: (error: unknown) => void;
}) => {
  return (change: ExecutionStatusChange): void => {
    if (change.stateMachineArn !== options.stateMachineArn || !CLOSED.has(change.status)) return;
    const event = {
      version: '0',
      id: crypto.randomUUID(),
      'detail-type': 'Step Functions Execution Status Change',
      source: 'aws.states',
      account: options.account,
      time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      region: options.region,
      resources: [change.executionArn],
      detail: {
        executionArn: change.executionArn,
        stateMachineArn: change.stateMachineArn,
        name: change.executionArn.split(':').at(-1),
        status: change.status,
      },
    };
    invokeInProcess(options.handler, 'docket-slot-release', event, { timeoutMs: 30_000 }).catch(
      options.onError,
    );
  };
};
