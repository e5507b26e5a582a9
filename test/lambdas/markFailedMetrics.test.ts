import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { emfRecordsDuring, recordsOf } from '../support/emfRecords.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
let handler: unknown;
const policy = { confidenceThreshold: 80, maxRetries: 1, backoffBaseSeconds: 10, reviewTimeoutSeconds: 3600 };

beforeAll(async () => {
  // Metrics on: the test reads the EMF records the alarm and the dashboard are built on.
  env = await startStageEnvironment({ POWERTOOLS_METRICS_DISABLED: 'false' });
  ({ handler } = await import('../../lambdas/mark-failed/handler.js'));
});
afterAll(async () => {
  await env.close();
});

let requests = 0;
const markFailed = (workflowId: string, name: string) =>
  invokeInProcess<Record<string, unknown>>(handler, 'mark-failed', {
    workflowId,
    policy,
    error: {
      Error: name,
      Cause: JSON.stringify({ errorType: name, errorMessage: `boom (request r-${++requests})`, trace: [] }),
    },
  });

describe('mark-failed metrics: faults apart from outcomes', () => {
  it('counts a rejection after the last retry as RetriesExhausted (a fault), with no reason dimension', async () => {
    // Prepare: one retry allowed; the first failure is retried.
    const wf = await workflowIn(env.store, 'extracting');
    await emfRecordsDuring(() => markFailed(wf.id, 'BedrockThrottled'));
    // Act
    const { outcome, records } = await emfRecordsDuring(() => markFailed(wf.id, 'BedrockThrottled'));
    // Assess
    expect(outcome.value).toMatchObject({ decision: 'reject' });
    expect(recordsOf(records, 'RetriesExhausted')).toEqual([
      expect.objectContaining({ RetriesExhausted: 1, service: 'mark-failed', dimensions: [['service']] }),
    ]);
    expect(recordsOf(records, 'DocumentsRejected')).toEqual([]);
  });

  it('counts a permanent document error as DocumentsRejected by reason (an outcome), not as a fault', async () => {
    // Prepare
    const wf = await workflowIn(env.store, 'parsing_pdf');
    // Act
    const { outcome, records } = await emfRecordsDuring(() => markFailed(wf.id, 'CorruptPdf'));
    // Assess
    expect(outcome.value).toMatchObject({ decision: 'reject' });
    expect(recordsOf(records, 'DocumentsRejected')).toEqual([
      expect.objectContaining({
        DocumentsRejected: 1,
        reason: 'CorruptPdf',
        dimensions: [['service', 'reason']],
      }),
    ]);
    expect(recordsOf(records, 'RetriesExhausted')).toEqual([]);
  });

  it('counts neither while retries are left', async () => {
    const wf = await workflowIn(env.store, 'validating');
    const { records } = await emfRecordsDuring(() => markFailed(wf.id, 'DynamoThrottled'));
    expect(recordsOf(records, 'RetriesExhausted')).toEqual([]);
    expect(recordsOf(records, 'StageFailures')).toHaveLength(1);
  });
});
