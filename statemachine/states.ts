/**
 * The workflow states of a document. Plain data: the union type is derived from
 * the object so a typo is a compile error and a free string never stands for a state.
 */
export const WorkflowState = {
  pending: 'pending',
  parsing_pdf: 'parsing_pdf',
  extracting: 'extracting',
  validating: 'validating',
  review_required: 'review_required',
  validated: 'validated',
  comparing: 'comparing',
  completed: 'completed',
  rejected: 'rejected',
  timed_out: 'timed_out',
  cancelled: 'cancelled',
  failed: 'failed',
  /**
   * Import only: the end of a history imported from an older pipeline (`docket ledger import`)
   * whose last state maps to no Docket end state. No stage ever moves a workflow here.
   */
  legacy: 'legacy',
} as const;

/** One of the thirteen workflow states. */
export type WorkflowState = (typeof WorkflowState)[keyof typeof WorkflowState];

/** What a state means for the workflow's life: where it starts, works, waits, fails or ends. */
export type StateKind = 'initial' | 'processing' | 'suspended' | 'terminal' | 'transient';

/** The kind of every state. */
export const STATE_KINDS = {
  pending: 'initial',
  parsing_pdf: 'processing',
  extracting: 'processing',
  validating: 'processing',
  review_required: 'suspended',
  validated: 'processing',
  comparing: 'processing',
  completed: 'terminal',
  rejected: 'terminal',
  timed_out: 'terminal',
  cancelled: 'terminal',
  failed: 'transient',
  legacy: 'terminal',
} as const satisfies Record<WorkflowState, StateKind>;

/** Every state, in lifecycle order. */
export const ALL_STATES: readonly WorkflowState[] = Object.values(WorkflowState);

/** The state a new workflow is created in. */
export const INITIAL_STATE = WorkflowState.pending;

/**
 * True for `completed`, `rejected`, `timed_out`, `cancelled` and `legacy`: the workflow ended, and
 * nothing leaves them on its own (only an operator's `reprocess` takes a completed one back).
 */
export const isTerminal = (state: WorkflowState): boolean => STATE_KINDS[state] === 'terminal';

/**
 * True for an end state or one that waits for a person (`review_required`): nothing happens to
 * the workflow until someone acts. What `docket watch --until-settled` and `docket reprocess` wait for.
 */
export const isAtRest = (state: WorkflowState): boolean =>
  STATE_KINDS[state] === 'terminal' || STATE_KINDS[state] === 'suspended';

/** Narrows an unknown string (from DynamoDB, a CLI flag, an API query) to a state. */
export const isWorkflowState = (value: unknown): value is WorkflowState =>
  typeof value === 'string' && Object.hasOwn(WorkflowState, value);
