import { PermanentError, TransientError } from '../shared/errors.js';
import { INCOMING_PREFIX, printable } from '../shared/keyPolicy.js';

/** The object is not under `incoming/`, so it is no upload (and is never moved). */
export class NotAnIncomingObjectError extends PermanentError {
  override readonly name = 'NotAnIncomingObject';
  constructor(key: string) {
    super(
      `Object "${printable(key)}" is not under ${INCOMING_PREFIX}; upload documents as ${INCOMING_PREFIX}<tenant>/<name>.pdf ` +
        '(tenant: lower-case letters, digits or "-").',
    );
  }
}

/** The object named by the event no longer exists (deleted before it could be read). */
export class SourceObjectMissingError extends PermanentError {
  override readonly name = 'SourceObjectMissing';
  constructor(bucket: string, key: string, options?: { cause?: unknown }) {
    super(`s3://${bucket}/${printable(key)} no longer exists; upload it again to process it.`, options);
  }
}

/** S3 could not be read right now. */
export class SourceUnavailableError extends TransientError {
  override readonly name = 'SourceUnavailable';
}
