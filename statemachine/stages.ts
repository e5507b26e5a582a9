import type { WorkflowEvent } from './events.js';
import { ALL_STATES, type WorkflowState } from './states.js';

/**
 * The Lambda stages of the state machine, one function each. The value is the folder under lambdas/
 * and the function's logical name; `task` is the ASL state that calls it.
 */
export const Stage = {
  ingest: 'ingest',
  parse: 'parse',
  ocr: 'ocr',
  extract: 'extract',
  validate: 'validate',
  scheduleReview: 'schedule-review',
  requestReview: 'request-review',
  applyReview: 'apply-review',
  compare: 'compare',
  markFailed: 'mark-failed',
  markRejected: 'mark-rejected',
  markTimedOut: 'mark-timed-out',
} as const;

/** One of the stages the state machine invokes. */
export type Stage = (typeof Stage)[keyof typeof Stage];

/** What the state machine and the ledger need to know about a stage. */
export interface StageSpec {
  /** Name of the ASL Task state that invokes the stage. */
  readonly task: string;
  /** States the stage may be invoked in; the ASL must never reach it in any other. */
  readonly entry: readonly WorkflowState[];
  /**
   * Events the stage may apply, in the order it applies them. Handler code can only send these
   * (see `StageEvent`), and the ASL path check replays them, so code, ASL and table agree.
   */
  readonly events: readonly WorkflowEvent[];
}

/** Every stage of the state machine. */
export const STAGES = {
  ingest: { task: 'Ingest', entry: [], events: [] },
  parse: {
    task: 'Parse',
    entry: ['pending', 'parsing_pdf', 'failed'],
    events: ['start_parse', 'retry', 'parsed'],
  },
  // Reads scans and images parse handed on (`needsOcr`), and makes parse's `parsed` transition.
  ocr: { task: 'Ocr', entry: ['parsing_pdf'], events: ['parsed'] },
  extract: { task: 'Extract', entry: ['extracting', 'failed'], events: ['retry', 'extracted'] },
  validate: { task: 'Validate', entry: ['validating', 'failed'], events: ['retry', 'validation_completed'] },
  // Computes the review's heartbeat before the review Task starts (Step Functions fixes it then),
  // records it on the item; under a review policy it also logs an escalation into its step.
  'schedule-review': { task: 'ScheduleReview', entry: ['review_required'], events: ['escalate'] },
  'request-review': { task: 'RequestReview', entry: ['review_required'], events: [] },
  // Under a review policy a decision may lead to another approval step (`step_decided`).
  'apply-review': {
    task: 'ApplyReview',
    entry: ['review_required'],
    events: ['approve', 'reject', 'step_decided'],
  },
  compare: {
    task: 'Compare',
    entry: ['validated', 'comparing', 'failed'],
    events: ['start_compare', 'retry', 'compared'],
  },
  'mark-failed': {
    task: 'MarkFailed',
    // Any state: a stage can err before its first write or after its last.
    entry: ALL_STATES,
    events: ['fail', 'retry'],
  },
  'mark-rejected': { task: 'MarkRejected', entry: ['failed'], events: ['give_up'] },
  'mark-timed-out': { task: 'MarkTimedOut', entry: ['review_required'], events: ['review_timeout'] },
} as const satisfies Record<Stage, StageSpec>;

/** The events stage `S` may send; a handler typed with it cannot send another stage's event. */
export type StageEvent<S extends Stage> = (typeof STAGES)[S]['events'][number];

/**
 * Which stage picks a workflow up in each non-terminal state: the resume router at the start of
 * the definition and the retry router after a backoff both route with it.
 */
export const RESUME_STAGE = {
  pending: 'parse',
  parsing_pdf: 'parse',
  extracting: 'extract',
  validating: 'validate',
  review_required: 'schedule-review',
  validated: 'compare',
  comparing: 'compare',
} as const satisfies Partial<Record<WorkflowState, Stage>>;

/** A state a workflow can be resumed in. */
export type ResumableState = keyof typeof RESUME_STAGE;
