import { PermanentError, TransientError } from '../shared/errors.js';

/** The Providers table could not be read: retry the validate stage with backoff. */
export class ProviderLookupFailed extends TransientError {
  override readonly name = 'ProviderLookupFailed';
  constructor(name: string, options?: { cause?: unknown }) {
    super(
      `Looking up provider "${name}" in the Providers table failed. The validate stage is retried; ` +
        'if it keeps failing, check that the Providers table exists and the Lambda role can read it.',
      options,
    );
  }
}

/** The extraction artifact does not match the extraction schema (a bug or a tampered artifact). */
export class InvalidExtraction extends PermanentError {
  override readonly name = 'InvalidExtraction';
  constructor(detail: string) {
    super(
      `The extraction record is not valid (${detail}). Re-run the extract stage for this document; if it ` +
        'persists, the extract and validate stages disagree on the record format.',
    );
  }
}
