import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '../../lambdas/shared/clients.js';
import { type KeyDoor, startLocalS3 } from '../../local/emulators/s3.js';
import { nextSequencer, objectCreatedEvent } from '../../local/events/objectCreatedEvent.js';
import { LOCAL_CREDENTIALS } from './localDynamo.js';

/** The local S3 on a free port over a temp directory, and a client for it. */
export const startS3Fixture = async (options: { maxUploadBytes?: number; door?: KeyDoor } = {}) => {
  const directory = await mkdtemp(join(tmpdir(), 'docket-s3-'));
  const s3 = await startLocalS3({ directory, bucket: 'docket-test', ...options });
  const client = createS3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
  });
  return {
    s3,
    client,
    directory,
    close: async () => {
      client.destroy();
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
};

/**
 * Puts `body` at `key` and returns the EventBridge "Object Created" event S3 would send for it,
 * with the stored ETag and a fresh sequencer; `eventSize` overrides the size the event reports.
 */
export const putWithEvent = async (
  s3: S3Client,
  bucket: string,
  key: string,
  body: Uint8Array | string,
  options: { eventSize?: number } = {},
) => {
  const put = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  return objectCreatedEvent({
    bucket,
    key,
    size: options.eventSize ?? (typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
    etag: put.ETag,
    sequencer: nextSequencer(),
  });
};
