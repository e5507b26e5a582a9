import { isRetryableErrorName } from '../shared/errorCatalog.js';
import type { CaughtError } from '../shared/stageInput.js';
import type { RecordedError } from '../shared/store/types.js';

const MAX_MESSAGE = 1_000;

/**
 * Turns Step Functions' `{Error, Cause}` into the recorded error: the name is kept as the type
 * (it is what Catch matched), the message comes from the Lambda's JSON cause when there is one.
 */
export const recordedError = (caught: CaughtError | undefined): RecordedError => {
  const type = caught?.Error ?? 'Unknown';
  let message = caught?.Cause ?? 'no cause given';
  try {
    const cause = JSON.parse(message) as { errorMessage?: unknown };
    if (typeof cause.errorMessage === 'string') message = cause.errorMessage;
  } catch {
    // Not JSON (States.Timeout and friends carry plain text): keep it as it is.
  }
  return { type, message: message.slice(0, MAX_MESSAGE), retryable: isRetryableErrorName(type) };
};
