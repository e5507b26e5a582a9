import { type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStepFunctions } from '../../local/sfn/localStepFunctions.js';
import { REPROCESS_MAX_CONCURRENCY } from '../../statemachine/index.js';
import { openSfnEndpoint } from '../local/sfn/support/sfnFixture.js';
import { type SynthResult, synthDocket } from './support/synthDocket.js';
import { definitionFromTemplate } from './support/templateDefinition.js';
import { asArray, functionsByService, getAttTarget, roleStatements } from './support/templateQueries.js';

/*
 * Reprocessing as synthesized (issue 16): the Distributed Map definition in the template (cdk-nag
 * runs with every synth: stack.test.ts), the function's grants, and the template's definition run
 * by the local Step Functions, with a stand-in for the reprocess function (the real one runs in
 * test/e2e/reprocess.test.ts).
 */

let s: SynthResult;
let endpoint: Awaited<ReturnType<typeof openSfnEndpoint>>;
let service: LocalStepFunctions;
let client: SFNClient;
beforeAll(async () => {
  s = synthDocket();
  endpoint = await openSfnEndpoint();
  ({ service, client } = endpoint);
}, 120_000);
afterAll(async () => {
  await endpoint?.close();
  s?.remove();
});

const FN = 'arn:aws:lambda:us-east-1:123456789012:function:reprocess-stand-in';

describe('the reprocess state machine', () => {
  it('is a Distributed Map over the ids with bounded concurrency, each item the reprocess function', () => {
    // Act
    const { definition } = definitionFromTemplate(s.template, { reprocess: FN }, 'reprocess');

    // Assess
    const map = (definition.States as Record<string, Record<string, unknown>>).Reprocess;
    expect(map).toMatchObject({
      Type: 'Map',
      ItemsPath: '$.workflowIds',
      MaxConcurrency: REPROCESS_MAX_CONCURRENCY,
      ItemProcessor: {
        ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
        States: { Rerun: { Type: 'Task', Resource: FN } },
      },
    });
  });

  it('lets the function start executions of the document machine and nothing else', () => {
    // Prepare
    const fn = functionsByService(s).reprocess;
    if (!fn) throw new Error('no reprocess function');

    // Act
    const starts = roleStatements(s, getAttTarget(fn.Properties.Role)).filter((st) =>
      asArray(st.Action).includes('states:StartExecution'),
    );

    // Assess
    expect(starts).toHaveLength(1);
    expect(JSON.stringify(starts[0]?.Resource)).toContain('Workflow');
    expect(JSON.stringify(starts[0]?.Resource)).not.toContain('*');
  });

  it("runs locally as deployed: every id's outcome in order, a failing item caught as its own outcome", async () => {
    // Prepare: the stand-in refuses one id as the real function's store would fail it.
    service.registerFunction(FN, async (event: { workflowId: string; batch: string }) => {
      if (event.workflowId === 'boom') throw Object.assign(new Error('store down'), { name: 'Unexpected' });
      return { workflowId: event.workflowId, status: 'started', batch: event.batch };
    });
    const { definition } = definitionFromTemplate(s.template, { reprocess: FN }, 'reprocess');
    const stateMachineArn = service.registerStateMachine({ name: 'reprocess-as-deployed', definition });

    // Act
    const { executionArn = '' } = await client.send(
      new StartExecutionCommand({
        stateMachineArn,
        input: JSON.stringify({ workflowIds: ['a', 'boom', 'c'], batch: 'b1', requestedBy: 'ops' }),
      }),
    );
    const described = await service.waitForExecution(executionArn);

    // Assess
    expect(described.status).toBe('SUCCEEDED');
    expect(JSON.parse(described.output ?? 'null')).toEqual([
      { workflowId: 'a', status: 'started', batch: 'b1' },
      { workflowId: 'boom', status: 'failed', error: 'Unexpected' },
      { workflowId: 'c', status: 'started', batch: 'b1' },
    ]);
  });
});
