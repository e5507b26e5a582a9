import { PermanentError, TransientError } from '../shared/errors.js';

/** The object is not under `incoming/{tenant}/`, so it belongs to no tenant's workflow. */
export class NotAnIncomingObjectError extends PermanentError {
  override readonly name = 'NotAnIncomingObject';
  constructor(key: string) {
    super(
      `Object "${key}" is not under incoming/{tenant}/; upload documents as incoming/<tenant>/<name>.pdf ` +
        '(tenant: letters, digits, "-" or "_").',
    );
  }
}

/** The object named by the event no longer exists (deleted before it could be read). */
export class SourceObjectMissingError extends PermanentError {
  override readonly name = 'SourceObjectMissing';
  constructor(bucket: string, key: string, options?: { cause?: unknown }) {
    super(`s3://${bucket}/${key} no longer exists; upload it again to process it.`, options);
  }
}

/** S3 could not be read right now. */
export class SourceUnavailableError extends TransientError {
  override readonly name = 'SourceUnavailable';
}
