/**
 * The events that move a workflow between states. Each is named for what happened, so the
 * transition log reads as a history ("parsed", "approve", "retry"), not as a list of targets.
 */
export const WorkflowEvent = {
  /** The parse stage picked the document up. */
  start_parse: 'start_parse',
  /** Text was extracted from every page. */
  parsed: 'parsed',
  /** Fields were extracted and classified. */
  extracted: 'extracted',
  /** Validation finished; guards decide between auto-approve and review. */
  validation_completed: 'validation_completed',
  /** A reviewer approved, with or without corrections. */
  approve: 'approve',
  /** A reviewer rejected the document. */
  reject: 'reject',
  /** Nobody acted on the review before its heartbeat ran out. */
  review_timeout: 'review_timeout',
  /**
   * A review policy's approval step was decided and the policy asks for another (four-eyes, a
   * finance approval): the document stays in review, at the next step.
   */
  step_decided: 'step_decided',
  /** Nobody decided a policy's approval step in time: the review moved to its escalation step. */
  escalate: 'escalate',
  /** The compare stage picked the validated record up. */
  start_compare: 'start_compare',
  /** The comparison report was written. */
  compared: 'compared',
  /** A stage raised an error. */
  fail: 'fail',
  /** A failed stage is tried again where it failed. */
  retry: 'retry',
  /** The error is permanent or the retries are spent. */
  give_up: 'give_up',
  /** An operator stopped the workflow. */
  cancel: 'cancel',
  /**
   * A history imported from an older pipeline (`docket ledger import`): each of its state changes,
   * as it happened, and the last step into `legacy`. No stage sends it.
   */
  import: 'import',
  /**
   * The document's content was erased (`docket erase`): the workflow keeps its end state and its
   * log, the document, its artifacts and its extracted fields are gone.
   */
  erase: 'erase',
  /**
   * An operator ran a completed document again from parse (`docket reprocess`), with the current
   * extractor; fields a person set stay as they were set. Sent by the reprocess function, not by a
   * stage of the document's state machine.
   */
  reprocess: 'reprocess',
} as const;

/** One of the workflow events. */
export type WorkflowEvent = (typeof WorkflowEvent)[keyof typeof WorkflowEvent];

/** Narrows an unknown string to an event. */
export const isWorkflowEvent = (value: unknown): value is WorkflowEvent =>
  typeof value === 'string' && Object.hasOwn(WorkflowEvent, value);
