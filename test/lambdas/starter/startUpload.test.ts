import { DescribeExecutionCommand, SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionSlots } from '../../../lambdas/shared/slots/index.js';
import { createTableInput, WORKFLOWS_TABLE } from '../../../lambdas/shared/store/index.js';
import { uploadWorkflowId } from '../../../lambdas/shared/uploadIdentity.js';
import { abandonedUpload } from '../../../lambdas/starter/abandoned.js';
import { SlotsFullError, StartFailedError } from '../../../lambdas/starter/errors.js';
import { type StarterDeps, startUpload } from '../../../lambdas/starter/startUpload.js';
import { objectCreatedEvent } from '../../../local/events/objectCreatedEvent.js';
import { LocalStepFunctions } from '../../../local/sfn/localStepFunctions.js';
import { type SfnHttpServer, startSfnHttpServer } from '../../../local/sfn/sfnHttpServer.js';
import { startStoreFixture } from '../../support/localDynamo.js';

let store: Awaited<ReturnType<typeof startStoreFixture>>;
let sfnService: LocalStepFunctions;
let sfnServer: SfnHttpServer;
let sfn: SFNClient;
/** Runs until told: a Task on a callback that never comes keeps the execution RUNNING. */
let holdingArn: string;
/** Ends at once. */
let passingArn: string;
let tables = 0;

