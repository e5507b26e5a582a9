import {
  type AslDefinition,
  type AslTaskState,
  decideRecovery,
  FAILED_STEP,
  POLICY_EVENTS,
  RETRYABLE_STATES,
  STAGES,
  type Stage,
  type StageArns,
  TRANSITIONS,
  type TransitionRow,
  type WorkflowEvent,
  type WorkflowState,
} from '../../statemachine/index.js';

/** The slice of the execution payload that Choice states read. */
interface Payload {
  resumeAt?: string;
  duplicate?: boolean;
  quarantined?: boolean;
  resultState?: string;
  recoveryDecision?: string;
  recoveryResumeAt?: string;
  recoveryOutcome?: string;
  needsOcr?: boolean;
  ocrStatus?: string;
  reviewExpired?: boolean;
}

/** One point of an abstract execution: where the ASL is and what the workflow item holds. */
interface Config {
  at: string;
  state: WorkflowState | null;
  failedAt?: WorkflowState;
  lastEvent?: WorkflowEvent;
  payload: Payload;
}

/** An end of a path: which outcome state it reached and the workflow state it left behind. */
export interface PathEnd {
  outcome: string;
  state: WorkflowState | null;
  lastEvent?: WorkflowEvent;
  start: string;
}

export interface WalkReport {
  ends: PathEnd[];
  usedRows: Set<TransitionRow>;
  violations: string[];
  visited: number;
  /** Names of the ASL states some path reached. */
  statesReached: Set<string>;
}

const CHOICE_VARIABLES: Record<string, keyof Payload> = {
  '$.resumeAt': 'resumeAt',
  '$.duplicate': 'duplicate',
  '$.quarantined': 'quarantined',
  '$.result.state': 'resultState',
  '$.recovery.decision': 'recoveryDecision',
  '$.recovery.resumeAt': 'recoveryResumeAt',
  '$.recovery.outcome': 'recoveryOutcome',
  '$.result.needsOcr': 'needsOcr',
  '$.result.ocrStatus': 'ocrStatus',
  '$.reviewWindow.expired': 'reviewExpired',
};

/**
 * Results a stage may return without reaching the end of its rows: parse hands a scan to OCR in
 * `parsing_pdf`, and OCR reports a Textract job still running in the same state. The walk adds
 * these endings wherever a run passes through that state.
 */
const EARLY_RESULTS: Partial<Record<Stage, { state: WorkflowState; payload: Payload }[]>> = {
  parse: [{ state: 'parsing_pdf', payload: { needsOcr: true } }],
  ocr: [{ state: 'parsing_pdf', payload: { ocrStatus: 'running' } }],
};

const key = (c: Config): string => JSON.stringify(c);

/**
 * Walks every path of the definition with an abstract workflow item, replaying the events each
 * stage declares in `STAGES` through the rows of the transition table. A path that reaches a
 * stage in a state the stage cannot start from, or a stage with no legal move, is a violation:
 * the ASL and the table would have drifted apart.
 */
