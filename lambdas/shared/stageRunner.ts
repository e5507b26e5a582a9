import {
  STAGES,
  type Stage,
  type StageEvent,
  type StagePolicy,
  type WorkflowState,
} from '../../statemachine/index.js';
import { PermanentError } from './errors.js';
import {
  type ItemPatch,
  TransitionConflictError,
  type TransitionRequest,
  type WorkflowItem,
  type WorkflowStore,
} from './store/index.js';

/** The order processing states are reached in; a stage never runs for a state before its own. */
const PROCESSING_ORDER: readonly WorkflowState[] = [
  'pending',
  'parsing_pdf',
  'extracting',
  'validating',
  'review_required',
  'validated',
  'comparing',
];

/** A stage was invoked for a workflow that has not reached it yet: the path is wrong, not slow. */
export class StageOutOfOrderError extends PermanentError {
  override readonly name = 'StageOutOfOrder';
  constructor(stage: Stage, workflowId: string, state: WorkflowState, detail = '') {
    super(
      `Stage ${stage} was invoked for workflow ${workflowId} in state "${state}"${detail}; it only runs once the ` +
        'workflow reached its stage. Resume the workflow at its recorded state instead (`docket retry`).',
    );
  }
}

/** What the stage returns to the state machine (`$.result`). */
export interface StageResult {
  workflowId: string;
  state: WorkflowState;
  /** True when the work was found already done (repeated invocation). */
  alreadyDone?: boolean;
}

/**
 * Runs one stage for one workflow idempotently, because Step Functions and Lambda may deliver an
 * invocation twice (retries, redrives, a restart that resumes the stage). The stage works in
 * `own` state; `enter()` gets it there (the stage's start event from the state before, or `retry`
 * when the workflow failed at `own`) and reports when the work is already past, so a repeated
 * invocation returns the recorded result without a second transition. Only the events the stage
 * declares in `STAGES` can be sent (`StageEvent<S>`).
 */
export class StageRun<S extends Stage> {
  private current: WorkflowItem;

  private constructor(
    readonly stage: S,
    private readonly store: WorkflowStore,
    private readonly policy: StagePolicy,
    item: WorkflowItem,
  ) {
    this.current = item;
  }

  /** Loads the workflow (one consistent read). */
  static async load<S extends Stage>(
    stage: S,
    store: WorkflowStore,
    workflowId: string,
    policy: StagePolicy,
  ) {
    return new StageRun(stage, store, policy, await store.get(workflowId));
  }

  /** The item as of the last read or transition. */
  get item(): WorkflowItem {
    return this.current;
  }

  /** The result to hand back to the state machine. */
  result(alreadyDone = false): StageResult {
    return { workflowId: this.current.id, state: this.current.state, ...(alreadyDone && { alreadyDone }) };
  }

  /**
   * Brings the workflow into `own`. Returns false when the workflow is already past it (done, or
   * terminal), true when the stage should do its work now.
   */
  async enter(own: WorkflowState, start?: { from: WorkflowState; event: StageEvent<S> }): Promise<boolean> {
    const item = this.current;
    if (item.state === own) return true;
    if (start && item.state === start.from) {
      await this.apply(start.event);
      return true;
    }
    if (item.state === 'failed') {
      if (item.failedAtStep !== own) {
        throw new StageOutOfOrderError(this.stage, item.id, item.state, ` (failed at ${item.failedAtStep})`);
      }
      await this.apply('retry' as StageEvent<S>, {
        context: {
          retryable: item.lastError?.retryable ?? true,
          retryCount: item.retryCount,
          maxRetries: this.policy.maxRetries,
          failedAtStep: item.failedAtStep,
        },
      });
      return true;
    }
    const at = PROCESSING_ORDER.indexOf(item.state);
    if (at !== -1 && at < PROCESSING_ORDER.indexOf(own)) {
      throw new StageOutOfOrderError(this.stage, item.id, item.state);
    }
    return false;
  }

  /**
   * Applies one of the stage's events from the item it holds (no extra read). When a concurrent
   * invocation of the same stage won the race, the conflict is resolved by reloading: `applied`
   * is false and the item shows what the winner recorded.
   */
  async apply(
    event: StageEvent<S>,
    request: Omit<TransitionRequest, 'event' | 'expectVersion'> = {},
  ): Promise<{ applied: boolean }> {
    if (!(STAGES[this.stage].events as readonly string[]).includes(event)) {
      throw new StageOutOfOrderError(
        this.stage,
        this.current.id,
        this.current.state,
        ` (event ${event} is not its own)`,
      );
    }
    try {
      this.current = (await this.store.transition(this.current, { ...request, event })).workflow;
      return { applied: true };
    } catch (error) {
      if (!(error instanceof TransitionConflictError)) throw error;
      this.current = await this.store.get(this.current.id, { repair: true });
      return { applied: false };
    }
  }

  /** Sets attributes without a state change, while the workflow stays in the state it is in. */
  async update(patch: ItemPatch): Promise<void> {
    this.current = await this.store.update(this.current.id, patch, { expectState: this.current.state });
  }
}
