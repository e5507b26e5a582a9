import type { AslCatcher, AslRetrier } from './asl.js';
import { PERMANENT_ERRORS } from './permanentErrors.js';

/*
 * How the definition's Tasks meet errors: which errors are retried in place, how often and how
 * far apart, and where the rest are caught. The builder (definition.ts) picks one of these for
 * each Task; the lists are exported so tests and the error catalogue read the same ones.
 */

/**
 * Lambda service faults (the list AWS recommends retrying, "Handle Lambda service exceptions"):
 * retried in place with jitter and not counted as workflow retries, because the stage never ran:
 * counting them would spend a document's retries on an AWS fault.
 */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ClientExecutionTimeoutException',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
];

/**
 * An error Lambda could not attribute: the execution environment died (out of memory, a crash
 * outside the handler) or the invocation was lost. Often transient, but it may also be the
 * function's own doing and recur, so it gets fewer tries than a service fault before the stage's
 * Catch counts it as a workflow retry.
 */
export const LAMBDA_UNKNOWN_ERRORS = ['Lambda.Unknown'];

/**
 * Throttling: the function never ran, and a burst of uploads against reserved concurrency can
 * throttle for minutes. Retried in place long enough to drain a burst, never counted as a
 * workflow retry (a document must not be rejected because the account was busy).
 */
export const LAMBDA_THROTTLE_ERRORS = ['Lambda.TooManyRequestsException'];

/**
 * Errors of the bookkeeping stages (mark-failed, mark-rejected, mark-timed-out) that a second try
 * cannot fix; everything else they meet (a DynamoDB blip, a lost race) is retried in place, since
 * a bookkeeping failure halts the workflow for an operator.
 */
export const BOOKKEEPING_PERMANENT_ERRORS = [
  ...PERMANENT_ERRORS.workflowLogic,
  ...PERMANENT_ERRORS.store,
  ...PERMANENT_ERRORS.input,
  ...PERMANENT_ERRORS.configuration,
] as const;

/** Errors ingest throws for an event that can never become a workflow, and a malformed event. */
export const INGEST_PERMANENT_ERRORS = [...PERMANENT_ERRORS.ingest, ...PERMANENT_ERRORS.input] as const;

const serviceRetry: AslRetrier = {
  ErrorEquals: LAMBDA_SERVICE_ERRORS,
  IntervalSeconds: 1,
  MaxAttempts: 3,
  BackoffRate: 2,
  MaxDelaySeconds: 10,
  JitterStrategy: 'FULL',
};

// About 25 minutes of retries at most: 2, 4, ... capped at 5 minutes, with full jitter.
const throttleRetry: AslRetrier = {
  ErrorEquals: LAMBDA_THROTTLE_ERRORS,
  IntervalSeconds: 2,
  MaxAttempts: 10,
  BackoffRate: 2,
  MaxDelaySeconds: 300,
  JitterStrategy: 'FULL',
};

const unknownRetry: AslRetrier = {
  ErrorEquals: LAMBDA_UNKNOWN_ERRORS,
  IntervalSeconds: 2,
  MaxAttempts: 2,
  BackoffRate: 2,
  JitterStrategy: 'FULL',
};

/** Every transient Lambda error a Task retries in place (the template test checks each Task). */
export const LAMBDA_TRANSIENT_ERRORS = [
  ...LAMBDA_THROTTLE_ERRORS,
  ...LAMBDA_SERVICE_ERRORS,
  ...LAMBDA_UNKNOWN_ERRORS,
] as const;

/** Every Task retries these in place first: the Lambda service, not the stage, failed. */
export const lambdaRetries: AslRetrier[] = [throttleRetry, serviceRetry, unknownRetry];

/**
 * For a Task whose failures nothing downstream records or counts (ingest: no workflow yet; the
 * bookkeeping stages: they are the recording): the Lambda retries, none for its permanent errors,
 * and `attempts` in place for everything else.
 */
export const inPlaceRetries = (permanent: readonly string[], attempts: number): AslRetrier[] => [
  ...lambdaRetries,
  { ErrorEquals: [...permanent], MaxAttempts: 0 },
  {
    ErrorEquals: ['States.ALL'],
    IntervalSeconds: 2,
    MaxAttempts: attempts,
    BackoffRate: 2,
    JitterStrategy: 'FULL',
  },
];

/** The bookkeeping stages' retries: three in place, none for an error a retry cannot fix. */
export const bookkeepingRetries = inPlaceRetries(BOOKKEEPING_PERMANENT_ERRORS, 3);

/** Any error not retried away goes to `next`, with the error at `$.error`. */
export const catchAll = (next: string): AslCatcher => ({
  ErrorEquals: ['States.ALL'],
  ResultPath: '$.error',
  Next: next,
});