export const walkDefinition = (definition: AslDefinition, arns: StageArns, starts: Config[]): WalkReport => {
  const stageByArn = new Map(Object.entries(arns).map(([stage, arn]) => [arn, stage as Stage]));
  const usedRows = new Set<TransitionRow>();
  const violations: string[] = [];
  const ends: PathEnd[] = [];
  const seen = new Set<string>();
  const statesReached = new Set<string>();

  // The walker models the definition without review policies: their rows are never taken there.
  const rowsFor = (stage: Stage, c: Config): { row: TransitionRow; to: WorkflowState }[] =>
    TRANSITIONS.filter(
      (r) =>
        r.from === c.state &&
        (STAGES[stage].events as readonly string[]).includes(r.event) &&
        !POLICY_EVENTS.includes(r.event),
    )
      .map((row) => ({ row, to: row.to === FAILED_STEP ? c.failedAt : row.to }))
      .filter((x): x is { row: TransitionRow; to: WorkflowState } => x.to !== undefined);

  /**
   * Every sequence of state changes the stage can make from `c`, with each intermediate point. A
   * row that keeps the state (a review policy's `step_decided`, `escalate`) is taken once per run:
   * taking it again reaches the same point.
   */
  const runs = (stage: Stage, c: Config, loopsTaken: ReadonlySet<TransitionRow> = new Set()): Config[][] => {
    const next = rowsFor(stage, c).filter(({ row }) => !loopsTaken.has(row));
    if (next.length === 0) return [[c]];
    return next.flatMap(({ row, to }) => {
      usedRows.add(row);
      const after: Config = {
        ...c,
        state: to,
        lastEvent: row.event,
        failedAt: to === 'failed' ? (c.state ?? undefined) : c.failedAt,
      };
      const loops = row.from === row.to ? new Set([...loopsTaken, row]) : loopsTaken;
      return runs(stage, after, loops).map((rest) => [c, ...rest]);
    });
  };

  const catchTargets = (t: AslTaskState, errors: string[]): string[] =>
    (t.Catch ?? [])
      .filter((k) => k.ErrorEquals.some((e) => e === 'States.ALL' || errors.includes(e)))
      .map((k) => k.Next);

  const stepTask = (name: string, t: AslTaskState, c: Config): Config[] => {
    const arn = (t.Parameters?.FunctionName as string | undefined) ?? t.Resource;
    const stage = stageByArn.get(arn);
    if (!stage) {
      violations.push(`${name}: resource ${arn} is not a stage`);
      return [];
    }
    const entry = STAGES[stage].entry as readonly (WorkflowState | null)[];
    if (stage === 'ingest' ? c.state !== null : !entry.includes(c.state)) {
      violations.push(`${name} reached in state ${c.state}, outside its entry states [${entry.join(', ')}]`);
      return [];
    }
    const onError = (at: Config, errors = ['States.TaskFailed']): Config[] =>
      catchTargets(t, errors).map((next) => ({ ...at, at: next }));

    // An operator may cancel while the stage runs; its next write then fails on the table.
    const cancelRow = TRANSITIONS.find((r) => r.from === c.state && r.event === 'cancel');
    const cancelled: Config[] = [];
    if (cancelRow && stage !== 'ingest') {
      usedRows.add(cancelRow);
      cancelled.push(...onError({ ...c, state: 'cancelled', lastEvent: 'cancel' }));
    }

    if (stage === 'ingest') {
      return [
        { ...c, at: t.Next, state: 'pending', payload: { duplicate: false } },
        { ...c, at: t.Next, state: 'pending', payload: { duplicate: true } },
        // A quarantined upload: no workflow is created.
        { ...c, at: t.Next, state: null, payload: { quarantined: true } },
        ...onError(c),
      ];
    }
    if (stage === 'mark-failed') {
      const failed = rowsFor(stage, c);
      for (const { row } of failed) usedRows.add(row);
      const after: Config =
        failed[0] !== undefined
          ? { ...c, state: 'failed', failedAt: c.state ?? undefined, lastEvent: 'fail' }
          : c;
      const decisions = [true, false].flatMap((retryable) =>
        [0, 3].flatMap((retryCount) =>
          [1, 4].map((entryFailures) =>
            decideRecovery(
              {
                state: after.state as WorkflowState,
                failedAtStep: after.failedAt,
                retryable,
                retryCount,
                lastEvent: after.lastEvent,
                entryFailures,
              },
              { maxRetries: 3, backoffBaseSeconds: 10, confidenceThreshold: 80, reviewTimeoutSeconds: 60 },
            ),
          ),
        ),
      );
      const retryRow = TRANSITIONS.find((r) => r.from === 'failed' && r.event === 'retry') as TransitionRow;
      const outcomes = decisions.map((d) => {
        // A retry decided in state failed is applied by mark-failed itself, before the backoff.
        const retried = d.decision === 'retry' && after.state === 'failed';
        if (retried) usedRows.add(retryRow);
        return {
          ...after,
          ...(retried ? { state: d.resumeAt, lastEvent: 'retry' as const } : {}),
          at: t.Next,
          payload: {
            ...after.payload,
            recoveryDecision: d.decision,
            recoveryResumeAt: d.decision === 'retry' ? d.resumeAt : undefined,
            recoveryOutcome: d.decision === 'settled' ? d.outcome : undefined,
          },
        };
      });
      return [...outcomes, ...onError(c), ...cancelled];
    }
    if (stage === 'schedule-review') {
      // No transition: it finds the review's time left, or none (expired), or fails.
      return [
        { ...c, at: t.Next, payload: { ...c.payload, reviewExpired: false } },
        { ...c, at: t.Next, payload: { ...c.payload, reviewExpired: true } },
        ...onError(c),
        ...cancelled,
      ];
    }
    if (stage === 'request-review') {
      return [
        { ...c, at: t.Next },
        ...onError(c, ['States.HeartbeatTimeout']),
        ...onError(c, ['States.Timeout']),
        ...onError(c),
        ...cancelled,
      ];
    }

    const out: Config[] = [...cancelled];
    // A Task's result replaces `$.result`: what the previous Task returned is gone.
    const fresh = (payload: Payload): Payload => ({ ...payload, needsOcr: undefined, ocrStatus: undefined });
    for (const run of runs(stage, c)) {
      for (const early of EARLY_RESULTS[stage] ?? []) {
        for (const point of run.filter((p) => p.state === early.state)) {
          out.push({
            ...point,
            at: t.Next,
            payload: { ...fresh(point.payload), ...early.payload, resultState: early.state },
          });
        }
      }
      const last = run[run.length - 1] as Config;
      if (run.length === 1) {
        violations.push(
          `${name} reached in state ${c.state} (failedAt ${c.failedAt}) but has no row to apply`,
        );
        continue;
      }
      out.push({
        ...last,
        at: t.Next,
        payload: { ...fresh(last.payload), resultState: last.state ?? undefined },
      });
      for (const point of run) out.push(...onError(point));
    }
    return out;
  };

  const step = (c: Config): Config[] => {
    const s = definition.States[c.at];
    if (!s) {
      violations.push(`transition to unknown state ${c.at}`);
      return [];
    }
    switch (s.Type) {
      case 'Choice': {
        for (const rule of s.Choices) {
          if (!('Variable' in rule)) {
            violations.push(`${c.at}: the walker does not model compound rules (And/Or/Not)`);
            return [];
          }
          const field = CHOICE_VARIABLES[rule.Variable];
          if (!field) {
            violations.push(`${c.at}: the walker does not model ${rule.Variable}`);
            return [];
          }
          const value = c.payload[field];
          const match =
            rule.IsPresent !== undefined
              ? (value !== undefined) === rule.IsPresent
              : rule.StringEquals !== undefined
                ? value === rule.StringEquals
                : value === rule.BooleanEquals;
          if (match) return [{ ...c, at: rule.Next }];
        }
        return [{ ...c, at: s.Default }];
      }
      case 'Wait':
      case 'Pass':
        return [{ ...c, at: s.Next }];
      case 'Task':
        return stepTask(c.at, s, c);
      default:
        ends.push({ outcome: c.at, state: c.state, lastEvent: c.lastEvent, start: '' });
        return [];
    }
  };

  for (const start of starts) {
    const startKey = JSON.stringify({ state: start.state, payload: start.payload, failedAt: start.failedAt });
    const queue: Config[] = [start];
    while (queue.length > 0) {
      const c = queue.pop() as Config;
      const k = key(c);
      if (seen.has(k)) continue;
      seen.add(k);
      statesReached.add(c.at);
      const before = ends.length;
      queue.push(...step(c));
      for (let i = before; i < ends.length; i++) (ends[i] as PathEnd).start = startKey;
    }
  }
  return { ends, usedRows, violations, visited: seen.size, statesReached };
};

/** Every way an execution can begin: an S3 event, or a resume at each resumable state. */
export const allStarts = (resumable: readonly WorkflowState[]): Config[] => [
  { at: 'Start', state: null, payload: {} },
  ...resumable.map((state): Config => ({ at: 'Start', state, payload: { resumeAt: state } })),
  ...RETRYABLE_STATES.map(
    (failedAt): Config => ({ at: 'Start', state: 'failed', failedAt, payload: { resumeAt: failedAt } }),
  ),
];
