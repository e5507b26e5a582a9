import type { WorkflowEvent } from './events.js';
import type { GuardName } from './guards.js';
import { ALL_STATES, isTerminal, type WorkflowState } from './states.js';

/**
 * Target of the `retry` row: the state recorded in `failedAtStep`, because a retry resumes the
 * step that failed, never the whole workflow. Kept symbolic so the table keeps one row per
 * logical transition.
 */
export const FAILED_STEP = '(failedAtStep)' as const;

/** One allowed transition: plain data, read by `transition()`, the ASL check and `ledger verify`. */
export interface TransitionRow {
  readonly from: WorkflowState;
  readonly to: WorkflowState | typeof FAILED_STEP;
  readonly event: WorkflowEvent;
  /** Named guard that must hold; rows that share `from` and `event` are told apart by guards. */
  readonly guard?: GuardName;
}

/** The 16 transitions of a document's life: the processing path, its failures, review and retry. */
const SEED_TRANSITIONS = [
  { from: 'pending', to: 'parsing_pdf', event: 'start_parse' },
  { from: 'parsing_pdf', to: 'extracting', event: 'parsed' },
  { from: 'parsing_pdf', to: 'failed', event: 'fail' },
  { from: 'extracting', to: 'validating', event: 'extracted' },
  { from: 'extracting', to: 'failed', event: 'fail' },
  { from: 'validating', to: 'validated', event: 'validation_completed', guard: 'canAutoApprove' },
  { from: 'validating', to: 'review_required', event: 'validation_completed', guard: 'needsReview' },
  { from: 'validating', to: 'failed', event: 'fail' },
  { from: 'review_required', to: 'validated', event: 'approve' },
  { from: 'review_required', to: 'rejected', event: 'reject' },
  { from: 'review_required', to: 'timed_out', event: 'review_timeout' },
  { from: 'validated', to: 'comparing', event: 'start_compare' },
  { from: 'comparing', to: 'completed', event: 'compared' },
  { from: 'comparing', to: 'failed', event: 'fail' },
  { from: 'failed', to: FAILED_STEP, event: 'retry', guard: 'retriesLeft' },
  { from: 'failed', to: 'rejected', event: 'give_up', guard: 'retriesExhausted' },
] as const satisfies readonly TransitionRow[];

/**
 * Review policies: a decided step that leads to another approval step, and a step nobody decided
 * that escalates. Both keep the document in review; the log entry names the steps.
 */
const POLICY_TRANSITIONS: readonly TransitionRow[] = [
  { from: 'review_required', to: 'review_required', event: 'step_decided' },
  { from: 'review_required', to: 'review_required', event: 'escalate' },
];

/**
 * Events a stage sends only under a review policy's compiled states (the built-in default review
 * never escalates or asks for a second step): the default definition's paths never take them.
 */
export const POLICY_EVENTS: readonly WorkflowEvent[] = ['step_decided', 'escalate'];

/** `cancel` from every non-terminal state: an operator can stop any document that is not finished. */
const CANCEL_TRANSITIONS: readonly TransitionRow[] = ALL_STATES.filter((s) => !isTerminal(s)).map((from) => ({
  from,
  to: 'cancelled',
  event: 'cancel',
}));

/**
 * `import` into `legacy` from every non-terminal state: the last step of an imported history
 * whose state maps to no Docket end state. (The imported steps before it are recorded as they
 * happened, also as `import`; `ledger verify` reads those as history, not as table rows.)
 */
const IMPORT_TRANSITIONS: readonly TransitionRow[] = ALL_STATES.filter((s) => !isTerminal(s)).map((from) => ({
  from,
  to: 'legacy',
  event: 'import',
}));

/** `erase` on every end state, which it keeps: the outcome stays true once the content is gone. */
const ERASE_TRANSITIONS: readonly TransitionRow[] = ALL_STATES.filter(isTerminal).map((from) => ({
  from,
  to: from,
  event: 'erase',
}));

/**
 * `reprocess` out of `completed`, back to the start of processing: the one way out of an end
 * state. The previous run's record stays readable (each run writes its artifacts under its own
 * key) and a record a person approved goes back to a person if it changes.
 */
const REPROCESS_TRANSITIONS: readonly TransitionRow[] = [
  { from: 'completed', to: 'parsing_pdf', event: 'reprocess' },
];

/**
 * Events no stage of the state machine sends: `docket ledger import` writes `import`, `docket
 * erase` writes `erase`, the reprocess function (a Distributed Map's item processor) writes
 * `reprocess`. The definition's paths never take their rows (a test proves it).
 */
export const OFF_MACHINE_EVENTS: readonly WorkflowEvent[] = ['import', 'erase', 'reprocess'];

/** The transition table: the only place that says which state changes exist. */
export const TRANSITIONS: readonly TransitionRow[] = Object.freeze([
  ...SEED_TRANSITIONS,
  ...POLICY_TRANSITIONS,
  ...CANCEL_TRANSITIONS,
  ...IMPORT_TRANSITIONS,
  ...ERASE_TRANSITIONS,
  ...REPROCESS_TRANSITIONS,
]);

/** States a stage can fail in; `retry` may only return to one of them. Derived from the table. */
export const RETRYABLE_STATES: readonly WorkflowState[] = TRANSITIONS.filter((r) => r.event === 'fail').map(
  (r) => r.from,
);
