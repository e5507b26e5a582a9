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

/**
 * Where the states of one review wait lead: the expired pass, the review Task, where a decision
 * goes, and where a timeout goes. The default policy's are the definition's original names.
 */
export interface ReviewTargets {
  expired: string;
  request: string;
  decided: string;
  timedOut: string;
  /** Under a review policy with a `timeout`: where the review goes once the whole review's time is up. */
  policyExpired?: string;
}

/** The names of today's single review (the built-in default policy). */
export const DEFAULT_REVIEW_TARGETS: ReviewTargets = {
  expired: 'ReviewExpired',
  request: STAGES['request-review'].task,
  decided: STAGES['apply-review'].task,
  timedOut: STAGES['mark-timed-out'].task,
};

/** A review whose time ran out while no execution waited on it ends as a heartbeat timeout would. */
export const reviewWindowChoice = (targets: ReviewTargets = DEFAULT_REVIEW_TARGETS): AslChoiceState => ({
  Type: 'Choice',
  Choices: [
    // Guarded by IsPresent: only a policy with a timeout's schedule-review says it.
    ...(targets.policyExpired
      ? [
          {
            And: [
              { Variable: `${REVIEW_WINDOW}.policyExpired`, IsPresent: true },
              { Variable: `${REVIEW_WINDOW}.policyExpired`, BooleanEquals: true },
            ],
            Next: targets.policyExpired,
          },
        ]
      : []),
    { Variable: `${REVIEW_WINDOW}.expired`, BooleanEquals: true, Next: targets.expired },
  ],
  Default: targets.request,
});

/** Gives mark-timed-out the `$.error` the review Task's Catch would have given it. */
export const reviewExpired = (timedOut: string = DEFAULT_REVIEW_TARGETS.timedOut): AslPassState => ({
  Type: 'Pass',
  Comment: 'The review ran out of time while nothing waited on it (e.g. before a resume).',
  Result: {
    Error: 'Docket.ReviewExpired',
    Cause: 'The review was due before its task could start; nobody can decide it now.',
  },
  ResultPath: '$.error',
  Next: timedOut,
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
  targets: ReviewTargets = DEFAULT_REVIEW_TARGETS,
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
      Next: targets.timedOut,
    },
    catchAll(STAGES['mark-failed'].task),
  ],
  Next: targets.decided,
});
