import { createHash } from 'node:crypto';
import { isRetryableErrorName } from '../shared/errorCatalog.js';
import type { CaughtError } from '../shared/stageInput.js';
import type { RecordedError } from '../shared/store/index.js';

const MAX_MESSAGE = 1_000;

/** How a stage error names the invocation it came from (see `stageHandler`). */
const REQUEST_TAG = /\(request [0-9A-Za-z-]+\)/;

/**
 * A key for one failure: the error as caught, when it names the Lambda request that raised it.
 * Errors without one (Step Functions timeouts) get no key: each is counted, never deduplicated.
 */
export const failureKey = (caught: CaughtError | undefined): string | undefined => {
  if (!caught?.Cause || !REQUEST_TAG.test(caught.Cause)) return undefined;
  return createHash('sha256').update(`${caught.Error}\n${caught.Cause}`).digest('base64url').slice(0, 22);
};

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
