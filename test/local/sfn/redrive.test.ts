import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  RedriveExecutionCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalStepFunctions } from '../../../local/sfn/localStepFunctions.js';
import { REDRIVE_PERIOD_MS } from '../../../local/sfn/redrive.js';
import { type SfnHttpServer, startSfnHttpServer } from '../../../local/sfn/sfnHttpServer.js';
import { ManualClock } from '../../support/manualClock.js';
import { LOCAL_CREDENTIALS, TEST_TIME_SCALE } from './support/sfnFixture.js';

const FN = 'arn:aws:lambda:us-east-1:123456789012:function';

/** Fetch -> Check -> Done: Check fails until the test heals it. */
const definition = (extra: object = {}) => ({
  StartAt: 'Fetch',
  States: {
    Fetch: { Type: 'Task', Resource: `${FN}:fetch`, Next: 'Check' },
    Check: {
      Type: 'Task',
      Resource: 'arn:aws:states:::lambda:invoke',
      Parameters: {
        FunctionName: `${FN}:check`,
        'Payload.$': '$',
      },
      OutputPath: '$.Payload',
      Next: 'Done',
    },
    Done: { Type: 'Pass', End: true, ...extra },
  },
});

const service = async (options: { dataDir?: string; clock?: ManualClock } = {}) => {
  const sfn = await LocalStepFunctions.open({ timeScale: TEST_TIME_SCALE, ...options });
  const calls = { fetch: [] as unknown[], check: [] as unknown[] };
  let failing = true;
  // While set, Check waits for it: the test decides when (and whether) Check answers.
  let held: Promise<void> | undefined;
  let release = () => {};
  sfn.registerFunction(`${FN}:fetch`, async (event: unknown) => {
    calls.fetch.push(event);
    return { fetched: true, n: (event as { n: number }).n };
  });
  sfn.registerFunction(`${FN}:check`, async (event: unknown) => {
    calls.check.push(event);
    if (held) await held;
    if (failing) throw Object.assign(new Error('the checker is down'), { name: 'CheckerDown' });
    return { checked: true };
  });
  const server: SfnHttpServer = await startSfnHttpServer(sfn);
  const client = new SFNClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
  });
  return {
    sfn,
    client,
    calls,
    heal: () => {
      failing = false;
    },
    hold: () => {
      held = new Promise<void>((resolve) => {
        release = () => {
          held = undefined;
          resolve();
        };
      });
    },
    release: () => release(),
    register: (extra?: object) =>
      sfn.registerStateMachine({ name: 'redrive', definition: definition(extra) }),
    close: async () => {
      client.destroy();
      await server.close();
      await sfn.close();
    },
  };
};

