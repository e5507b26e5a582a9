import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AslTaskState,
  exampleStageArns,
  LAMBDA_TRANSIENT_ERRORS,
  STAGES,
  type Stage,
  TASK_TIMEOUT_MARGIN_SECONDS,
} from '../../statemachine/index.js';
import { type SynthResult, synthDocket } from './support/synthDocket.js';
import { definitionFromTemplate, functionTimeouts } from './support/templateDefinition.js';

let synth: SynthResult;
beforeAll(() => {
  synth = synthDocket();
}, 120_000);
afterAll(() => synth?.remove());

/** Every Task of the deployed definition with the stage whose function it invokes. */
const deployedTasks = () => {
  const arns = exampleStageArns();
  const stageOf = new Map(Object.entries(arns).map(([stage, arn]) => [arn, stage as Stage]));
  const { definition } = definitionFromTemplate(synth.template, arns);
  return Object.entries(definition.States as Record<string, AslTaskState>)
    .filter(([, state]) => state.Type === 'Task')
    .map(([name, task]) => {
      const arn = (task.Parameters?.FunctionName as string | undefined) ?? task.Resource;
      return { name, task, stage: stageOf.get(arn) };
    });
};

describe('the Tasks of the synthesized template', () => {
  it('retry every transient Lambda error in place before anything else can match it', () => {
    // Act
    const tasks = deployedTasks();

    // Assess: for each error, the first retrier that matches it retries (MaxAttempts > 0).
    expect(tasks.map((t) => t.stage).sort()).toEqual(Object.keys(STAGES).sort());
    for (const { name, task } of tasks) {
      for (const error of LAMBDA_TRANSIENT_ERRORS) {
        const first = task.Retry?.find(
          (r) => r.ErrorEquals.includes(error) || r.ErrorEquals.includes('States.ALL'),
        );
        expect(first?.MaxAttempts ?? 0, `${name}: ${error}`).toBeGreaterThan(0);
      }
    }
  });

  it(`outlast their function's timeout by at least ${TASK_TIMEOUT_MARGIN_SECONDS} s for a cold start`, () => {
    // Prepare
    const timeouts = functionTimeouts(synth.template);

    // Act / Assess
    for (const { name, task, stage } of deployedTasks()) {
      const functionTimeout = timeouts.get(stage as Stage);
      expect(functionTimeout, name).toBeGreaterThan(0);
      expect(task.TimeoutSeconds, name).toBeGreaterThanOrEqual(
        (functionTimeout as number) + TASK_TIMEOUT_MARGIN_SECONDS,
      );
    }
  });
});
