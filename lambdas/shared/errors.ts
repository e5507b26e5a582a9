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
