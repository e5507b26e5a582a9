import type { DescribeExecutionOutput } from '@aws-sdk/client-sfn';
import { describe, expect, it } from 'vitest';
import { shouldRedrive } from '../../lambdas/shared/resumeWorkflow.js';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import type { WorkflowState } from '../../statemachine/index.js';

const item = (state: WorkflowState) => ({ id: 'wf-1', tenant: 'acme', state, version: 3 }) as WorkflowItem;
const execution = (fields: Partial<DescribeExecutionOutput>) =>
  ({ status: 'ABORTED', redriveStatus: 'REDRIVABLE', ...fields }) as DescribeExecutionOutput;

describe('shouldRedrive: docket retry redrives only an execution cut short mid-stage', () => {
  it.each([
    ['stopped while extracting', item('extracting'), execution({}), true],
    ['timed out while comparing', item('comparing'), execution({ status: 'TIMED_OUT' }), true],
    [
      'failed on a runtime error',
      item('validating'),
      execution({ status: 'FAILED', error: 'States.Runtime' }),
      true,
    ],
    [
      'stopped in review: the Task would get its old heartbeat',
      item('review_required'),
      execution({}),
      false,
    ],
    [
      'ended in the definition’s own Fail state',
      item('parsing_pdf'),
      execution({ status: 'FAILED', error: 'Docket.ProcessingHalted' }),
      false,
    ],
    [
      'not redrivable (older than 14 days)',
      item('extracting'),
      execution({
        redriveStatus: 'NOT_REDRIVABLE',
        redriveStatusReason: 'Execution redrivable period exceeded.',
      }),
      false,
    ],
    ['no execution to describe', item('extracting'), undefined, false],
  ])('%s', (_, workflow, described, expected) => {
    // Act
    const verdict = shouldRedrive(workflow, described);
    // Assess
    expect(verdict).toBe(expected);
  });
});
