import { join } from 'node:path';
import {
  GetExecutionHistoryCommand,
  SendTaskSuccessCommand,
  type SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/constructs/StageFunction.js';
import type { LocalStepFunctions } from '../../local/sfn/localStepFunctions.js';
import { enteredStates, openSfnEndpoint, STAGE_ARNS } from '../local/sfn/support/sfnFixture.js';
import { nagViolations, type SynthResult, synthDocket } from './support/synthDocket.js';
import { definitionFromTemplate } from './support/templateDefinition.js';

/*
 * A stack with two review policies (policies/examples: invoices with four-eyes, escalation and a
 * notification; large contracts to legal), synthesized with cdk-nag as `cdk synth` runs it, and its
 * definition taken out of the template and run by the local Step Functions with stand-in stage
 * functions (the real stages run it in test/e2e/reviewPolicies.test.ts).
 */

let s: SynthResult;
let endpoint: Awaited<ReturnType<typeof openSfnEndpoint>>;
let service: LocalStepFunctions;
let client: SFNClient;
beforeAll(async () => {
  s = synthDocket({ context: { reviewPolicies: join(PROJECT_ROOT, 'policies', 'examples') } });
  endpoint = await openSfnEndpoint();
  ({ service, client } = endpoint);
}, 120_000);
afterAll(async () => {
  await endpoint?.close();
  s?.remove();
});

describe('a stack with two review policies', () => {
  it('synthesizes with no unacknowledged cdk-nag finding', () => {
    // Act
    const violations = nagViolations(s.outdir);

    // Assess
    expect(violations).toEqual([]);
  });

  it("compiles both policies into the one definition, with a group per role and finance's topic", () => {
    // Act
    const { definition } = definitionFromTemplate(s.template, STAGE_ARNS);
    const states = Object.keys(definition.States as object);

    // Assess
    expect(states).toEqual(
      expect.arrayContaining([
        'SelectPolicy',
        'ResumeReview',
        'invoices-four-eyes:review:Request',
        'invoices-four-eyes:review:Escalate',
        'invoices-four-eyes:finance:Request',
        'contracts-large:legal:Request',
      ]),
    );
    for (const group of ['reviewer', 'uploader', 'admin', 'manager', 'finance', 'legal']) {
      s.template.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: group });
    }
    s.template.resourceCountIs('AWS::SNS::Topic', 2); // the alarm topic and channel finance
    s.template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['docket'],
        'detail-type': ['Docket Review Notification'],
        detail: { channel: ['finance'] },
      },
    });
  });

  it('runs locally as deployed: a review resumed at the finance step completes on its decision', async () => {
    // Prepare: stand-ins for the stages the path calls; request-review hands the token over.
    let token = '';
    const calls: string[] = [];
    const standIn = (stage: keyof typeof STAGE_ARNS, result: unknown) =>
      service.registerFunction(STAGE_ARNS[stage], async (event: { taskToken?: string }) => {
        calls.push(stage);
        if (event.taskToken) token = event.taskToken;
        return result;
      });
    standIn('schedule-review', { heartbeatSeconds: 60, expired: false });
    standIn('request-review', { armed: true });
    standIn('apply-review', { workflowId: 'w1', state: 'validated', next: 'approved' });
    standIn('compare', { workflowId: 'w1', state: 'completed' });
    const { definition } = definitionFromTemplate(s.template, STAGE_ARNS);
    const stateMachineArn = service.registerStateMachine({ name: 'policies-as-deployed', definition });
    const reviewStep = {
      policy: 'invoices-four-eyes',
      version: 1,
      step: 'finance',
      role: 'finance',
      distinctFrom: ['review', 'manager'],
      timeoutSeconds: 86_400,
      escalatedFrom: null,
    };

    // Act
    const { executionArn = '' } = await client.send(
      new StartExecutionCommand({
        stateMachineArn,
        input: JSON.stringify({ workflowId: 'w1', resumeAt: 'review_required', reviewStep }),
      }),
    );
    while (!token) await new Promise((resolve) => setImmediate(resolve));
    await client.send(
      new SendTaskSuccessCommand({
        taskToken: token,
        output: JSON.stringify({ decision: 'approve', reviewer: 'bob', at: '2026-11-27T10:00:00.000Z' }),
      }),
    );
    const described = await service.waitForExecution(executionArn);
    const { events = [] } = await client.send(new GetExecutionHistoryCommand({ executionArn }));

    // Assess
    expect(described.status).toBe('SUCCEEDED');
    expect(calls).toEqual(['schedule-review', 'request-review', 'apply-review', 'compare']);
    expect(enteredStates(events)).toEqual([
      'Start',
      'Resume',
      'ResumeReview',
      'invoices-four-eyes:finance:Schedule',
      'invoices-four-eyes:finance:Window',
      'invoices-four-eyes:finance:Request',
      'invoices-four-eyes:finance:Apply',
      'invoices-four-eyes:finance:Next',
      'Compare',
      'Completed',
    ]);
  });
});
