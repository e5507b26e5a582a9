import {
  DescribeExecutionCommand,
  type DescribeExecutionOutput,
  RedriveExecutionCommand,
  type SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { ExecutionError, isTerminal, RESUME_STAGE, type ResumableState } from '../../statemachine/index.js';
import { PermanentError } from './errors.js';
import { routingOf } from './routing.js';
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

/** The errors of the definition's own Fail states: a redrive would only run that Fail again. */
const DEFINED_FAILURES: ReadonlySet<string> = new Set(Object.values(ExecutionError));

/**
 * Whether a retry of `item` should redrive its last execution rather than start a new one.
 * A redrive continues the same execution (one ARN, one history in the console) from the state it
 * did not finish, so it fits an execution cut short mid-stage: stopped (ABORTED), over its
 * execution timeout, or failed outside the definition's own Fail states, and still redrivable by
 * Step Functions' rules. It does not fit a review: the review Task would wait again with the
 * heartbeat it started with, while a new execution's ScheduleReview gives it only the time left.
 */
export const shouldRedrive = (item: WorkflowItem, execution: DescribeExecutionOutput | undefined): boolean =>
  execution?.redriveStatus === 'REDRIVABLE' &&
  item.state !== 'review_required' &&
  !DEFINED_FAILURES.has(execution.error ?? '');

/** How a retry went on: the same execution redriven, or a new one started at the workflow's stage. */
export type ResumeMethod = 'redrive' | 'start';

/**
 * Resumes the workflow at its stage, unless its execution is still running: by redriving that
 * execution where `shouldRedrive` says it fits (with `redrive`), otherwise by starting a new one
 * through the definition's `resumeAt` router (the Start choice sends `{workflowId, resumeAt}`
 * straight to that stage). Used by `docket retry` and the admin API (which allow a redrive) and
 * by the local runtime after a restart (which starts anew).
 */
export const resumeWorkflow = async (
  deps: { store: WorkflowStore; sfn: SFNClient; stateMachineArn: string },
  item: WorkflowItem,
  /** `name`: the new execution's, when the caller needs a repeated start to find the first. */
  options: { ignoreRunning?: boolean; redrive?: boolean; name?: string } = {},
): Promise<{ executionArn: string; resumeAt: ResumableState; method: ResumeMethod }> => {
  if (isTerminal(item.state)) {
    throw new CannotResumeError(
      `Workflow ${item.id} is ${item.state}; upload the document again to process it anew.`,
    );
  }
  const resumeAt = resumePoint(item);
  if (!resumeAt)
    throw new CannotResumeError(`Workflow ${item.id} has no stage to resume at (state ${item.state}).`);
  const last = options.ignoreRunning ? undefined : await describeExecution(deps.sfn, item.executionArn);
  if (last?.status === 'RUNNING') {
    throw new CannotResumeError(
      `Workflow ${item.id} still has a running execution (${item.executionArn}); wait for it or cancel the workflow.`,
    );
  }
  if (options.redrive && item.executionArn && shouldRedrive(item, last)) {
    await deps.sfn.send(new RedriveExecutionCommand({ executionArn: item.executionArn }));
    return { executionArn: item.executionArn, resumeAt, method: 'redrive' };
  }
  const { executionArn } = await deps.sfn.send(
    new StartExecutionCommand({
      stateMachineArn: deps.stateMachineArn,
      name: options.name ?? `${resumeNamePrefix(item.id)}${Date.now()}`,
      input: JSON.stringify({ workflowId: item.id, tenant: item.tenant, resumeAt, ...reviewResume(item) }),
    }),
  );
  await deps.store.update(item.id, { executionArn });
  return { executionArn: executionArn as string, resumeAt, method: 'start' };
};

/**
 * What a review resumed under review policies needs: the step it recorded (the definition resumes
 * it there), and the tenant and type that select its policy when it recorded none. The same shape
 * validate's result has (`routing`).
 */
const reviewResume = (item: WorkflowItem) =>
  item.state === 'review_required'
    ? {
        ...(item.review?.step && { reviewStep: item.review.step }),
        result: { routing: routingOf(item) },
      }
    : {};

/** Stops a workflow's execution if it still runs (after a cancel); a finished one is left alone. */
export const stopExecution = async (sfn: SFNClient, executionArn: string | undefined, cause: string) => {
  if ((await executionStatus(sfn, executionArn)) !== 'RUNNING') return false;
  await sfn.send(new StopExecutionCommand({ executionArn, error: 'Docket.Cancelled', cause }));
  return true;
};
