import {
  GuardRejectedError,
  IllegalTransitionError,
  InvalidRetryTargetError,
  MissingGuardContextError,
  type TransitionError,
} from './errors.js';
import type { WorkflowEvent } from './events.js';
import { GUARDS, type GuardContext } from './guards.js';
import type { WorkflowState } from './states.js';
import {
  FAILED_STEP,
  OFF_MACHINE_EVENTS,
  RETRYABLE_STATES,
  TRANSITIONS,
  type TransitionRow,
} from './transitions.js';

/** What `transition()` returns: the next state and the row that allowed it, or a typed error. */
export type TransitionResult =
  | {
      readonly ok: true;
      readonly from: WorkflowState;
      readonly to: WorkflowState;
      readonly row: TransitionRow;
    }
  | { readonly ok: false; readonly error: TransitionError };

/** Rows that leave `state`, in table order. */
export const transitionsFrom = (state: WorkflowState): readonly TransitionRow[] =>
  TRANSITIONS.filter((row) => row.from === state);

/** Events that may be sent in `state` (guards not evaluated). */
export const eventsFrom = (state: WorkflowState): readonly WorkflowEvent[] => [
  ...new Set(transitionsFrom(state).map((row) => row.event)),
];

const missingFor = (row: TransitionRow, context: GuardContext): MissingGuardContextError | undefined => {
  if (!row.guard) return undefined;
  const missing = GUARDS[row.guard].needs.filter((key) => context[key] === undefined);
  return missing.length > 0 ? new MissingGuardContextError(row.guard, missing) : undefined;
};

const guardHolds = (row: TransitionRow, context: GuardContext): boolean =>
  !row.guard || GUARDS[row.guard].test(context as Required<GuardContext>);

const resolveTarget = (
  row: TransitionRow,
  context: GuardContext,
): WorkflowState | InvalidRetryTargetError => {
  if (row.to !== FAILED_STEP) return row.to;
  const target = context.failedAtStep;
  return target !== undefined && RETRYABLE_STATES.includes(target)
    ? target
    : new InvalidRetryTargetError(target, RETRYABLE_STATES);
};

/**
 * Applies `event` to `state`. Pure: the same arguments always give the same result, and nothing
 * is read or written. Rows sharing `from` and `event` are tried in table order; the first whose
 * guard holds wins.
 */
export const transition = (
  state: WorkflowState,
  event: WorkflowEvent,
  context: GuardContext = {},
): TransitionResult => {
  const candidates = transitionsFrom(state).filter((row) => row.event === event);
  if (candidates.length === 0) {
    return { ok: false, error: new IllegalTransitionError(state, event, transitionsFrom(state)) };
  }
  for (const row of candidates) {
    const missing = missingFor(row, context);
    if (missing) return { ok: false, error: missing };
    if (!guardHolds(row, context)) continue;
    const to = resolveTarget(row, context);
    if (to instanceof InvalidRetryTargetError) return { ok: false, error: to };
    return { ok: true, from: state, to, row };
  }
  const guards = candidates.flatMap((row) => (row.guard ? [row.guard] : []));
  return {
    ok: false,
    error: new GuardRejectedError(state, event, guards, JSON.stringify(context)),
  };
};

/**
 * True when `(from, to, event)` is a row of the table, reading the `retry` row's symbolic target
 * as any state that can fail. Used by `ledger verify` on recorded history, where guards have
 * already been evaluated.
 */
export const isTableTransition = (from: WorkflowState, to: WorkflowState, event: WorkflowEvent): boolean =>
  TRANSITIONS.some(
    (row) =>
      row.from === from &&
      row.event === event &&
      (row.to === to || (row.to === FAILED_STEP && RETRYABLE_STATES.includes(to))),
  );

/**
 * The event of the table row that leads from `from` to `to`, if one does (the off-machine events
 * `import` and `erase` aside): how `docket ledger import` tells a historical step the table
 * allows from one it does not.
 */
export const tableEventFor = (from: WorkflowState, to: WorkflowState): WorkflowEvent | undefined =>
  TRANSITIONS.find(
    (row) =>
      row.from === from &&
      !OFF_MACHINE_EVENTS.includes(row.event) &&
      (row.to === to || (row.to === FAILED_STEP && RETRYABLE_STATES.includes(to))),
  )?.event;
