import { decideRecovery, type Recovery, type StagePolicy, transition } from '../../statemachine/index.js';
import type { CaughtError } from '../shared/stageInput.js';
import type { WorkflowStore } from '../shared/store/workflowStore.js';
import { recordedError } from './caughtError.js';

/** What mark-failed hands back to the state machine (`$.recovery`). */
export type MarkFailedResult = Recovery & { workflowId: string; retryCount: number };

/**
 * Records a stage error as the `fail` transition (when the workflow is in a state that can fail)
 * and decides what happens next by asking the transition table: retry at `failedAtStep` after a
 * backoff, reject, settle an already-terminal workflow, or halt. Idempotent: a repeated call finds
 * the workflow already `failed` and decides again from what was recorded.
 */
export const markFailed = async (
  store: WorkflowStore,
  input: { workflowId: string; error?: CaughtError; policy: StagePolicy },
): Promise<MarkFailedResult> => {
  let item = await store.get(input.workflowId, { repair: true });
  const error = recordedError(input.error);
  if (transition(item.state, 'fail').ok) {
    item = (await store.transition(item, { event: 'fail', error, metadata: { failedAtStep: item.state } }))
      .workflow;
  }
  const recovery = decideRecovery(
    {
      state: item.state,
      failedAtStep: item.failedAtStep,
      retryable: item.lastError?.retryable ?? error.retryable,
      retryCount: item.retryCount,
      lastEvent: item.lastEvent,
    },
    input.policy,
  );
  return { ...recovery, workflowId: item.id, retryCount: item.retryCount };
};
