/**
 * The alternative design `npm run cost` prices beside today's: the fast automatic segment runs as
 * a nested Express workflow (the "child") that the Standard workflow (the "parent") starts with
 * `states:startExecution.sync:2`. Not deployed: a model built from today's definition, so the two
 * stay comparable state for state. Adoption (ASL builder, CDK, local engine support for Express
 * and `.sync:2`) would be a separate step.
 *
 * What goes where, read from statemachine/definition.ts:
 * - child: Ingest, Parse, Extract, Validate and Compare with the Choices between them: every
 *   state that neither waits for a person (the review Task), nor polls a job (Ocr and its
 *   OcrWait loop), nor waits out a workflow retry (BackoffWait: 10/20/40 s).
 * - parent: everything else, unchanged (Ocr, the review, mark-failed and its backoff, the
 *   bookkeeping stages and the end states), plus Automatic (the `.sync:2` Task) and
 *   AfterAutomatic (a Choice on the child's `next`). After a review, Compare runs in the parent
 *   (two transitions) rather than through a second child (four).
 *
 * The child ends in a Pass that names the parent state to continue in (`$.next`): a Choice on
 * one string costs one transition, where re-deriving the route from the stages' results would
 * need the child's Choices twice. The child runs no Retry: Lambda faults and its own timeouts
 * fail the child, and the parent's Automatic Task retries the whole segment in place. The stages
 * are idempotent (a repeated call returns its recorded result; Ingest recognises the parent's
 * execution ARN, so it is no duplicate), so a rerun skips the work already done, and the child's
 * worst case is the sum of its Tasks' timeouts (`childWorstCaseSeconds`).
 */

import {
  type AslCatcher,
  type AslDefinition,
  type AslPassState,
  type AslRetrier,
  type AslState,
  type AslTaskState,
  type AslWaitState,
  buildDefinition,
  INGEST_PERMANENT_ERRORS,
  LAMBDA_TRANSIENT_ERRORS,
  Outcome,
  STAGES,
  type StageArns,
  type WorkflowPolicyInput,
} from '../../statemachine/index.js';

/** Express workflows stop at five minutes, whatever their states' timeouts say. */
export const EXPRESS_MAX_SECONDS = 300;

/**
 * Default `TimeoutSeconds` of each child Task: five Tasks on the longest path (Ingest to Compare)
 * take at most 275 s, leaving 25 s for the transitions and the `.sync` start. A stage function in
 * the child then needs a timeout of at most 25 s (Docket's 30 s Task margin for a cold start).
 */
export const CHILD_TASK_TIMEOUT_SECONDS = 55;

/** The resource of a Task that starts a state machine and waits for it, output parsed as JSON. */
export const START_EXECUTION_SYNC = 'arn:aws:states:::states:startExecution.sync:2';

/** A Pass of the model: sets a value (`Result`) or moves one (`InputPath`), and may end the child. */
export interface DesignPassState {
  Type: 'Pass';
  Comment?: string;
  Result?: unknown;
  InputPath?: string;
  ResultPath?: string;
  Next?: string;
  End?: boolean;
}

/** A state of the modelled definitions: today's kinds, plus the fields the nesting needs. */
export type DesignState =
  | Exclude<AslState, AslPassState | AslTaskState>
  | (AslTaskState & { OutputPath?: string })
  | DesignPassState;

/** A definition of the alternative design (parent or child). */
export interface DesignDefinition {
  Comment?: string;
  StartAt: string;
  States: Record<string, DesignState>;
}

/** The two state machines of the alternative design. */
export interface ExpressChildDesign {
  /** The Standard workflow: starts the child, keeps the waits. */
  parent: DesignDefinition;
  /** The Express workflow: the automatic segment. */
  child: DesignDefinition;
}

/** Options of the model. */
export interface ExpressChildOptions {
  /** ARN of the Express state machine (a placeholder is fine for counting and pricing). */
  childArn?: string;
  /** `TimeoutSeconds` of every child Task; see `CHILD_TASK_TIMEOUT_SECONDS`. */
  childTaskTimeoutSeconds?: number;
}

const task = (stage: keyof typeof STAGES) => STAGES[stage].task;

