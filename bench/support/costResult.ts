/**
 * What `npm run cost` reports: both designs on both paths, the verdict, the child's worst case and
 * how operators keep their history without GetExecutionHistory. Pure: assembled from what the
 * bench measured (cost.ts) and from the definitions.
 */

import {
  type AslTaskState,
  buildDefinition,
  exampleStageArns,
  resolvePolicy,
  STAGES,
  type Stage,
  stageTaskTimeoutSeconds,
  type WorkflowPolicyInput,
} from '../../statemachine/index.js';
import {
  breakEvenChildSeconds,
  type DesignFigures,
  designFigures,
  EXPRESS_STATE_OVERHEAD_MS,
  EXPRESS_TASK_OVERHEAD_MS,
  type LogMeans,
  type SharedFigures,
} from './costFigures.js';
import { type DefinitionPath, definitionPath, type WalkableDefinition } from './definitionPath.js';
import {
  buildExpressChildDesign,
  CHILD_TASK_TIMEOUT_SECONDS,
  EXPRESS_MAX_SECONDS,
  type ExpressChildDesign,
} from './expressChildDesign.js';
import { childWorstCaseSeconds, taskWorstCaseSeconds } from './expressChildLimits.js';

/** The goal of issue #18 for the auto path, LLM and OCR excluded. */
export const AUTO_GOAL_PER_1000 = 0.15;

/** The two paths priced. */
export type PathName = 'auto' | 'review';

const AUTO = { Ingest: { '$.duplicate': false }, Validate: { '$.result.state': 'validated' } };
const REVIEW = {
  Ingest: { '$.duplicate': false },
  Validate: { '$.result.state': 'review_required' },
  ApplyReview: { '$.result.state': 'validated' },
};

/** Today's definition walked along each path. */
export const todayPaths = (definition: WalkableDefinition): Record<PathName, DefinitionPath> => ({
  auto: definitionPath(definition, {}, AUTO),
  review: definitionPath(definition, {}, REVIEW),
});

/** The nested design walked along each path: the parent's transitions and the child's states. */
export const nestedPaths = (
  design: ExpressChildDesign,
): Record<PathName, { parent: DefinitionPath; child: DefinitionPath }> => ({
  auto: {
    parent: definitionPath(design.parent, {}, { Automatic: { '$.next': 'Completed' } }),
    child: definitionPath(design.child, {}, AUTO),
  },
  review: {
    parent: definitionPath(
      design.parent,
      {},
      { ...REVIEW, Automatic: { '$.next': STAGES['schedule-review'].task } },
    ),
    child: definitionPath(design.child, {}, REVIEW),
  },
});

/** What the bench measured, as cost.ts hands it over. */
export interface CostMeasurements {
  policy: WorkflowPolicyInput;
  stageOfTask: Record<string, Stage>;
  documents: (path: PathName) => Record<string, number>;
  shared: (path: PathName) => SharedFigures;
  /** Mean measured ms of one stage on one path. */
  stageMs: (path: PathName, stage: Stage) => number;
  logs: (design: 'today' | 'nested', path: PathName) => LogMeans;
  childDefinitionBytes: number;
}

/** The segment's worst case, with today's Task settings and with the bounded child's. */
export const worstCase = (policy: WorkflowPolicyInput = {}) => {
  const today = buildDefinition(exampleStageArns(), policy);
  const segment = ['ingest', 'parse', 'extract', 'validate', 'compare'] as const;
  const perTask = Object.fromEntries(
    segment.map((stage) => [stage, taskWorstCaseSeconds(today.States[STAGES[stage].task] as AslTaskState)]),
  );
  const bounded = childWorstCaseSeconds(
    buildExpressChildDesign(exampleStageArns(), policy).child,
    EXPRESS_STATE_OVERHEAD_MS / 1000,
  );
  const todaySeconds = Object.values(perTask).reduce((a, b) => a + b, 0);
  return {
    expressMaxSeconds: EXPRESS_MAX_SECONDS,
    todaysSettings: {
      seconds: todaySeconds,
      fits: todaySeconds <= EXPRESS_MAX_SECONDS,
      perTask,
      why: `each Task may run ${stageTaskTimeoutSeconds(resolvePolicy(policy))} s (stageTimeoutSeconds ${resolvePolicy(policy).stageTimeoutSeconds} + 30 s margin) and is retried in place up to 15 more times, Ingest 19 (throttling alone: 10 tries, ~25 min)`,
    },
    boundedChild: {
      childTaskTimeoutSeconds: CHILD_TASK_TIMEOUT_SECONDS,
      seconds: bounded,
      fits: bounded <= EXPRESS_MAX_SECONDS,
    },
    mustBound: [
      `each child Task's TimeoutSeconds (${CHILD_TASK_TIMEOUT_SECONDS} s) and so each child stage function's timeout (<= ${CHILD_TASK_TIMEOUT_SECONDS - 30} s, not the shared stageTimeoutSeconds of 300 s): five Tasks must fit 300 s together`,
      'no Retry inside the child: Lambda faults and Task timeouts fail the child and the parent retries the whole segment in place (Standard, throttle schedule); completed stages return their recorded result, so a rerun redoes only the unfinished one',
      "the work itself: parse's size and page limits must keep the largest allowed PDF under the child stage timeout; OCR (tesseract or a Textract job) stays in the parent; an LLM call in extract needs its own client timeout below the Task's",
      "if 5 minutes are hit anyway, Express stops the child (States.Timeout) and the parent retries: a stage still running writes late, and loses the ledger's conditional write (seq lock), so nothing is doubled",
    ],
  };
};

