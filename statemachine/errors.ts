import type { WorkflowEvent } from './events.js';
import type { GuardName } from './guards.js';
import { isTerminal, type WorkflowState } from './states.js';
import type { TransitionRow } from './transitions.js';

const describeRows = (rows: readonly TransitionRow[]): string =>
  rows.map((r) => `${r.event} -> ${r.to}${r.guard ? ` [if ${r.guard}]` : ''}`).join(', ');

/**
 * No row of the transition table leaves `from` on `event`. The message lists what does exist, so
 * the caller can see whether it sent the wrong event or holds a stale state.
 */
export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransition';
  constructor(
    readonly from: WorkflowState,
    readonly event: WorkflowEvent,
    readonly allowed: readonly TransitionRow[],
  ) {
    const terminal = isTerminal(from);
    super(
      terminal
        ? `Cannot apply "${event}": "${from}" is terminal` +
            (allowed.length > 0
              ? `; the table allows only ${describeRows(allowed)}.`
              : ' and no event leaves it.')
        : `Cannot apply "${event}" in state "${from}". From "${from}" the table allows: ${describeRows(allowed)}. ` +
            'Send one of those events, or reload the workflow: another actor may have moved it.',
    );
  }
}

/** The event exists from this state, but no row's guard holds for the context given. */
export class GuardRejectedError extends Error {
  override readonly name = 'GuardRejected';
  constructor(
    readonly from: WorkflowState,
    readonly event: WorkflowEvent,
    readonly guards: readonly GuardName[],
    detail: string,
  ) {
    super(
      `"${event}" from "${from}" needs ${guards.join(' or ')} to hold, and none does (${detail}). ` +
        'Check the values passed as transition context.',
    );
  }
}

/** A guard needs a context value the caller did not pass. A programming error, never retried. */
export class MissingGuardContextError extends Error {
  override readonly name = 'MissingGuardContext';
  constructor(
    readonly guard: GuardName,
    readonly missing: readonly string[],
  ) {
    super(
      `Guard "${guard}" needs ${missing.join(', ')} in the transition context; pass them with the event.`,
    );
  }
}

/** `retry` was asked to return to a state that cannot fail, or `failedAtStep` is missing. */
export class InvalidRetryTargetError extends Error {
  override readonly name = 'InvalidRetryTarget';
  constructor(
    readonly failedAtStep: unknown,
    readonly retryable: readonly WorkflowState[],
  ) {
    super(
      `"retry" returns to the state recorded in failedAtStep, which must be one of ${retryable.join(', ')}; ` +
        `got ${JSON.stringify(failedAtStep)}. Record failedAtStep when the stage fails.`,
    );
  }
}

/** Any error `transition()` returns. */
export type TransitionError =
  | IllegalTransitionError
  | GuardRejectedError
  | MissingGuardContextError
  | InvalidRetryTargetError;
