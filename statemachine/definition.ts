import type {
  AslCatcher,
  AslChoiceState,
  AslDefinition,
  AslFailState,
  AslRetrier,
  AslState,
  AslTaskState,
} from './asl.js';
import { WAIT_FOR_TASK_TOKEN } from './asl.js';
import { ExecutionError, Outcome } from './outcomes.js';
import { PERMANENT_ERRORS } from './permanentErrors.js';
import {
  resolvePolicy,
  type StagePolicy,
  stagePolicy,
  type WorkflowPolicy,
  type WorkflowPolicyInput,
} from './policy.js';
import { RESUME_STAGE, STAGES, type Stage } from './stages.js';

/** The ARN (or local stand-in) of each stage's function. */
export type StageArns = Readonly<Record<Stage, string>>;

/**
 * Lambda service faults: retried in place with jitter and not counted as workflow retries,
 * because the stage never ran: counting them would spend a document's retries on an AWS fault.
 */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
];

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

/** Every Task retries these in place first: the Lambda service, not the stage, failed. */
const lambdaRetries: AslRetrier[] = [throttleRetry, serviceRetry];

/**
 * For a Task whose failures nothing downstream records or counts (ingest: no workflow yet; the
 * bookkeeping stages: they are the recording): the Lambda retries, none for its permanent errors,
 * and `attempts` in place for everything else.
 */
