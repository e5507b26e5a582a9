import type { SFNClient } from '@aws-sdk/client-sfn';
import { describeExecution } from '../shared/resumeWorkflow.js';
import { executionArnOf } from '../shared/slots/index.js';
import type { WorkflowStore } from '../shared/store/index.js';

/** Closing statuses that mean the run did not finish its work. */
const CUT_SHORT = new Set(['ABORTED', 'FAILED', 'TIMED_OUT']);

/**
 * Whether the execution named by workflow id `name` was cut short before ingest made the
 * workflow: then a new delivery of its upload must run again, not count as a duplicate.
 */
export const abandonedUpload =
  (deps: { sfn: SFNClient; store: WorkflowStore; stateMachineArn: string }) =>
  async (name: string): Promise<boolean> => {
    const execution = await describeExecution(deps.sfn, executionArnOf(deps.stateMachineArn, name));
    if (!execution?.status || !CUT_SHORT.has(execution.status)) return false;
    return (await deps.store.find(name)) === undefined;
  };
