import { objectVersionOf } from './objectCreatedEvent.js';
import { workflowIdFor } from './store/index.js';

/** The object of an "Object Created" event, as far as it identifies one upload. */
export interface UploadedObject {
  readonly key: string;
  readonly 'version-id'?: string | undefined;
  readonly sequencer?: string | undefined;
  readonly etag?: string | undefined;
}

/**
 * What makes an upload one upload: the bucket, the key and the object version (`objectVersionOf`:
 * the version id, else the PUT's sequencer, else its ETag). Two deliveries of the same event share
 * it; two PUTs of the same key do not.
 */
export const uploadIdempotencyKey = (bucket: string, object: UploadedObject): string =>
  // The schema refuses an event without any of them, so the fallback never names a real upload.
  `s3://${bucket}/${object.key}#${objectVersionOf(object) ?? 'unversioned'}`;

/**
 * The workflow id of an upload, which is also the name of the execution the starter starts for
 * it: an operator finds a document's run in the Step Functions console by its workflow id, and
 * a second delivery of the event cannot start a second execution (StartExecution is idempotent
 * per name).
 */
export const uploadWorkflowId = (bucket: string, object: UploadedObject): string =>
  workflowIdFor(uploadIdempotencyKey(bucket, object));
