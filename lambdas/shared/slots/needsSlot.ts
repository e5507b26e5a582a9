import type { SFNClient } from '@aws-sdk/client-sfn';
import { describeExecution } from '../resumeWorkflow.js';
import type { WorkflowStore } from '../store/index.js';

/** The ARN of execution `name` of a state machine (`arn:...:stateMachine:m` -> `arn:...:execution:m:name`). */
export const executionArnOf = (stateMachineArn: string, name: string): string =>
  `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;

/**
 * Whether the execution that took slot `name` still needs it: it is RUNNING and its workflow is
 * not waiting for a reviewer (a review can wait a day; it holds no slot). What `reconcile` asks
 * about each holder, so a release that never arrived cannot leak a slot for good.
 */
export const needsSlot =
  (deps: { sfn: SFNClient; store: WorkflowStore; stateMachineArn: string }) =>
  async (name: string): Promise<boolean> => {
    const execution = await describeExecution(deps.sfn, executionArnOf(deps.stateMachineArn, name));
    if (execution?.status !== 'RUNNING') return false;
    const workflow = await deps.store.find(name);
    return workflow?.state !== 'review_required';
  };
