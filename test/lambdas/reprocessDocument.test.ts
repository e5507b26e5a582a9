import { ListExecutionsCommand, SFNClient } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reprocessDocument } from '../../lambdas/reprocess/reprocessDocument.js';
import { ExecutionSlots } from '../../lambdas/shared/slots/index.js';
import { WorkflowOutbox } from '../../lambdas/shared/store/index.js';
import { LocalStepFunctions } from '../../local/sfn/localStepFunctions.js';
import { type SfnHttpServer, startSfnHttpServer } from '../../local/sfn/sfnHttpServer.js';
import { LOCAL_CREDENTIALS, TEST_TIME_SCALE } from '../local/sfn/support/sfnFixture.js';
import { completedWithRetry, workflowIn } from '../support/driveWorkflow.js';
import { startStoreFixture } from '../support/localDynamo.js';
import { useFixture } from '../support/useFixture.js';

/*
 * The reprocess function against the real store (dynalite) and the local Step Functions: what it
 * refuses and why, and that a repeated request of one batch starts one run.
 */

const fixture = useFixture(startStoreFixture);
let service: LocalStepFunctions;
let server: SfnHttpServer;
let sfn: SFNClient;
let stateMachineArn: string;

beforeAll(async () => {
  service = await LocalStepFunctions.open({ timeScale: TEST_TIME_SCALE });
  server = await startSfnHttpServer(service);
  sfn = new SFNClient({ endpoint: server.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  // The document machine's stages are not what this tests: a rerun's execution only has to start.
  stateMachineArn = service.registerStateMachine({
    name: 'docket',
    definition: { StartAt: 'Started', States: { Started: { Type: 'Pass', End: true } } },
  });
});
afterAll(async () => {
  sfn?.destroy();
  await server?.close();
  await service?.close();
});

const deps = () => ({ store: fixture.store, sfn, stateMachineArn });
const request = (workflowId: string, batch = 'b1') => ({ workflowId, batch, requestedBy: 'ops' });

/** A completed workflow whose completion event was delivered: one `reprocess` may take. */
const deliveredCompletion = async (name: string) => {
  const id = await completedWithRetry(fixture.store, 'acme', `${name}-${Date.now()}`);
  await fixture.store.update(id, { 'artifacts.extraction': `artifacts/${id}/extraction.json` });
  const done = await fixture.store.get(id);
  const outbox = new WorkflowOutbox(fixture.client, fixture.dynamo.tables.workflows);
  for (const eventId of Object.keys(done.outbox ?? {})) await outbox.clear(done, eventId);
  return id;
};

describe('reprocessDocument', () => {
  it('skips, with the reason, what cannot run again: unknown, unfinished, an event still owed', async () => {
    // Prepare
    const inReview = await workflowIn(fixture.store, 'review_required');
    const owed = await completedWithRetry(fixture.store, 'acme', `owed-${Date.now()}`);

    // Act
    const outcomes = await Promise.all([
      reprocessDocument(deps(), request('wf-nope')),
      reprocessDocument(deps(), request(inReview.id)),
      reprocessDocument(deps(), request(owed)),
    ]);

    // Assess: skipped, nothing moved.
    expect(outcomes.map((o) => (o.status === 'skipped' ? o.reason : o.status))).toEqual([
      'there is no such workflow',
      'it is review_required; only completed documents are reprocessed',
      'its completion event is still being delivered; run the reprocess again shortly',
    ]);
    expect((await fixture.store.get(owed)).state).toBe('completed');
  });

  it('runs a completed document again once per batch, however often the request comes', async () => {
    // Prepare: completed, its event delivered.
    const id = await deliveredCompletion('rerun');

    // Act: the Map retries an item; a later batch runs it once more.
    const first = await reprocessDocument(deps(), request(id));
    const repeated = await reprocessDocument(deps(), request(id));

    // Assess
    expect(first).toEqual({ workflowId: id, status: 'started', run: 1 });
    expect(repeated).toEqual(first);
    const item = await fixture.store.get(id);
    expect(item).toMatchObject({
      state: 'parsing_pdf',
      run: 1,
      reprocess: {
        run: 1,
        batch: 'b1',
        requestedBy: 'ops',
        previous: { run: 0, record: `artifacts/${id}/extraction.json` },
      },
      artifacts: {},
    });
    const entries = (await fixture.store.history(id)).filter((e) => e.event === 'reprocess');
    expect(entries).toEqual([
      expect.objectContaining({ from: 'completed', to: 'parsing_pdf', actor: 'ops' }),
    ]);
    const { executions = [] } = await sfn.send(new ListExecutionsCommand({ stateMachineArn }));
    expect(executions.filter((e) => e.name?.startsWith(id)).map((e) => e.name)).toEqual([
      `${id}-resume-run-1`,
    ]);
  });

  it('waits for an execution slot like an upload, and starts once one is free', async () => {
    // Prepare: one slot, held by an upload's execution.
    const id = await deliveredCompletion('slotted');
    const table = fixture.dynamo.tables.workflows;
    const slots = new ExecutionSlots({ client: fixture.client, table, limit: 1 });
    await slots.take('an-upload');

    // Act
    const waiting = reprocessDocument({ ...deps(), slots }, request(id, 'b2'));
    await expect(waiting).rejects.toMatchObject({ name: 'SlotsFull', retryable: true });
    const before = await sfn.send(new ListExecutionsCommand({ stateMachineArn }));
    await slots.release('an-upload');
    const retried = await reprocessDocument({ ...deps(), slots }, request(id, 'b2'));

    // Assess: the transition happened once, the execution started only with its slot.
    expect(before.executions?.some((e) => e.name?.startsWith(id))).toBe(false);
    expect(retried).toEqual({ workflowId: id, status: 'started', run: 1 });
    expect((await slots.holders()).map((h) => h.name)).toEqual([`${id}-resume-run-1`]);
    expect((await fixture.store.history(id)).filter((e) => e.event === 'reprocess')).toHaveLength(1);
  });
});