/** How `docket history`, retry and the console work when the automatic segment runs as Express. */
export const OPERATIONS_WITHOUT_HISTORY = [
  "docket history: the ledger (the transition log the stages write) is unchanged and holds every transition with its time, actor and error; the parent's GetExecutionHistory still shows Automatic with the child's execution ARN, input and output; the child's own state events exist only in CloudWatch Logs (ALL with execution data), read by execution ARN with FilterLogEvents. At ERROR level only the child's failures are there, and the ledger alone tells the automatic part.",
  "retry: Express has no redrive, but nothing needs it. Segment faults are retried by the parent's Automatic Task; a workflow retry (mark-failed, backoff) re-enters Automatic with $.resumeAt; `docket retry`/resume starts a parent with {workflowId, resumeAt}, which the child routes; a failed parent is redriven from Automatic, starting a new child (the stages are idempotent, which Express's at-least-once start needs anyway).",
  "console: the parent's execution page shows Automatic and links the child; the console shows an Express execution's events only from its CloudWatch log (ALL with data), at ERROR only failed ones.",
  "to change on adoption: cli/workflowExecutions.ts reads the Ingest state's exit from the parent's history to tell which execution created a workflow; in the nested design that output is Automatic's (the child output carries workflowId and duplicate).",
];

/** Assembles the report. */
export const costResult = (m: CostMeasurements) => {
  const design = buildExpressChildDesign(exampleStageArns(), m.policy);
  const today = todayPaths(buildDefinition(exampleStageArns(), m.policy));
  const nested = nestedPaths(design);
  const perPath = (name: PathName) => {
    const shared = m.shared(name);
    const todayFigures: DesignFigures = designFigures(shared, today[name], m.logs('today', name));
    const childStageMs = nested[name].child.tasks.map((task) =>
      m.stageMs(name, m.stageOfTask[task] as Stage),
    );
    const nestedFigures = designFigures(shared, nested[name].parent, m.logs('nested', name), {
      path: nested[name].child,
      stageMs: childStageMs,
      definitionBytes: m.childDefinitionBytes,
    });
    return {
      documents: m.documents(name),
      shared,
      today: todayFigures,
      nested: nestedFigures,
      savingPer1000: todayFigures.totalWithLogs - nestedFigures.totalWithLogs,
      breakEvenChildSeconds: breakEvenChildSeconds(todayFigures, nestedFigures),
    };
  };
  const auto = perPath('auto');
  const review = perPath('review');
  return {
    policy: m.policy,
    assumptions: {
      expressTaskOverheadMs: EXPRESS_TASK_OVERHEAD_MS,
      expressStateOverheadMs: EXPRESS_STATE_OVERHEAD_MS,
      standardLogging: 'ALL without execution data (as WorkflowStateMachine deploys it)',
      syncTask:
        "the parent's startExecution.sync:2 Task is one billed transition (Standard bills each state entered and each retry; waiting on the child is none) and 4 log events (TaskScheduled, TaskStarted, TaskSubmitted, TaskSucceeded), measured with the rest",
      expressLogging:
        'ALL with execution data (what docket history would read); ALL without data and ERROR shown as variants',
    },
    auto,
    review,
    verdict: {
      goalPer1000: AUTO_GOAL_PER_1000,
      autoToday: auto.today.totalWithLogs,
      autoNested: auto.nested.totalWithLogs,
      autoNestedChildNoData: auto.nested.totalWithNoDataLogsInChild,
      autoNestedChildAtError: auto.nested.totalWithErrorLogsInChild,
      meetsGoal: auto.nested.totalWithLogs <= AUTO_GOAL_PER_1000,
      wins: auto.savingPer1000 > 0 && review.savingPer1000 > 0,
      savingPercent: (auto.savingPer1000 / auto.today.totalWithLogs) * 100,
      sameLedger: 'yes: the same stages write the same transitions; only the orchestration moves',
    },
    worstCase: worstCase(m.policy),
    operationsWithoutExecutionHistory: OPERATIONS_WITHOUT_HISTORY,
  };
};

/** The report `costResult` builds. */
export type CostResult = ReturnType<typeof costResult>;
