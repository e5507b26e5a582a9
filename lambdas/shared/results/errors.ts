import { PermanentError, TransientError } from '../errors.js';

/** A result could not be written or read (S3 unavailable); the deliverer or compaction tries again. */
export class ResultStoreUnavailableError extends TransientError {
  override readonly name = 'ResultStoreUnavailable';
}

/** A compaction was asked for a day that is not a calendar date `YYYY-MM-DD`. */
export class BadResultDateError extends PermanentError {
  override readonly name = 'BadResultDate';
  constructor(readonly date: string) {
    super(`"${date}" is not a date written YYYY-MM-DD (UTC); give a day such as 2026-11-27.`);
  }
}