/** The child's exits: parent state to continue in -> the child's Pass that says so. */
const EXITS: Readonly<Record<string, string>> = {
  [Outcome.completed]: 'ToCompleted',
  [Outcome.duplicate]: 'ToDuplicate',
  [Outcome.quarantined]: 'ToQuarantined',
  [Outcome.unroutable]: 'ToUnroutable',
  [Outcome.ingestFailed]: 'ToIngestFailed',
  [task('ocr')]: 'ToOcr',
  [task('schedule-review')]: 'ToReview',
  [task('mark-failed')]: 'ToMarkFailed',
};

/**
 * Where the parent's Automatic retries a failed child: the Lambda throttle schedule of today's
 * Tasks (about 25 minutes, jittered), since the child fails on exactly the faults today's Tasks
 * retry in place (never counted as workflow retries), plus StartExecution's own throttling.
 */
const segmentRetry: AslRetrier = {
  ErrorEquals: ['States.TaskFailed', 'StepFunctions.SdkClientException', 'StepFunctions.ThrottlingException'],
  IntervalSeconds: 2,
  MaxAttempts: 10,
  BackoffRate: 2,
  MaxDelaySeconds: 300,
  JitterStrategy: 'FULL',
};

const exitPass = (next: string): DesignState => ({
  Type: 'Pass',
  Comment: `Hands the workflow back to the parent's ${next}.`,
  Result: next,
  ResultPath: '$.next',
  End: true,
});

/** A child Task: today's Task with no Retry, its own timeout, and the child's Catch. */
const childTask = (
  state: AslTaskState,
  timeoutSeconds: number,
  catchers: AslCatcher[],
  next: string,
): DesignState => {
  const { Retry: _retriedByTheParent, ...rest } = state;
  return { ...rest, TimeoutSeconds: timeoutSeconds, Catch: catchers, Next: next };
};

/** Any Lambda fault, or the Task's own timeout, fails the child: the parent retries the segment. */
const SEGMENT_FAULTS = [...LAMBDA_TRANSIENT_ERRORS, 'States.Timeout'];

const stageCatchers = (): AslCatcher[] => [
  { ErrorEquals: SEGMENT_FAULTS, Next: 'SegmentFault' },
  { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'ToMarkFailed' },
];

const buildChild = (today: AslDefinition, timeoutSeconds: number): DesignDefinition => {
  const s = today.States as Record<string, DesignState>;
  const remap = (target: string): string => EXITS[target] ?? target;
  const choice = (name: string): DesignState => {
    const state = s[name];
    if (state?.Type !== 'Choice') throw new Error(`${name} is no longer a Choice in definition.ts`);
    return {
      ...state,
      Choices: state.Choices.map((c) => ({ ...c, Next: remap(c.Next) })),
      Default: remap(state.Default),
    };
  };
  const stageTask = (name: string, next: string) =>
    childTask(s[name] as AslTaskState, timeoutSeconds, stageCatchers(), remap(next));
  const ingest = s[task('ingest')] as AslTaskState;
  const resume = s.Resume;
  if (resume?.Type !== 'Choice') throw new Error('Resume is no longer a Choice in definition.ts');
  return {
    Comment: 'Docket automatic segment (Express): Ingest to Compare, no waits. Model only.',
    StartAt: 'Route',
    States: {
      Route: {
        Type: 'Choice',
        Comment: 'The parent sets $.resumeAt before every start but the first (an S3 event).',
        Choices: [{ Variable: '$.input.resumeAt', IsPresent: true, Next: 'Unwrap' }],
        Default: task('ingest'),
      },
      Unwrap: { Type: 'Pass', InputPath: '$.input', Next: 'Resume' },
      Resume: {
        ...resume,
        Choices: resume.Choices.map((c) => ({ ...c, Next: remap(c.Next) })),
        Default: remap(resume.Default),
      },
      [task('ingest')]: childTask(
        {
          ...ingest,
          // Ingest records the parent's execution: `docket history`, retry and the dedupe
          // ("a retry of this very execution is not a duplicate") all key on it.
          Parameters: {
            'event.$': '$.input',
            'executionArn.$': '$.AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID',
          },
        },
        timeoutSeconds,
        [
          { ErrorEquals: [...INGEST_PERMANENT_ERRORS], ResultPath: '$.error', Next: 'ToIngestFailed' },
          { ErrorEquals: ['States.ALL'], Next: 'SegmentFault' },
        ],
        'AfterIngest',
      ),
      AfterIngest: choice('AfterIngest'),
      [task('parse')]: stageTask(task('parse'), 'AfterParse'),
      AfterParse: choice('AfterParse'),
      [task('extract')]: stageTask(task('extract'), task('validate')),
      [task('validate')]: stageTask(task('validate'), 'ValidationOutcome'),
      ValidationOutcome: choice('ValidationOutcome'),
      [task('compare')]: stageTask(task('compare'), Outcome.completed),
      ...Object.fromEntries(Object.entries(EXITS).map(([next, pass]) => [pass, exitPass(next)])),
      SegmentFault: {
        Type: 'Fail',
        Error: 'Docket.SegmentFault',
        Cause: 'A Lambda fault or a Task timeout in the automatic segment; the parent retries the segment.',
      },
    },
  };
};