const inPlaceRetries = (permanent: readonly string[], attempts: number): AslRetrier[] => [
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

const bookkeepingRetries = inPlaceRetries(BOOKKEEPING_PERMANENT_ERRORS, 3);

const catchAll = (next: string): AslCatcher => ({
  ErrorEquals: ['States.ALL'],
  ResultPath: '$.error',
  Next: next,
});

const fail = (error: string, cause: string): AslFailState => ({ Type: 'Fail', Error: error, Cause: cause });

const task = (name: Stage) => STAGES[name].task;

/** Builds the definition; each state has one builder with its own Retry and Catch. */
class DefinitionBuilder {
  private readonly stagePolicy: StagePolicy;

  constructor(
    private readonly arns: StageArns,
    private readonly policy: WorkflowPolicy,
  ) {
    this.stagePolicy = stagePolicy(policy);
  }

  build(): AslDefinition {
    const states: Record<string, AslState> = {
      Start: this.start(),
      Resume: this.router('$.resumeAt', 'Resumes a workflow at the stage for its recorded state.'),
      [task('ingest')]: this.ingest(),
      AfterIngest: this.afterIngest(),
      [task('parse')]: this.stage('parse', 'AfterParse'),
      AfterParse: this.afterParse(),
      [task('ocr')]: this.stage('ocr', 'AfterOcr', { 'previous.$': '$.result' }),
      AfterOcr: this.afterOcr(),
      OcrWait: {
        Type: 'Wait',
        Comment: 'A Textract job is still running: poll it again after the seconds Ocr asked for.',
        SecondsPath: '$.result.waitSeconds',
        Next: task('ocr'),
      },
      [task('extract')]: this.stage('extract', task('validate')),
      [task('validate')]: this.stage('validate', 'ValidationOutcome'),
      ValidationOutcome: this.validationOutcome(),
      [task('request-review')]: this.requestReview(),
      [task('apply-review')]: this.stage('apply-review', 'ReviewOutcome', { 'review.$': '$.review' }),
      ReviewOutcome: this.reviewOutcome(),
      [task('compare')]: this.stage('compare', Outcome.completed),
      [task('mark-failed')]: this.markFailed(),
      Recover: this.recover(),
      Settled: this.settled(),
      BackoffWait: { Type: 'Wait', SecondsPath: '$.recovery.waitSeconds', Next: 'RetryRouter' },
      RetryRouter: this.router('$.recovery.resumeAt', 'Returns to the stage that failed (failedAtStep).'),
      [task('mark-rejected')]: this.terminalBookkeeping('mark-rejected', Outcome.processingFailed),
      [task('mark-timed-out')]: this.terminalBookkeeping('mark-timed-out', Outcome.reviewTimedOut),
      [Outcome.completed]: { Type: 'Succeed', Comment: 'Compared and completed.' },
      [Outcome.reviewRejected]: { Type: 'Succeed', Comment: 'A reviewer rejected the document.' },
      [Outcome.cancelled]: { Type: 'Succeed', Comment: 'An operator cancelled the workflow.' },
      [Outcome.duplicate]: {
        Type: 'Succeed',
        Comment: 'Duplicate event for an object version already ingested.',
      },
      [Outcome.quarantined]: {
        Type: 'Succeed',
        Comment: 'The upload key breaks the key policy: ingest moved the object to quarantine/, no workflow.',
      },
      [Outcome.processingFailed]: fail(
        ExecutionError.processingFailed,
        'Rejected after a permanent error or after the last retry; the transition log holds the error.',
      ),
      [Outcome.reviewTimedOut]: fail(
        ExecutionError.reviewTimedOut,
        'No reviewer acted before the review heartbeat ran out; the workflow is timed_out.',
      ),
      [Outcome.processingHalted]: fail(
        ExecutionError.processingHalted,
        'A stage failed where no failure can be recorded; the workflow kept its state and can be resumed.',
      ),
      [Outcome.ingestFailed]: fail(
        ExecutionError.ingestFailed,
        'The S3 event could not be turned into a workflow; see the Ingest task error.',
      ),
      [Outcome.unroutable]: fail(
        ExecutionError.unroutable,
        'The workflow is in a state no stage continues from (terminal, or resumeAt unknown); check `docket show`.',
      ),
    };
    return {
      Comment: 'Docket: one execution per document. Generated by statemachine/definition.ts.',
      StartAt: 'Start',
      States: states,
    };
  }

  private start(): AslChoiceState {
    return {
      Type: 'Choice',
      Comment: 'An S3 event starts a new workflow; {workflowId, resumeAt} resumes one.',
      Choices: [{ Variable: '$.resumeAt', IsPresent: true, Next: 'Resume' }],
      Default: task('ingest'),
    };
  }

  /** A Choice that sends a workflow in state `$variable` to the stage that continues from it. */
  private router(variable: string, comment: string): AslChoiceState {
    return {
      Type: 'Choice',
      Comment: comment,
      Choices: Object.entries(RESUME_STAGE).map(([state, stage]) => ({
        Variable: variable,
        StringEquals: state,
        Next: task(stage),
      })),
      Default: Outcome.unroutable,
    };
  }

  private ingest(): AslTaskState {
    return {
      Type: 'Task',
      Comment: 'Creates the workflow at pending from the S3 Object Created event (deduplicated).',
      Resource: this.arns.ingest,
      Parameters: { 'event.$': '$', 'executionArn.$': '$$.Execution.Id' },
      ResultPath: '$',
      TimeoutSeconds: this.policy.stageTimeoutSeconds,
      // Before a workflow exists there is no mark-failed to count retries: ingest's own transient
      // faults (S3 or DynamoDB unreachable) are retried here, its permanent ones not at all.
      Retry: inPlaceRetries(INGEST_PERMANENT_ERRORS, 4),
      Catch: [catchAll(Outcome.ingestFailed)],
      Next: 'AfterIngest',
    };
  }

  private afterIngest(): AslChoiceState {
    return {
      Type: 'Choice',
      Choices: [
        { Variable: '$.quarantined', IsPresent: true, Next: Outcome.quarantined },
        { Variable: '$.duplicate', BooleanEquals: true, Next: Outcome.duplicate },
      ],
      Default: task('parse'),
    };
  }

  /**
   * A scan or an image has no text layer: parse leaves it in `parsing_pdf` with `needsOcr`, and
   * the Ocr stage makes the `parsed` transition once it has the text.
   */
  private afterParse(): AslChoiceState {
    return {
      Type: 'Choice',
      Choices: [{ Variable: '$.result.needsOcr', BooleanEquals: true, Next: task('ocr') }],
      Default: task('extract'),
    };
  }

  /**
   * OCR is one call with tesseract; with Textract the first call starts an asynchronous job and
   * each later call polls it, with a Wait in between (the execution, not a Lambda, does the
   * waiting). Ocr reads its previous result (`$.result`: the job id) from its parameters.
   */
  private afterOcr(): AslChoiceState {
    return {
      Type: 'Choice',
      Choices: [{ Variable: '$.result.ocrStatus', StringEquals: 'running', Next: 'OcrWait' }],
      Default: task('extract'),
    };
  }

  private stageParameters(): Record<string, unknown> {
    return { 'workflowId.$': '$.workflowId', policy: this.stagePolicy };
  }

  /** A processing stage: Lambda service faults retried in place, any error to mark-failed. */
  private stage(name: Stage, next: string, extraParameters: Record<string, unknown> = {}): AslTaskState {
    return {
      Type: 'Task',
      Resource: this.arns[name],
      Parameters: { ...this.stageParameters(), ...extraParameters },
      ResultPath: '$.result',
      TimeoutSeconds: this.policy.stageTimeoutSeconds,
      Retry: lambdaRetries,
      Catch: [catchAll(task('mark-failed'))],
      Next: next,
    };
  }

  private validationOutcome(): AslChoiceState {
    return {
      Type: 'Choice',
      Comment: 'validated is the convergence point; review_required waits for a human.',
      Choices: [
        { Variable: '$.result.state', StringEquals: 'validated', Next: task('compare') },
        { Variable: '$.result.state', StringEquals: 'review_required', Next: task('request-review') },
      ],
      Default: Outcome.unroutable,
    };
  }

  private requestReview(): AslTaskState {
    return {
      Type: 'Task',
      Comment:
        'Hands the task token to request-review, which stores it server-side; the reviewer API ' +
        'sends SendTaskSuccess with the decision. A claim sends SendTaskHeartbeat.',
      Resource: WAIT_FOR_TASK_TOKEN,
      Parameters: {
        FunctionName: this.arns['request-review'],
        Payload: { ...this.stageParameters(), 'taskToken.$': '$$.Task.Token' },
      },
      ResultPath: '$.review',
      HeartbeatSeconds: this.policy.reviewTimeoutSeconds,
      TimeoutSeconds: this.policy.reviewMaxSeconds,
      Retry: lambdaRetries,
      Catch: [
        {
          ErrorEquals: ['States.HeartbeatTimeout', 'States.Timeout'],
          ResultPath: '$.error',
          Next: task('mark-timed-out'),
        },
        catchAll(task('mark-failed')),
      ],
      Next: task('apply-review'),
    };
  }

  private reviewOutcome(): AslChoiceState {
    return {
      Type: 'Choice',
      Choices: [
        { Variable: '$.result.state', StringEquals: 'validated', Next: task('compare') },
        { Variable: '$.result.state', StringEquals: 'rejected', Next: Outcome.reviewRejected },
      ],
      Default: Outcome.unroutable,
    };
  }

  private markFailed(): AslTaskState {
    return {
      Type: 'Task',
      Comment: 'Records the error and decides: retry at failedAtStep after a backoff, reject, or halt.',
      Resource: this.arns['mark-failed'],
      Parameters: { ...this.stageParameters(), 'error.$': '$.error' },
      ResultPath: '$.recovery',
      TimeoutSeconds: this.policy.stageTimeoutSeconds,
      Retry: bookkeepingRetries,
      Catch: [catchAll(Outcome.processingHalted)],
      Next: 'Recover',
    };
  }

  private recover(): AslChoiceState {
    return {
      Type: 'Choice',
      Choices: [
        { Variable: '$.recovery.decision', StringEquals: 'retry', Next: 'BackoffWait' },
        { Variable: '$.recovery.decision', StringEquals: 'reject', Next: task('mark-rejected') },
        { Variable: '$.recovery.decision', StringEquals: 'settled', Next: 'Settled' },
      ],
      Default: Outcome.processingHalted,
    };
  }

  /** A stage erred after its last write: end in the outcome the ledger already shows. */
  private settled(): AslChoiceState {
    const outcomes = [
      Outcome.completed,
      Outcome.reviewRejected,
      Outcome.cancelled,
      Outcome.processingFailed,
      Outcome.reviewTimedOut,
    ];
    return {
      Type: 'Choice',
      Choices: outcomes.map((o) => ({ Variable: '$.recovery.outcome', StringEquals: o, Next: o })),
      Default: Outcome.processingHalted,
    };
  }

  /** mark-rejected and mark-timed-out: record the terminal state, then end in its Fail state. */
  private terminalBookkeeping(name: Stage, outcome: string): AslTaskState {
    return {
      Type: 'Task',
      Resource: this.arns[name],
      Parameters: { ...this.stageParameters(), 'error.$': '$.error' },
      ResultPath: '$.result',
      TimeoutSeconds: this.policy.stageTimeoutSeconds,
      Retry: bookkeepingRetries,
      Catch: [catchAll(Outcome.processingHalted)],
      Next: outcome,
    };
  }
}

/**
 * Builds the Docket state machine definition: a pure function of the stage ARNs and the policy.
 * CDK deploys its output with the real ARNs; the local runtime runs it with local ones.
 */
export const buildDefinition = (arns: StageArns, policy: WorkflowPolicyInput = {}): AslDefinition =>
  new DefinitionBuilder(arns, resolvePolicy(policy)).build();

/** Placeholder ARNs for a region/account; handy for tests and for printing the definition. */
export const exampleStageArns = (
  region = 'us-east-1',
  account = '123456789012',
  prefix = 'docket',
): StageArns =>
  Object.fromEntries(
    (Object.keys(STAGES) as Stage[]).map((stage) => [
      stage,
      `arn:aws:lambda:${region}:${account}:function:${prefix}-${stage}`,
    ]),
  ) as StageArns;
