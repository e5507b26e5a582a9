import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  InjectedFaultError,
  type StageFunctionOptions,
  stageFunction,
} from '../../../local/lambdas/registry.js';

const context = { awsRequestId: 'req-1', functionName: 'docket-validate' } as Context;

/** A stage behind the plan, over recorded retry counts; the handler stands in for the real one. */
const stageWith = (options: StageFunctionOptions, retries: Map<string, number>) =>
  stageFunction('validate', {
    ...options,
    retriesOf: async (id) => retries.get(id) ?? 0,
    invoke: async () => 'ran',
  });

/** Calls the stage and says how it ended: the handler's answer, or `fault`. */
const outcome = (stage: ReturnType<typeof stageFunction>, workflowId: string) =>
  stage({ workflowId }, context).then(
    (value) => value,
    (error: Error) => (error instanceof InjectedFaultError ? 'fault' : `other: ${error.message}`),
  );

describe('the fault plan (DOCKET_FAULTS)', () => {
  it('fails each workflow until it was retried n times, whichever workflow came first', async () => {
    // Prepare
    const retries = new Map<string, number>();
    const stage = stageWith({ faults: { validate: 1 } }, retries);

    // Act: a fails, is retried (its record says so) and runs; b still gets its own fault.
    const first = await outcome(stage, 'wf-a');
    retries.set('wf-a', 1);
    const results = [first, await outcome(stage, 'wf-a'), await outcome(stage, 'wf-b')];

    // Assess
    expect(results).toEqual(['fault', 'ran', 'fault']);
  });

  it('does not fail a retried workflow again after a restart (a new process)', async () => {
    // Prepare: wf-a failed and was retried before the stack was killed.
    const retries = new Map([['wf-a', 1]]);

    // Act: the stage function of the restarted process.
    const result = await outcome(stageWith({ faults: { validate: 1 } }, retries), 'wf-a');

    // Assess
    expect(result).toBe('ran');
  });

  it('fails every invocation with -1, and none of a stage the plan does not name', async () => {
    // Prepare
    const retries = new Map([['wf-a', 5]]);
    const always = stageWith({ faults: { validate: -1 } }, retries);
    const other = stageWith({ faults: { compare: -1 } }, retries);

    // Act
    const results = [
      await outcome(always, 'wf-a'),
      await outcome(always, 'wf-b'),
      await outcome(other, 'wf-a'),
    ];

    // Assess
    expect(results).toEqual(['fault', 'fault', 'ran']);
  });
});