const closers: (() => Promise<void>)[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const failOnce = async (fx: Awaited<ReturnType<typeof service>>, arn: string) => {
  const { executionArn = '' } = await fx.client.send(
    new StartExecutionCommand({ stateMachineArn: arn, name: 'doc-1', input: JSON.stringify({ n: 7 }) }),
  );
  await fx.sfn.waitForExecution(executionArn, { timeoutMs: 30_000 });
  return executionArn;
};

describe('RedriveExecution on the local Step Functions endpoint', () => {
  it('continues a FAILED execution under its own ARN from the state that failed, with that state’s input', async () => {
    // Prepare
    const fx = await service();
    closers.push(fx.close);
    const executionArn = await failOnce(fx, fx.register());
    const failed = await fx.client.send(new DescribeExecutionCommand({ executionArn }));
    fx.heal();

    // Act
    const { redriveDate } = await fx.client.send(new RedriveExecutionCommand({ executionArn }));
    const closed = await fx.sfn.waitForExecution(executionArn, { timeoutMs: 30_000 });
    const { events = [] } = await fx.client.send(new GetExecutionHistoryCommand({ executionArn }));
    const redriven = await fx.client.send(
      new ListExecutionsCommand({ stateMachineArn: closed.stateMachineArn, redriveFilter: 'REDRIVEN' }),
    );

    // Assess: Fetch ran once; Check ran again with the input it had; one ARN, one history.
    expect(failed).toMatchObject({ status: 'FAILED', error: 'CheckerDown', redriveStatus: 'REDRIVABLE' });
    expect(redriveDate).toBeInstanceOf(Date);
    expect(closed).toMatchObject({ status: 'SUCCEEDED', output: '{"checked":true}', redriveCount: 1 });
    expect(closed.error).toBeUndefined();
    expect(fx.calls.fetch).toHaveLength(1);
    expect(fx.calls.check).toEqual([
      { fetched: true, n: 7 },
      { fetched: true, n: 7 },
    ]);
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'ExecutionRedriven')).toHaveLength(1);
    expect(types.indexOf('ExecutionFailed')).toBeLessThan(types.indexOf('ExecutionRedriven'));
    expect(types.at(-1)).toBe('ExecutionSucceeded');
    expect(redriven.executions?.map((e) => e.executionArn)).toEqual([executionArn]);
  });

  it('redrives an ABORTED execution from the Task it was stopped in', async () => {
    // Prepare: Check holds its answer; the execution is stopped while inside it.
    const fx = await service();
    closers.push(fx.close);
    const arn = fx.register();
    fx.heal();
    fx.hold();
    const { executionArn = '' } = await fx.client.send(
      new StartExecutionCommand({ stateMachineArn: arn, input: JSON.stringify({ n: 1 }) }),
    );
    await vi.waitFor(() => expect(fx.calls.check).toHaveLength(1), { timeout: 30_000 });
    await fx.client.send(new StopExecutionCommand({ executionArn, error: 'Operator' }));
    const stopped = await fx.sfn.waitForExecution(executionArn, { timeoutMs: 30_000 });
    fx.release();

    // Act
    await fx.client.send(new RedriveExecutionCommand({ executionArn }));
    const closed = await fx.sfn.waitForExecution(executionArn, { timeoutMs: 30_000 });

    // Assess: Fetch is not run again; Check is, with the input it was stopped with.
    expect(stopped).toMatchObject({ status: 'ABORTED', redriveStatus: 'REDRIVABLE' });
    expect(closed).toMatchObject({ status: 'SUCCEEDED', redriveCount: 1, output: '{"checked":true}' });
    expect(fx.calls.fetch).toHaveLength(1);
    expect(fx.calls.check).toEqual([
      { fetched: true, n: 1 },
      { fetched: true, n: 1 },
    ]);
  });

  it('refuses what AWS refuses, with AWS’s error name and reason', async () => {
    // Prepare: one succeeded execution, one failed more than 14 days ago (on the injected clock).
    const clock = new ManualClock();
    const fx = await service({ clock });
    closers.push(fx.close);
    const arn = fx.register();
    const old = await failOnce(fx, arn);
    await clock.advance(REDRIVE_PERIOD_MS + 1);
    fx.heal();
    const { executionArn: done = '' } = await fx.client.send(
      new StartExecutionCommand({ stateMachineArn: arn, input: JSON.stringify({ n: 3 }) }),
    );
    await fx.sfn.waitForExecution(done, { timeoutMs: 30_000 });

    // Act
    const attempt = (executionArn: string) =>
      fx.client.send(new RedriveExecutionCommand({ executionArn })).then(
        () => 'redriven',
        (error: Error) => `${error.name}: ${error.message}`,
      );
    const succeeded = await attempt(done);
    const expired = await attempt(old);
    const describedOld = await fx.client.send(new DescribeExecutionCommand({ executionArn: old }));

    // Assess
    expect(succeeded).toMatch(/^ExecutionNotRedrivable: .*Execution is SUCCEEDED and cannot be redriven\./);
    expect(expired).toMatch(/^ExecutionNotRedrivable: .*Execution redrivable period exceeded\./);
    expect(describedOld).toMatchObject({
      redriveStatus: 'NOT_REDRIVABLE',
      redriveStatusReason: 'Execution redrivable period exceeded.',
    });
  });

  it('after a restart, redrives on the same definition and refuses one that changed', async () => {
    // Prepare: a failed execution in a history on disk.
    const dataDir = mkdtempSync(join(tmpdir(), 'docket-redrive-'));
    dirs.push(dataDir);
    const first = await service({ dataDir });
    const executionArn = await failOnce(first, first.register());
    await first.close();

    // Act: the same definition after a restart, then a changed one after another.
    const same = await service({ dataDir });
    same.register();
    same.heal();
    await same.client.send(new RedriveExecutionCommand({ executionArn }));
    const closed = await same.sfn.waitForExecution(executionArn, { timeoutMs: 30_000 });
    await same.close();
    const changed = await service({ dataDir });
    closers.push(changed.close);
    changed.register({ Comment: 'a new version' });
    const described = await changed.client.send(new DescribeExecutionCommand({ executionArn }));

    // Assess: the redrive survived the restart in the history; a new definition refuses it.
    expect(closed).toMatchObject({ status: 'SUCCEEDED', redriveCount: 1 });
    expect(described).toMatchObject({
      status: 'SUCCEEDED',
      redriveCount: 1,
      redriveStatus: 'NOT_REDRIVABLE',
    });
  });
});
