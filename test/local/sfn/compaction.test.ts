import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSED_INDEX_FILE, segmentFile } from '../../../local/sfn/closedExecutions.js';
import { HISTORY_FILE } from '../../../local/sfn/historyFile.js';
import { LocalStepFunctions } from '../../../local/sfn/localStepFunctions.js';

// Fails when the input asks to, so some executions close FAILED (redrivable) and some SUCCEEDED.
const DEFINITION = {
  StartAt: 'Check',
  States: {
    Check: {
      Type: 'Choice',
      Choices: [{ Variable: '$.fail', BooleanEquals: true, Next: 'Boom' }],
      Default: 'Done',
    },
    Done: { Type: 'Pass', Result: { ok: true }, End: true },
    Boom: { Type: 'Fail', Error: 'Boom', Cause: 'the input asked to fail' },
  },
};

const dirs: string[] = [];
const services: LocalStepFunctions[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'docket-sfn-compaction-'));
  dirs.push(dir);
  return dir;
};

const open = async (dataDir: string) => {
  const service = await LocalStepFunctions.open({ dataDir });
  services.push(service);
  const stateMachineArn = service.registerStateMachine({ name: 'compaction', definition: DEFINITION });
  return { service, stateMachineArn };
};

const close = async (service: LocalStepFunctions) => {
  services.splice(services.indexOf(service), 1);
  await service.close();
};

/** Runs `count` executions to their end (every third one fails) and returns their ARNs. */
const runExecutions = async (service: LocalStepFunctions, stateMachineArn: string, count: number) => {
  const arns: string[] = [];
  for (let i = 0; i < count; i++) {
    const { executionArn = '' } = service.startExecution({
      stateMachineArn,
      name: `run-${i}`,
      input: JSON.stringify({ n: i, fail: i % 3 === 0 }),
    });
    await service.waitForExecution(executionArn, { timeoutMs: 10_000 });
    arns.push(executionArn);
  }
  // The journal is written once per event-loop turn.
  await new Promise((resolve) => setImmediate(resolve));
  return arns;
};

/** Everything the API answers about the executions: every page of the list, descriptions, histories. */
const snapshot = (service: LocalStepFunctions, stateMachineArn: string) => {
  const pages = [];
  let nextToken: string | undefined;
  do {
    const page = service.listExecutions({ stateMachineArn, maxResults: 2, nextToken });
    pages.push(page.executions);
    nextToken = page.nextToken;
  } while (nextToken);
  const arns = pages.flat().map((e) => e?.executionArn ?? '');
  return {
    pages,
    described: arns.map((executionArn) => service.describeExecution({ executionArn })),
    histories: arns.map((executionArn) => service.getExecutionHistory({ executionArn, maxResults: 1000 })),
  };
};

