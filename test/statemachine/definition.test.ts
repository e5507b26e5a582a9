import aslValidator from 'asl-validator';
import { describe, expect, it } from 'vitest';
import { isRetryableErrorName } from '../../lambdas/shared/errorCatalog.js';
import {
  type AslTaskState,
  BOOKKEEPING_PERMANENT_ERRORS,
  buildDefinition,
  exampleStageArns,
  INGEST_PERMANENT_ERRORS,
  LAMBDA_SERVICE_ERRORS,
  LAMBDA_THROTTLE_ERRORS,
  LAMBDA_UNKNOWN_ERRORS,
  OFF_MACHINE_EVENTS,
  Outcome,
  POLICY_EVENTS,
  RESUME_STAGE,
  REVIEW_WINDOW,
  STAGES,
  TASK_TIMEOUT_MARGIN_SECONDS,
  TRANSITIONS,
  WAIT_FOR_TASK_TOKEN,
  type WorkflowState,
} from '../../statemachine/index.js';
import { allStarts, walkDefinition } from './aslWalker.js';

const arns = exampleStageArns();
const tasks = (definition: ReturnType<typeof buildDefinition>) =>
  Object.entries(definition.States).filter((e): e is [string, AslTaskState] => e[1].Type === 'Task');

describe('buildDefinition', () => {
  it('produces a definition asl-validator accepts', () => {
    // Act
    const definition = buildDefinition(arns);
    const { isValid, errorsText } = aslValidator(definition as never);

    // Assess
    expect(errorsText('\n')).toBe('');
    expect(isValid).toBe(true);
  });

  it('uses JSONPath only, as the local engine ignores JSONata', () => {
    const text = JSON.stringify(buildDefinition(arns));
    expect(text).not.toContain('QueryLanguage');
    expect(text).not.toContain('{%');
  });

  it('gives every Task an explicit timeout, the Lambda throttle and service retriers first, and a Catch', () => {
    for (const [name, task] of tasks(buildDefinition(arns, { stageTimeoutSeconds: 120 }))) {
      expect(task.TimeoutSeconds, name).toBeGreaterThan(0);
      expect(task.Retry?.[0], name).toMatchObject({
        ErrorEquals: LAMBDA_THROTTLE_ERRORS,
        MaxDelaySeconds: 300,
        JitterStrategy: 'FULL',
      });
      // Long enough to drain a burst: a throttled document must not use up its workflow retries.
      expect(task.Retry?.[0]?.MaxAttempts, name).toBeGreaterThanOrEqual(8);
      expect(task.Retry?.[1]?.ErrorEquals, name).toEqual(LAMBDA_SERVICE_ERRORS);
      expect(task.Retry?.[1]?.JitterStrategy, name).toBe('FULL');
      expect(task.Retry?.[2]?.ErrorEquals, name).toEqual(LAMBDA_UNKNOWN_ERRORS);
      expect(
        task.Catch?.some((c) => c.ErrorEquals.includes('States.ALL')),
        name,
      ).toBe(true);
    }
  });

  it('waits for the reviewer on a task token, its heartbeat computed by ScheduleReview before it starts', () => {
    // Act
    const definition = buildDefinition(arns, { reviewTimeoutSeconds: 7200, reviewMaxSeconds: 86_400 });
    const schedule = definition.States[STAGES['schedule-review'].task] as AslTaskState;
    const review = definition.States[STAGES['request-review'].task] as AslTaskState;

    // Assess: the heartbeat is read from the state input, where ScheduleReview put it.
    expect(schedule).toMatchObject({ Resource: arns['schedule-review'], ResultPath: REVIEW_WINDOW });
    expect(schedule.Next).toBe('ReviewWindow');
    expect(definition.States.ReviewWindow).toMatchObject({
      Choices: [{ Variable: `${REVIEW_WINDOW}.expired`, BooleanEquals: true, Next: 'ReviewExpired' }],
      Default: STAGES['request-review'].task,
    });
    expect(definition.States.ReviewExpired).toMatchObject({
      Type: 'Pass',
      ResultPath: '$.error',
      Next: STAGES['mark-timed-out'].task,
    });
    expect(review.Resource).toBe(WAIT_FOR_TASK_TOKEN);
    expect(review.HeartbeatSeconds).toBeUndefined();
    expect(review.HeartbeatSecondsPath).toBe(`${REVIEW_WINDOW}.heartbeatSeconds`);
    expect(review.TimeoutSeconds).toBe(86_400);
    expect(review.Parameters).toMatchObject({
      FunctionName: arns['request-review'],
      Payload: {
        'taskToken.$': '$$.Task.Token',
        'workflowId.$': '$.workflowId',
        'heartbeatSeconds.$': `${REVIEW_WINDOW}.heartbeatSeconds`,
        'enteredAt.$': '$$.State.EnteredTime',
      },
    });
    expect(review.Catch?.[0]).toMatchObject({
      ErrorEquals: ['States.HeartbeatTimeout', 'States.Timeout'],
      Next: STAGES['mark-timed-out'].task,
    });
  });

  it('gives every stage Task its function timeout plus the cold-start margin', () => {
    // Act
    const definition = buildDefinition(arns, { stageTimeoutSeconds: 120 });

    // Assess
    for (const [name, task] of tasks(definition)) {
      if (task.Resource === WAIT_FOR_TASK_TOKEN) continue;
      expect(task.TimeoutSeconds, name).toBe(120 + TASK_TIMEOUT_MARGIN_SECONDS);
    }
  });

  it('backs off with SecondsPath and routes the retry on failedAtStep', () => {
    const definition = buildDefinition(arns);
    expect(definition.States.BackoffWait).toEqual({
      Type: 'Wait',
      SecondsPath: '$.recovery.waitSeconds',
      Next: 'RetryRouter',
    });
    const router = definition.States.RetryRouter;
    expect(router?.Type).toBe('Choice');
    if (router?.Type === 'Choice') {
      expect(router.Choices.map((c) => ('StringEquals' in c ? c.StringEquals : undefined))).toEqual(
        Object.keys(RESUME_STAGE),
      );
    }
  });

  it('hands apply-review the decision the review Task returned', () => {
    const apply = buildDefinition(arns).States[STAGES['apply-review'].task] as AslTaskState;
    expect(apply.Parameters).toMatchObject({ 'review.$': '$.review', 'workflowId.$': '$.workflowId' });
  });

  it('retries ingest on transient faults only: there is no workflow yet to record a failure on', () => {
    const ingest = buildDefinition(arns).States[STAGES.ingest.task] as AslTaskState;
    expect(ingest.Retry?.map((r) => [r.ErrorEquals, r.MaxAttempts])).toEqual([
      [LAMBDA_THROTTLE_ERRORS, 10],
      [LAMBDA_SERVICE_ERRORS, 3],
      [LAMBDA_UNKNOWN_ERRORS, 2],
      [[...INGEST_PERMANENT_ERRORS], 0],
      [['States.ALL'], 4],
    ]);
    for (const name of INGEST_PERMANENT_ERRORS) expect(isRetryableErrorName(name), name).toBe(false);
  });

  it('retries the bookkeeping stages on transient faults, so a DynamoDB blip does not halt a workflow', () => {
    // Prepare
    const definition = buildDefinition(arns);
    const bookkeeping = (['mark-failed', 'mark-rejected', 'mark-timed-out'] as const).map(
      (stage) => [stage, definition.States[STAGES[stage].task] as AslTaskState] as const,
    );
    // Assess
    for (const [stage, task] of bookkeeping) {
      expect(
        task.Retry?.map((r) => [r.ErrorEquals, r.MaxAttempts]),
        stage,
      ).toEqual([
        [LAMBDA_THROTTLE_ERRORS, 10],
        [LAMBDA_SERVICE_ERRORS, 3],
        [LAMBDA_UNKNOWN_ERRORS, 2],
        [[...BOOKKEEPING_PERMANENT_ERRORS], 0],
        [['States.ALL'], 3],
      ]);
    }
    for (const name of BOOKKEEPING_PERMANENT_ERRORS) expect(isRetryableErrorName(name), name).toBe(false);
    // The processing stages do not: their failures are counted by mark-failed instead.
    expect((definition.States[STAGES.parse.task] as AslTaskState).Retry).toHaveLength(3);
  });

  it('passes the policy to the stages so AWS and local decide alike', () => {
    const definition = buildDefinition(arns, {
      confidenceThreshold: 65,
      maxRetries: 2,
      backoffBaseSeconds: 1,
    });
    const validate = definition.States[STAGES.validate.task] as AslTaskState;
    expect(validate.Parameters?.policy).toMatchObject({
      confidenceThreshold: 65,
      maxRetries: 2,
      backoffBaseSeconds: 1,
    });
  });

  it('refuses a policy whose heartbeat does not fit inside the cap, naming the key', () => {
    expect(() => buildDefinition(arns, { reviewTimeoutSeconds: 100, reviewMaxSeconds: 50 })).toThrow(
      /reviewMaxSeconds/,
    );
    expect(() => buildDefinition(arns, { maxRetries: -1 })).toThrow(/maxRetries/);
  });
});

