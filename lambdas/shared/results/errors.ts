import { PermanentError, TransientError } from '../errors.js';

/** A result could not be written or read (S3 unavailable); the deliverer or compaction tries again. */
export class ResultStoreUnavailableError extends TransientError {
  override readonly name = 'ResultStoreUnavailable';
}

/** A JSON result under results/ is not one Docket wrote (unparseable, wrong shape): it is named so it can be fixed or removed. */
export class UnreadableResultError extends PermanentError {
  override readonly name = 'UnreadableResult';
  constructor(
    readonly key: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `The result ${key} cannot be read (${reason}); remove it or write it again (docket results compact skips nothing silently).`,
      options,
    );
  }
}

/** A compaction was asked for a day that is not a calendar date `YYYY-MM-DD`. */
export class BadResultDateError extends PermanentError {
  override readonly name = 'BadResultDate';
  constructor(readonly date: string) {
    super(`"${date}" is not a date written YYYY-MM-DD (UTC); give a day such as 2026-11-27.`);
  }
}
