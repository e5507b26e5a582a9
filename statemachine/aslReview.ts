import type { AslChoiceState, AslPassState, AslTaskState } from './asl.js';
import { WAIT_FOR_TASK_TOKEN } from './asl.js';
import { catchAll, lambdaRetries } from './aslErrorHandling.js';
import { STAGES } from './stages.js';

/*
 * The review wait. Step Functions fixes a Task's heartbeat when the Task starts, and every
 * SendTaskHeartbeat re-arms it with that value. So ScheduleReview (a plain Task) computes the
 * heartbeat first, the new review's timeout or what is left of a resumed one, and the review Task
 * starts with it through HeartbeatSecondsPath; a review already out of time never starts one.
 */

/** Where ScheduleReview's result goes; the review Task reads its heartbeat from there. */
export const REVIEW_WINDOW = '$.reviewWindow';

/** A review whose time ran out while no execution waited on it ends as a heartbeat timeout would. */
export const reviewWindowChoice = (): AslChoiceState => ({
  Type: 'Choice',
  Choices: [{ Variable: `${REVIEW_WINDOW}.expired`, BooleanEquals: true, Next: 'ReviewExpired' }],
  Default: STAGES['request-review'].task,
});

/** Gives mark-timed-out the `$.error` the review Task's Catch would have given it. */
export const reviewExpired = (): AslPassState => ({
  Type: 'Pass',
  Comment: 'The review ran out of time while nothing waited on it (e.g. before a resume).',
  Result: {
    Error: 'Docket.ReviewExpired',
    Cause: 'The review was due before its task could start; nobody can decide it now.',
  },
  ResultPath: '$.error',
  Next: STAGES['mark-timed-out'].task,
});

/**
 * Waits for the reviewer with the heartbeat ScheduleReview computed. request-review gets that
 * heartbeat and the time the Task was entered, and records the due time Step Functions enforces,
 * so the review API's 410 and the heartbeat timeout fall on the same second.
 */
export const requestReviewTask = (
  functionArn: string,
  stageParameters: Record<string, unknown>,
  reviewMaxSeconds: number,
): AslTaskState => ({
  Type: 'Task',
  Comment:
    'Hands the task token to request-review, which stores it server-side; the reviewer API ' +
    'sends SendTaskSuccess with the decision. A claim sends SendTaskHeartbeat.',
  Resource: WAIT_FOR_TASK_TOKEN,
  Parameters: {
    FunctionName: functionArn,
    Payload: {
      ...stageParameters,
      'taskToken.$': '$$.Task.Token',
      'heartbeatSeconds.$': `${REVIEW_WINDOW}.heartbeatSeconds`,
      'enteredAt.$': '$$.State.EnteredTime',
      // A review can wait a day: the execution gives its slot back while it waits.
      'executionName.$': '$$.Execution.Name',
    },
  },
  ResultPath: '$.review',
  HeartbeatSecondsPath: `${REVIEW_WINDOW}.heartbeatSeconds`,
  TimeoutSeconds: reviewMaxSeconds,
  Retry: lambdaRetries,
  Catch: [
    {
      ErrorEquals: ['States.HeartbeatTimeout', 'States.Timeout'],
      ResultPath: '$.error',
      Next: STAGES['mark-timed-out'].task,
    },
    catchAll(STAGES['mark-failed'].task),
  ],
  Next: STAGES['apply-review'].task,
});
