import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { InjectedFaultError, stageFunction } from '../../../local/lambdas/registry.js';

const context = { awsRequestId: 'req-1', functionName: 'docket-validate' } as Context;

/** Calls the stage and says how it ended: the handler's answer, or the fault's name. */
const outcome = (stage: ReturnType<typeof stageFunction>, workflowId: string) =>
  stage({ workflowId }, context).then(
    (value) => value,
    (error: Error) => (error instanceof InjectedFaultError ? 'fault' : `other: ${error.message}`),
  );

describe('the fault plan (DOCKET_FAULTS)', () => {
  it('fails the first n invocations of each workflow, whichever workflow came first', async () => {
    // Prepare: a stand-in handler (the fault is injected before any handler runs).
    const stage = stageFunction('validate', { validate: 1 }, async () => async () => 'ran');

    // Act: workflow a twice, then b; b must still get its fault though a took the first one.
    const results = [
      await outcome(stage, 'wf-a'),
      await outcome(stage, 'wf-a'),
      await outcome(stage, 'wf-b'),
    ];

    // Assess
    expect(results).toEqual(['fault', 'ran', 'fault']);
  });

  it('fails every invocation with -1, and none of a stage the plan does not name', async () => {
    // Prepare
    const always = stageFunction('validate', { validate: -1 }, async () => async () => 'ran');
    const other = stageFunction('compare', { validate: -1 }, async () => async () => 'ran');

    // Act
    const results = [
      await outcome(always, 'wf-a'),
      await outcome(always, 'wf-a'),
      await outcome(other, 'wf-a'),
    ];

    // Assess
    expect(results).toEqual(['fault', 'fault', 'ran']);
  });
});
