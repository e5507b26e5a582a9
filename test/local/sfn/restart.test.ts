import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  SendTaskSuccessCommand,
} from '@aws-sdk/client-sfn';
import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../../local/sfn/historyFile.js';
import { RESTART_ERROR } from '../../../local/sfn/localStepFunctions.js';
import { startSfnFixture } from './support/sfnFixture.js';

const CHILD = fileURLToPath(new URL('./support/sfnChild.ts', import.meta.url));

interface ChildReport {
  done: string;
  waiting: string;
  token: string;
}

/** Runs the child service on `dataDir` until it reports, then kills it with SIGKILL. */
const runAndKill = async (dataDir: string): Promise<ChildReport> => {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_, signal) => resolve(signal)),
  );
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before reporting:\n${stderr}`)));
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return JSON.parse(first) as ChildReport;
};

describe('local Step Functions history across restarts', () => {
  const dirs: string[] = [];
  const closers: (() => Promise<void>)[] = [];

  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'docket-sfn-'));
    dirs.push(dir);
    return dir;
  };

  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('after kill -9, a new process lists and describes the old executions and closes the running one as ABORTED', async () => {
    // Prepare
    const dataDir = tempDir();
    const before = await runAndKill(dataDir);

    // Act
    const fx = await startSfnFixture({ dataDir });
    closers.push(fx.close);
    const listed = await fx.client.send(new ListExecutionsCommand({ stateMachineArn: fx.stateMachineArn }));
    const done = await fx.client.send(new DescribeExecutionCommand({ executionArn: before.done }));
    const waiting = await fx.client.send(new DescribeExecutionCommand({ executionArn: before.waiting }));
    const { events = [] } = await fx.client.send(
      new GetExecutionHistoryCommand({ executionArn: before.waiting }),
    );
    const oldToken = await fx.client
      .send(new SendTaskSuccessCommand({ taskToken: before.token, output: '{}' }))
      .then(
        () => 'accepted',
        (error: Error) => error.name,
      );

    // Assess
    expect(listed.executions?.map((e) => e.executionArn).sort()).toEqual(
      [before.done, before.waiting].sort(),
    );
    expect(done.status).toBe('SUCCEEDED');
    expect(waiting).toMatchObject({ status: 'ABORTED', error: RESTART_ERROR });
    expect(waiting.cause).toContain('resume');
    expect(events.map((e) => e.type)).toContain('TaskSubmitted');
    expect(events.at(-1)?.type).toBe('ExecutionAborted');
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
    expect(oldToken).toBe('InvalidToken');
  });

  it('keeps history through a graceful close and goes on appending to it', async () => {
    // Prepare
    const dataDir = tempDir();
    const first = await startSfnFixture({ dataDir });
    const finished = first.service.startExecution({
      stateMachineArn: first.stateMachineArn,
      input: '{"n":1}',
    });
    await first.service.waitForExecution(finished.executionArn ?? '', { timeoutMs: 10_000 });
    const historyBefore = first.service.getExecutionHistory({ executionArn: finished.executionArn }).events;
    first.stages.reviewRequired = true;
    const waiting = first.service.startExecution({
      stateMachineArn: first.stateMachineArn,
      input: '{"n":0}',
    });
    await first.stages.reviewToken(waiting.executionArn ?? '');
    const abandonedWait = first.service.waitForExecution(waiting.executionArn ?? '').then(
      () => 'resolved',
      (error: Error) => error.name,
    );
    await first.close();

    // Act
    const second = await startSfnFixture({ dataDir });
    closers.push(second.close);
    const next = second.service.startExecution({ stateMachineArn: second.stateMachineArn, input: '{"n":2}' });
    await second.service.waitForExecution(next.executionArn ?? '', { timeoutMs: 10_000 });
    const historyAfter = second.service.getExecutionHistory({ executionArn: finished.executionArn }).events;
    const listed = second.service.listExecutions({ stateMachineArn: second.stateMachineArn }).executions;

    // Assess
    expect(historyAfter).toEqual(historyBefore);
    expect(await abandonedWait).toBe('LocalStepFunctionsClosed');
    expect(listed?.map((e) => e.status)).toEqual(['SUCCEEDED', 'ABORTED', 'SUCCEEDED']);
  });

  it('drops a torn last line left by a crash in the middle of a write', async () => {
    // Prepare
    const dataDir = tempDir();
    const first = await startSfnFixture({ dataDir });
    const { executionArn = '' } = first.service.startExecution({ stateMachineArn: first.stateMachineArn });
    await first.service.waitForExecution(executionArn, { timeoutMs: 10_000 });
    await first.close();
    const file = join(dataDir, HISTORY_FILE);
    const intact = readFileSync(file, 'utf8');
    appendFileSync(file, '{"k":"event","executionArn":"arn:aws:states:us-east-1:1234');

    // Act
    const second = await startSfnFixture({ dataDir });
    closers.push(second.close);

    // Assess
    expect(second.service.describeExecution({ executionArn }).status).toBe('SUCCEEDED');
    expect(readFileSync(file, 'utf8')).toBe(intact);
  });
});
