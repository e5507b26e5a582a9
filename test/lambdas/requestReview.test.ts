import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ArmResult,
  armReviewTask,
  type ReviewDecision,
  recordDecision,
} from '../../lambdas/shared/review/index.js';
import { LocalStepFunctions } from '../../local/sfn/localStepFunctions.js';
import { type SfnHttpServer, startSfnHttpServer } from '../../local/sfn/sfnHttpServer.js';
import { type AslTaskState, buildDefinition, STAGES, type StagePolicy } from '../../statemachine/index.js';
import { STAGE_ARNS } from '../local/sfn/support/sfnFixture.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { eventually } from '../support/e2e.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';
import { StoreWithRival } from '../support/storeWithRival.js';

const policy: StagePolicy = {
  confidenceThreshold: 80,
  maxRetries: 3,
  backoffBaseSeconds: 10,
  reviewTimeoutSeconds: 3600,
};
const REVIEW_TASK = STAGES['request-review'].task;

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
let service: LocalStepFunctions;
let server: SfnHttpServer;
let sfn: SFNClient;
let store: StoreWithRival;
let stateMachineArn: string;
const results: ArmResult[] = [];

beforeAll(async () => {
  env = await startStageEnvironment();
  store = new StoreWithRival({ client: env.documentClient, tables: env.dynamo.tables });
  service = await LocalStepFunctions.open({});
  server = await startSfnHttpServer(service);
  sfn = new SFNClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // The review Task exactly as the workflow definition has it, ending the execution with its
  // output: whatever answers the task token decides what apply-review would receive.
  const {
    Catch: _catch,
    Next: _next,
    ...reviewTask
  } = buildDefinition(STAGE_ARNS, policy).States[REVIEW_TASK] as AslTaskState;
  stateMachineArn = service.registerStateMachine({
    name: 'review-only',
    definition: { StartAt: REVIEW_TASK, States: { [REVIEW_TASK]: { ...reviewTask, End: true } } },
  });
  service.registerFunction(STAGE_ARNS['request-review'], async (event: unknown) => {
    const result = await armReviewTask(
      { store, sfn, now: () => new Date() },
      event as Parameters<typeof armReviewTask>[1],
    );
    results.push(result);
    return result;
  });
});

afterAll(async () => {
  sfn?.destroy();
  await server?.close();
  await service?.close();
  await env?.close();
});

/** A workflow waiting for review under the token of an earlier execution (now stopped). */
const armedReview = async () => {
  const wf = await workflowIn(env.store, 'review_required');
  await armReviewTask(
    { store: env.store, sfn, now: () => new Date() },
    { workflowId: wf.id, taskToken: 'token-of-the-stopped-execution', policy },
  );
  return wf;
};

/** The review API's decision write: the outbox record, conditions and all. */
const decide = async (workflowId: string, decision: ReviewDecision) =>
  (await recordDecision(env.store, { id: workflowId, tenant: 'acme' }, decision)).written;

/** What schedule-review hands the review Task before it starts. */
const reviewWindow = { heartbeatSeconds: 3600, expired: false };

/** Runs the review Task for the workflow, as a resume does; the execution's end or a timeout. */
const runReviewTask = async (workflowId: string) => {
  const { executionArn = '' } = await sfn.send(
    new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ workflowId, reviewWindow }) }),
  );
  return service.waitForExecution(executionArn, { timeoutMs: 5_000 });
};

describe('request-review of a review already decided', () => {
  it('answers a task re-armed after the decision write with that decision, and keeps the token the API got', async () => {
    // Prepare: the resumed review Task's request-review reads the item before alice's decision
    // write, and its token write comes after it.
    const wf = await armedReview();
    const decision: ReviewDecision = {
      decision: 'correct',
      reviewer: 'alice',
      at: new Date().toISOString(),
      corrections: { contractNumber: 'C-1' },
    };
    let tokenTheApiGot: string | undefined;
    store.rival = async () => {
      tokenTheApiGot = (await decide(wf.id, decision)).reviewTaskToken;
    };

    // Act
    const execution = await runReviewTask(wf.id);

    // Assess: the workflow goes on with alice's decision, in the shape the API sends it.
    expect(store.rival).toBeUndefined();
    expect(execution.status).toBe('SUCCEEDED');
    expect(JSON.parse(execution.output ?? '{}').review).toEqual(decision);
    // The task is answered before request-review returns: its answer arrives a moment later.
    expect(
      await eventually('request-review to return', async () => results.find((r) => r.workflowId === wf.id)),
    ).toMatchObject({ redelivered: true });
    const item = await env.store.get(wf.id);
    expect(item.reviewTaskToken).toBe(tokenTheApiGot);
    expect(item.review?.decision).toEqual(decision);
  });

  it('answers a task that arrives after the decision at once and stores no token', async () => {
    // Prepare
    const wf = await armedReview();
    const decision: ReviewDecision = {
      decision: 'reject',
      reviewer: 'bob',
      at: new Date().toISOString(),
      reason: 'duplicate',
    };
    await decide(wf.id, decision);

    // Act
    const execution = await runReviewTask(wf.id);

    // Assess
    expect(execution.status).toBe('SUCCEEDED');
    expect(JSON.parse(execution.output ?? '{}').review).toEqual(decision);
    expect((await env.store.get(wf.id)).reviewTaskToken).toBe('token-of-the-stopped-execution');
  });

  it('stores the token of a review not decided and leaves the task waiting', async () => {
    // Prepare
    const wf = await armedReview();

    // Act
    const { executionArn = '' } = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn,
        input: JSON.stringify({ workflowId: wf.id, reviewWindow }),
      }),
    );
    const token = await eventually(
      'the new token to be stored',
      async () => {
        const stored = (await env.store.get(wf.id)).reviewTaskToken;
        return stored !== 'token-of-the-stopped-execution' ? stored : undefined;
      },
      { timeoutMs: 5_000, intervalMs: 20 },
    );

    // Assess
    expect(token).toEqual(expect.any(String));
    expect((await service.describeExecution({ executionArn })).status).toBe('RUNNING');
    expect(
      await eventually('request-review to return', async () => results.find((r) => r.workflowId === wf.id)),
    ).toEqual({ workflowId: wf.id, dueAt: expect.any(String) });
  });
});
