import {
  DescribeExecutionCommand,
  type SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { isTerminal, RESUME_STAGE, type ResumableState } from '../../statemachine/index.js';
import { PermanentError } from './errors.js';
import type { WorkflowItem, WorkflowStore } from './store/index.js';

/** The workflow cannot be resumed now (terminal, or its execution still runs). */
export class CannotResumeError extends PermanentError {
  override readonly name = 'CannotResume';
}

/** Where a workflow picks up: its failed stage when it failed, else its own state. */
export const resumePoint = (item: WorkflowItem): ResumableState | undefined => {
  const state = item.state === 'failed' ? item.failedAtStep : item.state;
  return state && Object.hasOwn(RESUME_STAGE, state) ? (state as ResumableState) : undefined;
};

/** Names of the executions `resumeWorkflow` starts begin with this (`docket history` finds them by it). */
export const resumeNamePrefix = (workflowId: string): string => `${workflowId}-resume-`;

/**
 * DescribeExecution, or undefined when there is no execution to describe: none recorded, or one
 * past the Step Functions retention (90 days), which the transition log outlives.
 */
export const describeExecution = async (sfn: SFNClient, executionArn: string | undefined) => {
  if (!executionArn) return undefined;
  try {
    return await sfn.send(new DescribeExecutionCommand({ executionArn }));
  } catch (error) {
    if (error instanceof Error && error.name === 'ExecutionDoesNotExist') return undefined;
    throw error;
  }
};

const executionStatus = async (sfn: SFNClient, executionArn: string | undefined) =>
  (await describeExecution(sfn, executionArn))?.status;

/**
 * Starts a new execution that resumes the workflow at its stage through the definition's
 * `resumeAt` router (the Start choice sends `{workflowId, resumeAt}` straight to that stage),
 * unless one is still running. Used by `docket retry`, the
 * admin API and the local runtime after a restart.
 */
export const resumeWorkflow = async (
  deps: { store: WorkflowStore; sfn: SFNClient; stateMachineArn: string },
  item: WorkflowItem,
  options: { ignoreRunning?: boolean } = {},
): Promise<{ executionArn: string; resumeAt: ResumableState }> => {
  if (isTerminal(item.state)) {
    throw new CannotResumeError(
      `Workflow ${item.id} is ${item.state}; upload the document again to process it anew.`,
    );
  }
  const resumeAt = resumePoint(item);
  if (!resumeAt)
    throw new CannotResumeError(`Workflow ${item.id} has no stage to resume at (state ${item.state}).`);
  if (!options.ignoreRunning && (await executionStatus(deps.sfn, item.executionArn)) === 'RUNNING') {
    throw new CannotResumeError(
      `Workflow ${item.id} still has a running execution (${item.executionArn}); wait for it or cancel the workflow.`,
    );
  }
  const { executionArn } = await deps.sfn.send(
    new StartExecutionCommand({
      stateMachineArn: deps.stateMachineArn,
      name: `${resumeNamePrefix(item.id)}${Date.now()}`,
      input: JSON.stringify({ workflowId: item.id, tenant: item.tenant, resumeAt }),
    }),
  );
  await deps.store.update(item.id, { executionArn });
  return { executionArn: executionArn as string, resumeAt };
};

/** Stops a workflow's execution if it still runs (after a cancel); a finished one is left alone. */
export const stopExecution = async (sfn: SFNClient, executionArn: string | undefined, cause: string) => {
  if ((await executionStatus(sfn, executionArn)) !== 'RUNNING') return false;
  await sfn.send(new StopExecutionCommand({ executionArn, error: 'Docket.Cancelled', cause }));
  return true;
};
