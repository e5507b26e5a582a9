/**
 * Base classes of every error a Docket stage throws on purpose. The class `name` is what Step
 * Functions `Catch` and the transition log match on, so each subclass sets a stable `name`, and
 * its message says what to do about it. `retryable` tells mark-failed whether another try can
 * succeed; it is fixed per class, not per instance.
 */
export abstract class DocketError extends Error {
  abstract readonly retryable: boolean;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Bad input or a broken invariant: retrying cannot help, the workflow is rejected at once. */
export abstract class PermanentError extends DocketError {
  readonly retryable = false;
}

/** A dependency was unavailable or slow: the stage is retried with backoff, as a later try can succeed. */
export abstract class TransientError extends DocketError {
  readonly retryable = true;
}

/** A required environment variable is missing or malformed; names the variable and the fix. */
export class ConfigurationError extends PermanentError {
  override readonly name = 'ConfigurationError';
}

/** DynamoDB left writes of a batch unprocessed (throttling); the rest of the batch is retried. */
export class UnprocessedWritesError extends TransientError {
  override readonly name = 'UnprocessedWritesError';

  constructor(
    readonly table: string,
    readonly unprocessed: number,
  ) {
    super(`DynamoDB left ${unprocessed} write(s) to ${table} unprocessed; they are retried with backoff.`);
  }
}

/**
 * An event the function's schema refused; it was sent to the dead-letter queue with the reason.
 * Permanent for ingest (`PERMANENT_ERRORS.ingest`), so the Task is not retried (a retry would
 * dead-letter the event again) and the execution ends as it did before the dead letter existed;
 * its own name tells an operator the event, not a document, was unreadable.
 */
export class UnparseableEventError extends PermanentError {
  override readonly name = 'UnparseableEvent';
}

/** The dead-letter queue could not be written; retried, so the event is not lost without a trace. */
export class DeadLetterUnavailableError extends TransientError {
  override readonly name = 'DeadLetterUnavailable';
}
