import {
  backoffSeconds,
  decideRecovery,
  isTerminal,
  type Recovery,
  type StagePolicy,
  transition,
} from '../../statemachine/index.js';
import type { CaughtError } from '../shared/stageInput.js';
import type { WorkflowItem, WorkflowStore } from '../shared/store/index.js';
import { failureKey, recordedError } from './caughtError.js';

/** What mark-failed hands back to the state machine (`$.recovery`). */
export type MarkFailedResult = Recovery & { workflowId: string; retryCount: number };

const decide = (item: WorkflowItem, retryable: boolean, policy: StagePolicy): Recovery =>
  decideRecovery(
    {
      state: item.state,
      failedAtStep: item.failedAtStep,
      retryable: item.lastError?.retryable ?? retryable,
      retryCount: item.retryCount,
      lastEvent: item.lastEvent,
      entryFailures: item.entryFailures,
    },
    policy,
  );

/**
 * Records a stage error as the `fail` transition (when the workflow is in a state that can fail)
 * and decides what happens next by asking the transition table: retry at `failedAtStep` after a
 * backoff (the `retry` transition is made here, before the wait, so a stage that fails again
 * before its first write still counts an attempt), reject, settle an already-terminal workflow,
 * or halt. A failure before a stage's first write changes no state: it is counted on the item and
 * retried in place.
 *
 * Idempotent: each stage error carries its Lambda request id, so the same failure handed over
 * twice (a retried invocation of mark-failed) is recognised and answered as the first time.
 */
export const markFailed = async (
  store: WorkflowStore,
  input: { workflowId: string; error?: CaughtError; policy: StagePolicy },
): Promise<MarkFailedResult> => {
  let item = await store.get(input.workflowId, { repair: true });
  const error = recordedError(input.error);
  const key = failureKey(input.error);
  const result = (recovery: Recovery): MarkFailedResult => ({
    ...recovery,
    workflowId: item.id,
    retryCount: item.retryCount,
  });

  if (key !== undefined && item.lastFailureKey === key) {
    // Seen before: the retry it decided may already be applied, in which case repeat that answer.
    if (item.lastEvent === 'retry') {
      return result({
        decision: 'retry',
        resumeAt: item.state as Extract<Recovery, { decision: 'retry' }>['resumeAt'],
        waitSeconds: backoffSeconds(input.policy.backoffBaseSeconds, item.retryCount - 1),
      });
    }
    return result(decide(item, error.retryable, input.policy));
  }

  if (transition(item.state, 'fail').ok) {
    item = (
      await store.transition(item, {
        event: 'fail',
        error,
        patch: { lastFailureKey: key ?? null },
        metadata: { failedAtStep: item.state },
      })
    ).workflow;
  } else if (!isTerminal(item.state) && item.state !== 'failed') {
    // Failed before its first write: no state changed, so count the failure on the item.
    item = await store.update(
      item.id,
      { entryFailures: (item.entryFailures ?? 0) + 1, lastError: error, lastFailureKey: key ?? null },
      { expectState: item.state },
    );
  }
  const recovery = decide(item, error.retryable, input.policy);
  if (recovery.decision === 'retry' && item.state === 'failed') {
    item = (
      await store.transition(item, {
        event: 'retry',
        context: {
          retryable: item.lastError?.retryable ?? error.retryable,
          retryCount: item.retryCount,
          maxRetries: input.policy.maxRetries,
          failedAtStep: item.failedAtStep,
        },
        metadata: { waitSeconds: recovery.waitSeconds },
      })
    ).workflow;
  }
  return result(recovery);
};
