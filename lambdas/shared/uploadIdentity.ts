import { workflowIdFor } from './store/index.js';

/** The parts of an S3 "Object Created" event that identify one upload. */
export interface UploadedObject {
  readonly bucket: string;
  readonly key: string;
  readonly versionId?: string | undefined;
  readonly sequencer?: string | undefined;
  readonly etag?: string | undefined;
}

/**
 * What makes an upload one upload: the bucket, the key and the object version (or, unversioned,
 * the PUT's sequencer, else its ETag). Two deliveries of the same event share it; two PUTs of the
 * same key do not.
 */
export const uploadIdempotencyKey = (object: UploadedObject): string =>
  `s3://${object.bucket}/${object.key}#${object.versionId ?? object.sequencer ?? object.etag ?? 'unversioned'}`;

/**
 * The workflow id of an upload, which is also the name of the execution the starter starts for
 * it: an operator finds a document's run in the Step Functions console by its workflow id, and
 * a second delivery of the event cannot start a second execution (StartExecution is idempotent
 * per name).
 */
export const uploadWorkflowId = (object: UploadedObject): string =>
  workflowIdFor(uploadIdempotencyKey(object));
