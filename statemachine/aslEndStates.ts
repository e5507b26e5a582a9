import type { AslFailState, AslState } from './asl.js';
import { ExecutionError, Outcome } from './outcomes.js';

const fail = (error: string, cause: string): AslFailState => ({ Type: 'Fail', Error: error, Cause: cause });

/**
 * The states an execution ends in: one per `Outcome`, Succeed where the document reached a
 * settled business result, Fail where an operator or the caller needs to look.
 */
export const endStates = (): Record<string, AslState> => ({
  [Outcome.completed]: { Type: 'Succeed', Comment: 'Compared and completed.' },
  [Outcome.reviewRejected]: { Type: 'Succeed', Comment: 'A reviewer rejected the document.' },
  [Outcome.cancelled]: { Type: 'Succeed', Comment: 'An operator cancelled the workflow.' },
  [Outcome.duplicate]: {
    Type: 'Succeed',
    Comment: 'Duplicate event for an object version already ingested.',
  },
  [Outcome.quarantined]: {
    Type: 'Succeed',
    Comment: 'The upload key breaks the key policy: ingest moved the object to quarantine/, no workflow.',
  },
  [Outcome.processingFailed]: fail(
    ExecutionError.processingFailed,
    'Rejected after a permanent error or after the last retry; the transition log holds the error.',
  ),
  [Outcome.reviewTimedOut]: fail(
    ExecutionError.reviewTimedOut,
    'No reviewer acted before the review heartbeat ran out; the workflow is timed_out.',
  ),
  [Outcome.processingHalted]: fail(
    ExecutionError.processingHalted,
    'A stage failed where no failure can be recorded; the workflow kept its state and can be resumed.',
  ),
  [Outcome.ingestFailed]: fail(
    ExecutionError.ingestFailed,
    'The S3 event could not be turned into a workflow; see the Ingest task error.',
  ),
  [Outcome.unroutable]: fail(
    ExecutionError.unroutable,
    'The workflow is in a state no stage continues from (terminal, or resumeAt unknown); check `docket show`.',
  ),
});