describe('every path of the ASL against the transition table', () => {
  const definition = buildDefinition(arns);
  const resumable = Object.keys(RESUME_STAGE) as WorkflowState[];
  const report = walkDefinition(definition, arns, [
    ...allStarts(resumable),
    { at: 'Start', state: 'completed', payload: { resumeAt: 'completed' } },
  ]);

  it('never reaches a stage in a state it cannot start from, nor one with no row to apply', () => {
    expect(report.violations).toEqual([]);
    expect(report.visited).toBeGreaterThan(50);
  });

  it('reaches the review wait and its expired shortcut', () => {
    for (const state of [STAGES['schedule-review'].task, 'ReviewWindow', 'ReviewExpired']) {
      expect(report.statesReached.has(state), state).toBe(true);
    }
    expect(report.statesReached.has(STAGES['request-review'].task)).toBe(true);
  });

  it('sends a scan from Parse to Ocr, polls a running job through OcrWait, and goes on to Extract', () => {
    // Assess: every OCR state is reached, Ocr is handed its previous result, and both exits exist
    for (const state of ['AfterParse', STAGES.ocr.task, 'AfterOcr', 'OcrWait']) {
      expect(report.statesReached.has(state), state).toBe(true);
    }
    const ocr = definition.States[STAGES.ocr.task] as AslTaskState;
    expect(ocr.Parameters).toMatchObject({ 'previous.$': '$.result', 'workflowId.$': '$.workflowId' });
    expect(definition.States.AfterOcr).toMatchObject({
      Choices: [{ Variable: '$.result.ocrStatus', StringEquals: 'running', Next: 'OcrWait' }],
      Default: STAGES.extract.task,
    });
  });

  it('exercises every row of the table, cancels included, and none of the off-machine ones (import, erase)', () => {
    const offMachine = (r: (typeof TRANSITIONS)[number]) => OFF_MACHINE_EVENTS.includes(r.event);
    // A review policy's rows are taken by its compiled states (test/e2e/reviewPolicies.test.ts).
    const policyRow = (r: (typeof TRANSITIONS)[number]) => POLICY_EVENTS.includes(r.event);
    const unused = TRANSITIONS.filter((r) => !report.usedRows.has(r) && !offMachine(r) && !policyRow(r));
    expect(unused).toEqual([]);
    expect([...report.usedRows].filter(offMachine)).toEqual([]);
  });

  it('ends each outcome state only with the workflow state it stands for', () => {
    const expected: Record<string, (s: WorkflowState | null, lastEvent?: string) => boolean> = {
      [Outcome.completed]: (s) => s === 'completed',
      [Outcome.reviewRejected]: (s, e) => s === 'rejected' && e === 'reject',
      [Outcome.processingFailed]: (s, e) => s === 'rejected' && e === 'give_up',
      [Outcome.reviewTimedOut]: (s) => s === 'timed_out',
      // Halted means no failure could be recorded (mark-failed or a bookkeeping stage erred too):
      // the workflow keeps whatever state its log shows, so any recorded state is consistent.
      [Outcome.processingHalted]: (s) => s !== null,
      [Outcome.cancelled]: (s) => s === 'cancelled',
      [Outcome.duplicate]: (s) => s === 'pending',
      [Outcome.quarantined]: (s) => s === null,
      [Outcome.ingestFailed]: (s) => s === null,
      [Outcome.unroutable]: (s) => s === 'completed',
    };
    for (const end of report.ends) {
      const check = expected[end.outcome];
      expect(check, `unexpected outcome ${end.outcome}`).toBeDefined();
      expect(
        check?.(end.state, end.lastEvent),
        `${end.outcome} reached in ${end.state} from ${end.start}`,
      ).toBe(true);
    }
    expect(new Set(report.ends.map((e) => e.outcome))).toEqual(new Set(Object.values(Outcome)));
  });

  it('catches drift: a definition that skips validation is reported', () => {
    // Prepare: a hand-broken copy where Extract jumps straight to Compare.
    const broken = structuredClone(definition);
    (broken.States[STAGES.extract.task] as AslTaskState).Next = STAGES.compare.task;

    // Act
    const brokenReport = walkDefinition(broken, arns, allStarts([]));

    // Assess
    expect(brokenReport.violations.some((v) => v.startsWith('Compare reached in state validating'))).toBe(
      true,
    );
  });
});
