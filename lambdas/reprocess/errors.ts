import { TransientError } from '../shared/errors.js';

/**
 * Every execution slot is held: the rerun waits, as an upload does, so a batch never runs more
 * documents at once than `maxRunningExecutions`. Retried by the reprocess map's backoff; its name
 * is the starter's, so one Retry rule and one alarm vocabulary serve both.
 */
export class RerunWaitsForSlotError extends TransientError {
  override readonly name = 'SlotsFull';
  constructor(workflowId: string, limit: number) {
    super(
      `All ${limit} execution slots are held; the rerun of ${workflowId} waits for one (its transition is done, ` +
        'a retry of the same batch starts it). Raise maxRunningExecutions if the bound is too low.',
    );
  }
}