describe('compacted history of the local Step Functions', () => {
  it('starts without replaying closed executions and reads a history only when one is asked for', async () => {
    // Prepare
    const dataDir = tempDir();
    const first = await open(dataDir);
    const arns = await runExecutions(first.service, first.stateMachineArn, 6);
    const historyBefore = first.service.getExecutionHistory({ executionArn: arns[1] }).events;
    await close(first.service);

    // Act
    const second = await open(dataDir);
    const atStart = second.service.storageStats();
    const listed = second.service.listExecutions({ stateMachineArn: second.stateMachineArn });
    const afterList = second.service.storageStats();
    const historyAfter = second.service.getExecutionHistory({ executionArn: arns[1] }).events;

    // Assess
    expect(atStart).toEqual({ replayedAtOpen: 0, indexLoaded: false, historiesRead: 0 });
    expect(listed.executions).toHaveLength(6);
    expect(afterList).toEqual({ replayedAtOpen: 0, indexLoaded: true, historiesRead: 0 });
    expect(historyAfter).toEqual(historyBefore);
    expect(second.service.storageStats().historiesRead).toBe(1);
  });

  it('answers ListExecutions, DescribeExecution and GetExecutionHistory as before compaction', async () => {
    // Prepare
    const dataDir = tempDir();
    const first = await open(dataDir);
    await runExecutions(first.service, first.stateMachineArn, 7);
    const before = snapshot(first.service, first.stateMachineArn);
    await close(first.service);

    // Act
    const second = await open(dataDir);
    const after = snapshot(second.service, second.stateMachineArn);

    // Assess
    expect(after).toEqual(before);
    expect(readFileSync(join(dataDir, HISTORY_FILE), 'utf8')).toBe('');
  });

  it('redrives a compacted execution and keeps its whole history through the next restart', async () => {
    // Prepare
    const dataDir = tempDir();
    const first = await open(dataDir);
    const [failed = ''] = await runExecutions(first.service, first.stateMachineArn, 1);
    await close(first.service);
    const second = await open(dataDir);

    // Act
    second.service.redriveExecution({ executionArn: failed });
    await second.service.waitForExecution(failed, { timeoutMs: 10_000 });
    const history = second.service.getExecutionHistory({ executionArn: failed, maxResults: 1000 }).events;
    await close(second.service);
    const third = await open(dataDir);

    // Assess
    const types = history?.map((e) => e.type);
    expect(types?.filter((t) => t === 'ExecutionFailed')).toHaveLength(2);
    expect(types?.indexOf('ExecutionRedriven')).toBeGreaterThan(types?.indexOf('ExecutionFailed') ?? -1);
    expect(third.service.describeExecution({ executionArn: failed }).redriveCount).toBe(1);
    expect(third.service.getExecutionHistory({ executionArn: failed, maxResults: 1000 }).events).toEqual(
      history,
    );
  });

  // What a kill -9 can leave at each step of a compaction: the journal is replaced last, so every
  // earlier state still holds the whole journal next to part of what the compaction wrote.
  const crashStates: [string, (dataDir: string, index: string) => void][] = [
    [
      'while the segment is written',
      (dataDir) => writeFileSync(join(dataDir, `${segmentFile(1)}.tmp`), '{"identity":{"execu'),
    ],
    ['after the segment is renamed, before the index append', () => undefined],
    [
      'during the index append',
      (dataDir, index) => {
        writeFileSync(join(dataDir, CLOSED_INDEX_FILE), index);
        truncateSync(join(dataDir, CLOSED_INDEX_FILE), index.length - 20);
      },
    ],
    [
      'after the index append, before the journal is replaced',
      (dataDir, index) => writeFileSync(join(dataDir, CLOSED_INDEX_FILE), index),
    ],
  ];

  it.each(crashStates)('restarts with nothing lost or doubled after a kill %s', async (_, crashAt) => {
    // Prepare: a journal of closed executions as a kill -9 leaves it, and what compacting it writes.
    const dataDir = tempDir();
    const first = await open(dataDir);
    await runExecutions(first.service, first.stateMachineArn, 5);
    const expected = snapshot(first.service, first.stateMachineArn);
    const journal = readFileSync(join(dataDir, HISTORY_FILE), 'utf8');
    await close(first.service);
    const index = readFileSync(join(dataDir, CLOSED_INDEX_FILE), 'utf8');
    rmSync(join(dataDir, CLOSED_INDEX_FILE));
    writeFileSync(join(dataDir, HISTORY_FILE), journal);
    crashAt(dataDir, index);

    // Act
    const second = await open(dataDir);
    const afterCrash = snapshot(second.service, second.stateMachineArn);
    await close(second.service);
    const third = await open(dataDir);

    // Assess
    expect(afterCrash).toEqual(expected);
    expect(snapshot(third.service, third.stateMachineArn)).toEqual(expected);
    expect(third.service.storageStats().replayedAtOpen).toBe(0);
    expect(existsSync(join(dataDir, segmentFile(1)))).toBe(true);
  });
});
