import { randomUUID } from 'node:crypto';
import { json } from './engineHistory.js';
import { TaskFailure } from './errors.js';
import type { EventBody } from './history.js';
import type { TaskSpec } from './prepareDefinition.js';

const LAMBDA_RESOURCE = { lambdaInvoke: 'invoke', lambdaInvokeCallback: 'invoke.waitForTaskToken' } as const;

/** Where a Task's history events go, and how its execution shapes a `States.Timeout`. */
export interface TaskEventSink {
  emit: (body: EventBody) => void;
  region: string;
  timeoutError: (cause: string) => Error;
}

/** The Task* history events of one Task after it started; each ending returns the error to throw. */
export interface TaskEvents {
  failed(error: string, cause: string): TaskFailure;
  timedOut(error: string, cause: string): Error;
  submitted(output: unknown): void;
  succeeded(output: unknown): void;
}

/**
 * Emits TaskScheduled and TaskStarted for a service-integration Task (`lambda:invoke`, with or
 * without `.waitForTaskToken`) and returns the emitters of its ending, shaped as AWS records them.
 */
export const taskEvents = (sink: TaskEventSink, spec: TaskSpec, input: unknown): TaskEvents => {
  const { emit, region, timeoutError } = sink;
  const resource = LAMBDA_RESOURCE[spec.kind as keyof typeof LAMBDA_RESOURCE];
  const base = { resourceType: 'lambda', resource };
  emit({
    type: 'TaskScheduled',
    taskScheduledEventDetails: {
      ...base,
      region: region,
      parameters: json(input),
      timeoutInSeconds: spec.timeoutSeconds,
      ...(spec.kind === 'lambdaInvokeCallback' && spec.heartbeatSeconds !== undefined
        ? { heartbeatInSeconds: spec.heartbeatSeconds }
        : {}),
    },
  });
  emit({ type: 'TaskStarted', taskStartedEventDetails: base });
  return {
    failed: (error: string, cause: string): TaskFailure => {
      emit({ type: 'TaskFailed', taskFailedEventDetails: { ...base, error, cause } });
      return new TaskFailure(error, cause);
    },
    timedOut: (error: string, cause: string): Error => {
      emit({ type: 'TaskTimedOut', taskTimedOutEventDetails: { ...base, error, cause } });
      return error === 'States.Timeout' ? timeoutError(cause) : new TaskFailure(error, cause);
    },
    submitted: (output: unknown): void =>
      emit({
        type: 'TaskSubmitted',
        taskSubmittedEventDetails: { ...base, output: json(output), outputDetails: { truncated: false } },
      }),
    succeeded: (output: unknown): void =>
      emit({
        type: 'TaskSucceeded',
        taskSucceededEventDetails: { ...base, output: json(output), outputDetails: { truncated: false } },
      }),
  };
};

/** The Lambda Invoke response a `lambda:invoke` Task returns (and a callback Task submits). */
export const invokeResponse = (payload: unknown): object => {
  const requestId = randomUUID();
  return {
    ExecutedVersion: '$LATEST',
    Payload: payload,
    SdkHttpMetadata: {
      HttpHeaders: { 'Content-Type': 'application/json', 'X-Amz-Executed-Version': '$LATEST' },
      HttpStatusCode: 200,
    },
    SdkResponseMetadata: { RequestId: requestId },
    StatusCode: 200,
  };
};
