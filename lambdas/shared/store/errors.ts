import { PermanentError, TransientError } from '../errors.js';

/**
 * No workflow with this id, or it belongs to another tenant: 404 either way, never 403, so an id
 * of another tenant's document reveals nothing about it.
 */
export class WorkflowNotFoundError extends PermanentError {
  override readonly name = 'WorkflowNotFound';
  constructor(readonly workflowId: string) {
    super(
      `Workflow ${workflowId} does not exist (or is not visible to this tenant). Check the id with \`docket ls\`.`,
    );
  }
}

/**
 * Another writer moved the workflow first and the requested event no longer applies. Retryable:
 * a caller that reloads may find its work done, or a different event to send.
 */
export class TransitionConflictError extends TransientError {
  override readonly name = 'TransitionConflict';
  constructor(
    readonly workflowId: string,
    readonly event: string,
    readonly nowState: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Workflow ${workflowId} moved to "${nowState}" while "${event}" was being applied; another writer won. ` +
        'Reload the workflow and decide again.',
      options,
    );
  }
}

/** Too many writers raced on one workflow for the retry budget of one transition call. */
export class TransitionContentionError extends TransientError {
  override readonly name = 'TransitionContention';
  constructor(
    readonly workflowId: string,
    attempts: number,
  ) {
    super(`Workflow ${workflowId}: gave up after ${attempts} attempts under contention; try again.`);
  }
}

/** A listing cursor that this store did not hand out for this listing (garbled, edited, another tenant's). */
export class InvalidCursorError extends PermanentError {
  override readonly name = 'InvalidCursor';
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `The cursor is not one this listing handed out (${reason}); start again without a cursor.`,
      options,
    );
  }
}

/** A non-transition update found the workflow in a state where it no longer applies. */
export class StaleWorkflowError extends PermanentError {
  override readonly name = 'StaleWorkflow';
  constructor(
    readonly workflowId: string,
    detail: string,
  ) {
    super(`Workflow ${workflowId}: ${detail}. Reload it; its state changed.`);
  }
}

/**
 * An attribute update named an attribute that only the store sets (`state`, `version`, the keys
 * and the indexes). `ItemPatch` makes this a type error; this is the same rule for a caller that
 * got past the types (a cast, plain JavaScript).
 */
export class ReservedAttributeError extends PermanentError {
  override readonly name = 'ReservedAttribute';
  constructor(readonly attributes: readonly string[]) {
    super(
      `${attributes.join(', ')} can only change through a transition (WorkflowStore.transition), ` +
        'never by an attribute update; send the event that makes the change instead.',
    );
  }
}

/**
 * A transition tried to carry an attribute its log entry may not hold: the log keeps what the
 * system decided (states, ids, counts, confidences), never what a document or a person said, so
 * erasing a document never has to rewrite the log. A programming error: the message says how to
 * write the attribute instead.
 */
export class UnloggableAttributeError extends PermanentError {
  override readonly name = 'UnloggableAttribute';
  constructor(readonly attributes: readonly string[]) {
    super(
      `${attributes.join(', ')} cannot be part of a transition: the transition log never holds document ` +
        'content or what a person wrote. Set it with WorkflowStore.update (StageRun.update) just before the ' +
        'transition; the item keeps it and erasure can remove it.',
    );
  }
}

/**
 * The next sequence number of a workflow's log is held by an entry that does not chain: it was
 * not written by the store (edited, forged). The store leaves it alone and flags the workflow;
 * an operator decides (`docket ledger verify` says what is wrong).
 */
export class LedgerTamperedError extends PermanentError {
  override readonly name = 'LedgerTampered';
  constructor(
    readonly workflowId: string,
    readonly seq: number,
    readonly reason: string,
  ) {
    super(
      `Workflow ${workflowId}: log entry ${seq} ${reason}; it was left alone and the workflow is flagged. ` +
        `Run \`docket ledger verify\` and check the entry before anything else moves this workflow.`,
    );
  }
}
