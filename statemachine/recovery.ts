import type { WorkflowEvent } from './events.js';
import { GUARDS, type GuardContext } from './guards.js';
import { type Outcome, terminalOutcome } from './outcomes.js';
import { backoffSeconds, type StagePolicy } from './policy.js';
import { RESUME_STAGE, type ResumableState } from './stages.js';
import type { WorkflowState } from './states.js';
import { transition } from './transition.js';
import { RETRYABLE_STATES } from './transitions.js';

/** What mark-failed tells the state machine to do next. */
export type Recovery =
  | { readonly decision: 'retry'; readonly resumeAt: ResumableState; readonly waitSeconds: number }
  | { readonly decision: 'reject'; readonly reason: string }
  | { readonly decision: 'settled'; readonly outcome: Outcome; readonly reason: string }
  | { readonly decision: 'halt'; readonly reason: string };

/** The facts about a failed workflow that decide its recovery. */
export interface FailureFacts {
  /** State the workflow is in now (after the `fail` transition, if one was made). */
  readonly state: WorkflowState;
  /** State the stage failed in, when the workflow is `failed`. */
  readonly failedAtStep?: WorkflowState;
  readonly retryable: boolean;
  readonly retryCount: number;
  /** Event of the last transition, which tells a reviewer's reject from a give-up. */
  readonly lastEvent?: WorkflowEvent;
  /**
   * Failures in a row in a state that has no `fail` row (a stage erred before its first write,
   * e.g. compare while still `validated`). They change no state, so they are counted on the item.
   */
  readonly entryFailures?: number;
}

const isResumable = (state: WorkflowState): state is ResumableState => Object.hasOwn(RESUME_STAGE, state);

/**
 * A stage that failed before its first write left the workflow where it was: there is no
 * transition to make, so the stage is simply tried again from that state, under the same
 * `retriesLeft` guard the table uses for `retry`, counting these failures on the item. When they
 * run out, the execution halts and the workflow keeps its state, resumable by an operator.
 */
const retryInPlace = (facts: FailureFacts, policy: StagePolicy): Recovery => {
  const attempts = facts.entryFailures ?? 1;
  const context: GuardContext = {
    retryable: facts.retryable,
    retryCount: attempts - 1,
    maxRetries: policy.maxRetries,
  };
  const retriesLeft = GUARDS.retriesLeft.test(context as Required<GuardContext>);
  if (retriesLeft && isResumable(facts.state)) {
    return {
      decision: 'retry',
      resumeAt: facts.state,
      waitSeconds: backoffSeconds(policy.backoffBaseSeconds, attempts - 1),
    };
  }
  return {
    decision: 'halt',
    reason:
      `the stage failed ${attempts} time(s) while the workflow was "${facts.state}" (before its first write); ` +
      'it keeps that state and can be resumed with `docket retry`',
  };
};

/**
 * Decides between another try, rejection and halting, by asking the transition table which of
 * `retry` and `give_up` it would allow. Nothing here re-implements the guards. A workflow that
 * is already terminal (its stage erred after the last write) is `settled` in the outcome its
 * ledger shows.
 */
export const decideRecovery = (facts: FailureFacts, policy: StagePolicy): Recovery => {
  const settled = terminalOutcome(facts.state, facts.lastEvent);
  if (settled) {
    return { decision: 'settled', outcome: settled, reason: `the workflow is already ${facts.state}` };
  }
  if (facts.state !== 'failed') return retryInPlace(facts, policy);
  const context = {
    retryable: facts.retryable,
    retryCount: facts.retryCount,
    maxRetries: policy.maxRetries,
    failedAtStep: facts.failedAtStep,
  };
  const retry = transition('failed', 'retry', context);
  if (retry.ok && isResumable(retry.to)) {
    return {
      decision: 'retry',
      resumeAt: retry.to,
      waitSeconds: backoffSeconds(policy.backoffBaseSeconds, facts.retryCount),
    };
  }
  const giveUp = transition('failed', 'give_up', context);
  if (giveUp.ok) {
    return {
      decision: 'reject',
      reason: facts.retryable
        ? `retries exhausted (${facts.retryCount} of ${policy.maxRetries})`
        : 'permanent error, not retried',
    };
  }
  return {
    decision: 'halt',
    reason: `failedAtStep ${JSON.stringify(facts.failedAtStep)} is not one of ${RETRYABLE_STATES.join(', ')}`,
  };
};
