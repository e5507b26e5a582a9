import * as z from 'zod';

/*
 * The EventBridge "Object Created" event S3 sends, as Docket reads it: ingest (through the state
 * machine) and the upload-queue starter (through SQS) parse the same events with this one schema.
 *
 * Lenient where S3 varies and Docket does not care, strict where Docket depends on a field:
 * - `source-ip-address` is IPv4, IPv6 (dual-stack endpoints) or `s3.amazonaws.com` (operations S3
 *   runs itself: CompleteMultipartUpload, CopyObject, lifecycle), and may be absent. It is only
 *   logged, so any string is accepted: an upload must never fail on a field nothing reads.
 * - `sequencer`, `size`, `etag` and `version-id` are each absent from some events (unversioned
 *   buckets have no version id; events S3 emits for its own operations may lack a sequencer).
 * - `reason` is the API that made the object (`PutObject`, `POST Object`, `CopyObject`,
 *   `CompleteMultipartUpload`), kept as a string: a new one must not drop uploads.
 * - New fields (`event-version`, `aws-generated-tags`, ...) are passed through, never refused.
 * - Strict: the envelope says it is an S3 "Object Created" event; the bucket name and key are
 *   present; and at least one of version id, sequencer or ETag tells this upload apart from
 *   another at the same key, since the idempotency key is built from it (`objectVersionOf`).
 *
 * Source: "EventBridge event message structure" in the Amazon S3 User Guide; captured examples
 * are under test/fixtures/s3Events/.
 */

/** A non-empty string, for the fields Docket builds keys from. */
const nonEmpty = z.string().min(1);

/** The object an "Object Created" event names. */
export const CreatedObjectSchema = z.looseObject({
  key: nonEmpty,
  size: z.number().int().nonnegative().optional(),
  etag: nonEmpty.optional(),
  'version-id': nonEmpty.optional(),
  sequencer: nonEmpty.optional(),
});

/** The `detail` of an "Object Created" event. */
export const ObjectCreatedDetailSchema = z
  .looseObject({
    version: z.string().optional(),
    'event-version': z.string().optional(),
    bucket: z.looseObject({ name: nonEmpty }),
    object: CreatedObjectSchema,
    'request-id': z.string().optional(),
    requester: z.string().optional(),
    'source-ip-address': z.string().optional(),
    reason: z.string().optional(),
  })
  .refine((detail) => objectVersionOf(detail.object) !== undefined, {
    message: 'the object has no version-id, sequencer or etag: one upload cannot be told from another',
    path: ['object'],
  });

/**
 * The EventBridge "Object Created" event S3 sends for a new object: what EventBridge hands the
 * state machine, and what the upload queue carries to the starter.
 */
export const ObjectCreatedEventSchema = z.looseObject({
  version: z.string().optional(),
  id: z.string().optional(),
  'detail-type': z.literal('Object Created'),
  source: z.literal('aws.s3'),
  account: z.string().optional(),
  time: z.string().optional(),
  region: z.string().optional(),
  resources: z.array(z.string()).optional(),
  detail: ObjectCreatedDetailSchema,
});

/** A parsed "Object Created" event. */
export type ObjectCreatedEvent = z.infer<typeof ObjectCreatedEventSchema>;

/**
 * What tells this upload apart from another at the same key: the version id (versioned bucket),
 * else the PUT's sequencer, else the ETag. The idempotency key of a workflow is built from it, so
 * the order is fixed: changing it would make a redelivered event a new workflow.
 */
export const objectVersionOf = (object: {
  'version-id'?: string | undefined;
  sequencer?: string | undefined;
  etag?: string | undefined;
}): string | undefined => object['version-id'] ?? object.sequencer ?? object.etag;
