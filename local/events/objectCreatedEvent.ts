import { createHash, randomUUID } from 'node:crypto';

/**
 * The sequencer of one PUT, derived from what S3 keeps of it (its LastModified to the millisecond
 * and its ETag), so the upload bridge and start-up reconciliation give the same PUT the same
 * sequencer, hence the same workflow id and execution name: an event still in the upload queue
 * after a restart and the one reconciliation queues for it start one execution, not two.
 */
export const sequencerOf = (lastModified: Date | string, etag: string | undefined): string => {
  const ms = new Date(lastModified).getTime();
  const tag = createHash('sha256')
    .update(etag ?? '')
    .digest('hex')
    .slice(0, 8)
    .toUpperCase();
  return `${ms.toString(16).toUpperCase().padStart(12, '0')}${tag}`;
};

/** The object an "Object Created" event describes. */
export interface CreatedObject {
  bucket: string;
  key: string;
  size?: number;
  etag?: string;
  versionId?: string;
  /** Orders PUTs to one key; unique per PUT. */
  sequencer: string;
}

let sequence = 0;

/**
 * A sequencer that is unique per call and increases with time (a millisecond clock alone, as
 * s3rver used, can be shared by two PUTs).
 */
export const nextSequencer = (): string =>
  `${Date.now().toString(16).toUpperCase()}${(sequence++ % 0xffff).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The EventBridge "Object Created" event S3 sends for a new object (the shape AWS documents in
 * "EventBridge event message structure"), so the local runtime starts executions with exactly
 * the input AWS would give them.
 */
export const objectCreatedEvent = (
  object: CreatedObject,
  options: { region?: string; account?: string; time?: Date; reason?: string } = {},
) => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Object Created',
  source: 'aws.s3',
  account: options.account ?? '000000000000',
  time: (options.time ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region: options.region ?? 'us-east-1',
  resources: [`arn:aws:s3:::${object.bucket}`],
  detail: {
    version: '0',
    bucket: { name: object.bucket },
    object: {
      key: object.key,
      ...(object.size !== undefined && { size: object.size }),
      ...(object.etag && { etag: object.etag }),
      ...(object.versionId && { 'version-id': object.versionId }),
      sequencer: object.sequencer,
    },
    'request-id': randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase(),
    requester: options.account ?? '000000000000',
    'source-ip-address': '127.0.0.1',
    reason: options.reason ?? 'PutObject',
  },
});

/** An "Object Created" event. */
export type ObjectCreatedEvent = ReturnType<typeof objectCreatedEvent>;