beforeAll(async () => {
  store = await startStoreFixture();
  sfnService = await LocalStepFunctions.open({});
  holdingArn = sfnService.registerStateMachine({
    name: 'holding',
    definition: { StartAt: 'Hold', States: { Hold: { Type: 'Wait', Seconds: 3600, End: true } } },
  });
  passingArn = sfnService.registerStateMachine({
    name: 'passing',
    definition: { StartAt: 'Done', States: { Done: { Type: 'Succeed' } } },
  });
  sfnServer = await startSfnHttpServer(sfnService);
  sfn = new SFNClient({
    endpoint: sfnServer.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});
afterAll(async () => {
  sfn.destroy();
  await sfnServer.close();
  await sfnService.close();
  await store.close();
});

/** A starter on a fresh slots table, over the real local Step Functions and dynalite. */
const starterWith = async (options: { limit: number; stateMachineArn?: string }) => {
  const table = `starter-${tables++}`;
  await store.createTable(createTableInput(WORKFLOWS_TABLE, table));
  const slots = new ExecutionSlots({ client: store.client, table, limit: options.limit });
  const deadLetters: { reason: string; event: unknown }[] = [];
  let now = 0;
  const deps: StarterDeps = {
    sfn,
    slots,
    stateMachineArn: options.stateMachineArn ?? holdingArn,
    limit: options.limit,
    deadLetter: async (reason, event) => {
      deadLetters.push({ reason, event });
    },
    reconcile: async () => undefined,
    abandoned: abandonedUpload({
      sfn,
      store: store.store,
      stateMachineArn: options.stateMachineArn ?? holdingArn,
    }),
    // An injected clock: a sleep advances it, so waiting for a slot costs no real time.
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  };
  return { deps, slots, deadLetters, advance: (ms: number) => (now += ms) };
};

const upload = (key: string, sequencer = '0001') =>
  JSON.stringify(objectCreatedEvent({ bucket: 'docs', key, size: 10, sequencer }));

describe('startUpload over the local Step Functions and dynalite', () => {
  it('starts one execution named by the workflow id and holds a slot for it', async () => {
    // Prepare
    const { deps, slots } = await starterWith({ limit: 5 });
    const body = upload('incoming/acme/a.pdf');

    // Act
    const outcome = await startUpload(deps, { body, receiveCount: 1, deadline: 1_000 });

    // Assess
    const name = uploadWorkflowId('docs', { key: 'incoming/acme/a.pdf', sequencer: '0001' });
    expect(outcome).toMatchObject({ kind: 'started', name });
    const execution = await sfn.send(
      new DescribeExecutionCommand({ executionArn: (outcome as { executionArn: string }).executionArn }),
    );
    expect(execution).toMatchObject({ name, status: 'RUNNING', input: body });
    expect((await slots.holders()).map((h) => h.name)).toEqual([name]);
  });

  it('treats a second delivery as the same upload: no second execution, no second slot', async () => {
    // Prepare
    const { deps, slots } = await starterWith({ limit: 5 });
    const body = upload('incoming/acme/b.pdf');
    const first = await startUpload(deps, { body, receiveCount: 1, deadline: 1_000 });

    // Act
    const second = await startUpload(deps, { body, receiveCount: 2, deadline: 1_000 });

    // Assess: StartExecution with the same name and input while it runs returns the same execution.
    expect(second).toEqual(first);
    expect(await slots.holders()).toHaveLength(1);
  });

  it('gives the slot back when the execution of that name already closed (a late duplicate)', async () => {
    // Prepare
    const { deps, slots } = await starterWith({ limit: 5, stateMachineArn: passingArn });
    const body = upload('incoming/acme/c.pdf');
    const first = await startUpload(deps, { body, receiveCount: 1, deadline: 1_000 });
    await sfnService.waitForExecution((first as { executionArn: string }).executionArn);
    await slots.release((first as { name: string }).name);

    // Act: the same event again, with other text (another EventBridge id) so the input differs.
    const again = await startUpload(deps, {
      body: upload('incoming/acme/c.pdf').replace('"version":"0"', '"version":"0" '),
      receiveCount: 1,
      deadline: 1_000,
    });

    // Assess
    expect(again).toMatchObject({ kind: 'duplicate' });
    expect(await slots.holders()).toHaveLength(0);
  });

  it('runs an upload again under a new name when its execution was cut short before ingest', async () => {
    // Prepare: the first execution of the upload is stopped before it made a workflow.
    const { deps, slots } = await starterWith({ limit: 5 });
    const body = upload('incoming/acme/g.pdf');
    const first = (await startUpload(deps, { body, receiveCount: 1, deadline: 1_000 })) as {
      executionArn: string;
      name: string;
    };
    await sfn.send(new StopExecutionCommand({ executionArn: first.executionArn }));
    await slots.release(first.name);

    // Act
    const again = await startUpload(deps, { body, receiveCount: 2, deadline: 1_000 });

    // Assess
    expect(again).toMatchObject({
      kind: 'started',
      name: expect.stringMatching(new RegExp(`^${first.name}-rerun-\\d+$`)),
    });
    expect((await slots.holders()).map((h) => h.name)).toEqual([(again as { name: string }).name]);
  });

  it('runs a redriven upload as a new execution of the same workflow id, and ignores a mark that is no timestamp', async () => {
    // Prepare
    const { deps } = await starterWith({ limit: 5 });
    const body = upload('incoming/acme/h.pdf');
    const workflowId = uploadWorkflowId('docs', { key: 'incoming/acme/h.pdf', sequencer: '0001' });

    // Act
    const redriven = await startUpload(deps, {
      body,
      receiveCount: 1,
      deadline: 1_000,
      redrive: '1700000000000',
    });
    const forged = await startUpload(deps, { body, receiveCount: 1, deadline: 1_000, redrive: 'x; rm -rf' });

    // Assess
    expect(redriven).toMatchObject({ kind: 'started', name: `${workflowId}-redrive-1700000000000` });
    expect(forged).toMatchObject({ kind: 'started', name: workflowId });
  });

  it('dead-letters an event it cannot read, with the reason, and takes no slot', async () => {
    // Prepare
    const { deps, slots, deadLetters } = await starterWith({ limit: 5 });

    // Act
    const notJson = await startUpload(deps, { body: '{"detail":', receiveCount: 1, deadline: 1_000 });
    const notAnUpload = await startUpload(deps, { body: '{"detail":{}}', receiveCount: 1, deadline: 1_000 });

    // Assess
    expect(notJson).toMatchObject({ kind: 'deadLettered', reason: expect.stringMatching(/^not JSON/) });
    expect(notAnUpload).toMatchObject({
      kind: 'deadLettered',
      reason: expect.stringContaining('Object Created'),
    });
    expect(deadLetters.map((d) => d.event)).toEqual(['{"detail":', { detail: {} }]);
    expect(await slots.holders()).toHaveLength(0);
  });

  it('waits for a slot until the deadline, then leaves the upload queued (SlotsFull)', async () => {
    // Prepare: the one slot is held by another upload.
    const { deps, slots } = await starterWith({ limit: 1 });
    await startUpload(deps, { body: upload('incoming/acme/d1.pdf'), receiveCount: 1, deadline: 1_000 });

    // Act
    const waiting = startUpload(deps, {
      body: upload('incoming/acme/d2.pdf'),
      receiveCount: 1,
      deadline: 5_000,
    });

    // Assess
    await expect(waiting).rejects.toBeInstanceOf(SlotsFullError);
    expect(await slots.holders()).toHaveLength(1);
  });

  it('starts as soon as a release frees a slot while it waits', async () => {
    // Prepare
    const { deps, slots } = await starterWith({ limit: 1 });
    const held = await startUpload(deps, {
      body: upload('incoming/acme/e1.pdf'),
      receiveCount: 1,
      deadline: 1_000,
    });
    let sleeps = 0;
    const sleep = deps.sleep;
    deps.sleep = async (ms) => {
      sleeps += 1;
      // The execution holding the slot closes during the third pause.
      if (sleeps === 3) await slots.release((held as { name: string }).name);
      await sleep(ms);
    };

    // Act
    const outcome = await startUpload(deps, {
      body: upload('incoming/acme/e2.pdf'),
      receiveCount: 1,
      deadline: 60_000,
    });

    // Assess
    expect(outcome).toMatchObject({ kind: 'started' });
    expect(sleeps).toBe(3);
  });

  it('gives the slot back when StartExecution fails, and dead-letters after the last attempt', async () => {
    // Prepare: a state machine that does not exist.
    const missing = holdingArn.replace(':holding', ':nothing-here');
    const { deps, slots, deadLetters } = await starterWith({ limit: 2, stateMachineArn: missing });
    const body = upload('incoming/acme/f.pdf');

    // Act
    const early = startUpload(deps, { body, receiveCount: 1, deadline: 1_000 });
    await expect(early).rejects.toBeInstanceOf(StartFailedError);
    const last = await startUpload(deps, { body, receiveCount: 8, deadline: 1_000 });

    // Assess
    expect(last).toMatchObject({
      kind: 'deadLettered',
      reason: expect.stringContaining('StateMachineDoesNotExist'),
    });
    expect(deadLetters).toHaveLength(1);
    expect(await slots.holders()).toHaveLength(0);
  });
});
