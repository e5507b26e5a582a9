import type { WorkflowEvent } from './events.js';
import type { WorkflowState } from './states.js';

/** Names of the outcome states; the execution's status and error tell operators what happened. */
export const Outcome = {
  completed: 'Completed',
  reviewRejected: 'ReviewRejected',
  cancelled: 'Cancelled',
  duplicate: 'Duplicate',
  quarantined: 'Quarantined',
  processingFailed: 'ProcessingFailed',
  reviewTimedOut: 'ReviewTimedOut',
  processingHalted: 'ProcessingHalted',
  ingestFailed: 'IngestFailed',
  unroutable: 'Unroutable',
} as const;

/** One of the outcome state names. */
export type Outcome = (typeof Outcome)[keyof typeof Outcome];

/** Error names of the Fail states, matchable by alarms and by a parent workflow's Catch. */
export const ExecutionError = {
  processingFailed: 'Docket.ProcessingFailed',
  reviewTimedOut: 'Docket.ReviewTimedOut',
  processingHalted: 'Docket.ProcessingHalted',
  ingestFailed: 'Docket.IngestFailed',
  unroutable: 'Docket.Unroutable',
} as const;

/**
 * The outcome an execution should end in for a workflow already in a terminal state: used when a
 * stage errs after its last write, so the execution reports what the ledger says: the ledger is
 * the record, and an execution that disagreed with it would mislead whoever reads either.
 */
export const terminalOutcome = (state: WorkflowState, lastEvent?: WorkflowEvent): Outcome | undefined => {
  switch (state) {
    case 'completed':
      return Outcome.completed;
    case 'timed_out':
      return Outcome.reviewTimedOut;
    case 'cancelled':
      return Outcome.cancelled;
    case 'rejected':
      return lastEvent === 'reject' ? Outcome.reviewRejected : Outcome.processingFailed;
    default:
      return undefined;
  }
};
