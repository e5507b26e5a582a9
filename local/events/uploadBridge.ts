import { type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { INCOMING_PREFIX } from '../../lambdas/shared/keyPolicy.js';
import { exponentialBackoff, retry } from '../../lambdas/shared/retry.js';
import type { CreatedObject as StoredObject } from '../emulators/s3.js';
import { type CreatedObject, nextSequencer, objectCreatedEvent } from './objectCreatedEvent.js';

const ATTEMPTS = 5;

/** Starts an execution for one "Object Created" event, retrying while the endpoint is busy. */
export const startForObject = async (
  sfn: SFNClient,
  stateMachineArn: string,
  object: CreatedObject,
  region: string,
): Promise<string> => {
  const input = JSON.stringify(objectCreatedEvent(object, { region }));
  return retry(
    async () => {
      const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input }));
      return executionArn as string;
    },
    { attempts: ATTEMPTS, delayMs: exponentialBackoff(200) },
  );
};

/**
 * Plays the part of S3 -> EventBridge -> Step Functions on one machine: each object created under
 * `incoming/` starts an execution with the same "Object Created" event AWS would deliver. An event
 * that cannot be delivered is not lost: the object stays in S3 and start-up reconciliation
 * (`reconcileUploads`) starts it.
 */
export const bridgeUploads = (options: {
  sfn: SFNClient;
  stateMachineArn: string;
  region: string;
  onError: (key: string, error: unknown) => void;
}) => {
  return (stored: StoredObject): void => {
    const { key, size, etag } = stored;
    if (!key.startsWith(INCOMING_PREFIX)) return;
    startForObject(
      options.sfn,
      options.stateMachineArn,
      { bucket: stored.bucket, key, size, etag, sequencer: nextSequencer() },
      options.region,
    ).catch((error) => options.onError(key, error));
  };
};