const buildParent = (today: AslDefinition, childArn: string): DesignDefinition => {
  const kept = Object.fromEntries(
    Object.entries(today.States).filter(
      ([name]) =>
        ![
          'Start',
          'Resume',
          'RetryRouter',
          task('ingest'),
          'AfterIngest',
          task('parse'),
          'AfterParse',
          task('extract'),
          task('validate'),
          'ValidationOutcome',
        ].includes(name),
    ),
  ) as Record<string, DesignState>;
  const afterOcr = kept.AfterOcr;
  if (afterOcr?.Type !== 'Choice') throw new Error('AfterOcr is no longer a Choice in definition.ts');
  const exits = Object.keys(EXITS);
  return {
    Comment: 'Docket (Standard) with the automatic segment nested as Express. Model only.',
    StartAt: 'Automatic',
    States: {
      Automatic: {
        Type: 'Task',
        Comment: 'Runs the automatic segment (Express) and waits for it; its output replaces the state.',
        Resource: START_EXECUTION_SYNC,
        Parameters: {
          StateMachineArn: childArn,
          Input: { 'input.$': '$', 'AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID.$': '$$.Execution.Id' },
        },
        ResultPath: '$.automatic',
        OutputPath: '$.automatic.Output',
        TimeoutSeconds: EXPRESS_MAX_SECONDS + 30,
        Retry: [segmentRetry],
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'SegmentFailed' }],
        Next: 'AfterAutomatic',
      },
      AfterAutomatic: {
        Type: 'Choice',
        Comment: 'The child names the state to continue in.',
        Choices: exits.map((next) => ({ Variable: '$.next', StringEquals: next, Next: next })),
        Default: Outcome.unroutable,
      },
      SegmentFailed: {
        Type: 'Choice',
        Comment: 'Retries spent: a workflow to count the failure on, or none yet (ingest never ran).',
        Choices: [{ Variable: '$.workflowId', IsPresent: true, Next: task('mark-failed') }],
        Default: Outcome.ingestFailed,
      },
      ...kept,
      AfterOcr: { ...afterOcr, Default: 'ResumeAfterOcr' },
      ResumeAfterOcr: {
        Type: 'Pass',
        Comment: 'Ocr made the parsed transition: the segment resumes at extracting.',
        Result: 'extracting',
        ResultPath: '$.resumeAt',
        Next: 'Automatic',
      },
      BackoffWait: { ...(kept.BackoffWait as AslWaitState), Next: 'RetryResume' },
      RetryResume: {
        Type: 'Pass',
        Comment:
          'Back to the stage that failed: the child routes $.resumeAt (review_required comes back here).',
        InputPath: '$.recovery.resumeAt',
        ResultPath: '$.resumeAt',
        Next: 'Automatic',
      },
    },
  };
};

/**
 * Builds the parent (Standard) and child (Express) definitions of the nested design from today's
 * definition: a pure function of the stage ARNs and the policy, like `buildDefinition`.
 */
export const buildExpressChildDesign = (
  arns: StageArns,
  policy: WorkflowPolicyInput = {},
  options: ExpressChildOptions = {},
): ExpressChildDesign => {
  const today = buildDefinition(arns, policy);
  const childArn = options.childArn ?? 'arn:aws:states:us-east-1:123456789012:stateMachine:docket-automatic';
  return {
    parent: buildParent(today, childArn),
    child: buildChild(today, options.childTaskTimeoutSeconds ?? CHILD_TASK_TIMEOUT_SECONDS),
  };
};
