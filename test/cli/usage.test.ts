import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Endpoints } from '../../local/endpoints.js';
import { oneLine } from './support/oneLine.js';
import { docket } from './support/runDocket.js';

/*
 * What docket answers with no stack to work on: help on every command, usage errors, and a stack
 * that was never started, has stopped or cannot be reached.
 */

/** The endpoints file of a stack nobody runs: every service at a port where nothing listens. */
const NOBODY: Endpoints = {
  s3: 'http://127.0.0.1:9',
  dynamodb: 'http://127.0.0.1:9',
  sfn: 'http://127.0.0.1:9',
  sqs: 'http://127.0.0.1:9',
  events: 'http://127.0.0.1:9',
  eventBus: 'docket-local',
  eventSink: '/nowhere/events.jsonl',
  queues: { uploads: 'http://127.0.0.1:9/000000000000/u', deadLetters: 'http://127.0.0.1:9/000000000000/d' },
  api: 'http://127.0.0.1:9',
  console: 'http://127.0.0.1:9',
  bucket: 'docket-documents',
  tables: { workflows: 'docket-workflows', transitions: 'docket-transitions', providers: 'docket-providers' },
  stateMachineArn: 'arn:aws:states:us-east-1:123456789012:stateMachine:docket',
  region: 'us-east-1',
  pid: 0,
};

describe('docket help', () => {
  it('has --help on every command', async () => {
    // Prepare
    const commands = [
      [],
      ['samples'],
      ['token', 'create'],
      ['upload'],
      ['ls'],
      ['show'],
      ['history'],
      ['reviews'],
      ['review'],
      ['retry'],
      ['cancel'],
      ['providers', 'import'],
      ['providers', 'ls'],
      ['ledger', 'verify'],
      ['ledger', 'stats'],
      ['ledger', 'export'],
      ['watch'],
      ['events'],
    ];

    // Act
    const runs = await Promise.all(commands.map((c) => docket([...c, '--help'])));

    // Assess
    for (const [i, result] of runs.entries()) {
      expect(result.code, commands[i]?.join(' ')).toBe(0);
      expect(result.stdout).toMatch(/^Usage: docket/);
    }
  });
});

describe('docket without a running stack', () => {
  it('says there is no stack, or that it stopped, or that it cannot be reached', async () => {
    // Prepare
    const never = await mkdtemp(join(tmpdir(), 'docket-none-'));
    const stopped = await mkdtemp(join(tmpdir(), 'docket-stopped-'));
    const { pid: deadPid } = spawnSync(process.execPath, ['-e', '']);
    await writeFile(join(stopped, 'endpoints.json'), JSON.stringify({ ...NOBODY, pid: deadPid }));
    const unreachable = await mkdtemp(join(tmpdir(), 'docket-unreachable-'));
    await mkdir(unreachable, { recursive: true });
    const closedPort = 'http://127.0.0.1:9';
    await writeFile(
      join(unreachable, 'endpoints.json'),
      JSON.stringify({ ...NOBODY, dynamodb: closedPort, pid: process.pid }),
    );

    // Act
    const none = await docket(['ls', '--data-dir', never]);
    const gone = await docket(['reviews', '--data-dir', stopped]);
    const refused = await docket(['ls', '--data-dir', unreachable, '--json']);
    const token = await docket([
      'token',
      'create',
      '--user',
      'a',
      '--role',
      'reviewer',
      '--tenant',
      't',
      '--data-dir',
      never,
    ]);

    // Assess
    for (const result of [none, gone, refused, token]) {
      expect(result.code).toBe(1);
      oneLine(result.stderr);
      expect(result.stdout).toBe('');
    }
    expect(none.stderr).toContain(`No local stack in ${never}`);
    expect(token.stderr).toContain(`No local stack in ${never}`);
    expect(gone.stderr).toContain(`is not running (process ${deadPid} has exited)`);
    expect(refused.stderr).toMatch(/cannot reach the stack \(ECONNREFUSED\)/);
  });

  it('answers a usage error with one line and exit status 2', async () => {
    // Act
    const unknown = await docket(['frobnicate']);
    const badState = await docket(['ls', '--state', 'sleeping']);

    // Assess
    for (const result of [unknown, badState]) {
      expect(result.code).toBe(2);
      oneLine(result.stderr);
    }
    expect(badState.stderr).toContain("'sleeping' is invalid");
  });
});
