import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoints } from '../../local/endpoints.js';
import { eventually } from '../support/e2e.js';
import { docket } from './support/runDocket.js';

const BIN = join(process.cwd(), 'bin', 'docket.js');
const env = { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' };

/** Runs bin/docket.js as a user would, and collects what it printed. */
const spawnDocket = (args: string[], cwd = process.cwd()) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let dataDir: string;
let work: string;
let start: ChildProcess;
let endpoints: Endpoints;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docket-start-'));
  work = await mkdtemp(join(tmpdir(), 'docket-start-work-'));
  // Started from another directory, as `npx docket start` may be.
  start = spawn(process.execPath, [BIN, 'start', '--data-dir', dataDir, '--ports', 'auto', '--json'], {
    cwd: work,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  endpoints = await new Promise<Endpoints>((resolve, reject) => {
    createInterface({ input: start.stdout as NodeJS.ReadableStream }).once('line', (line) =>
      resolve(JSON.parse(line) as Endpoints),
    );
    start.once('exit', (code) => reject(new Error(`docket start exited with ${code}`)));
  });
}, 60_000);

afterAll(async () => {
  if (start.exitCode === null) start.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

describe('bin/docket.js', () => {
  it('starts the local runtime in a child process and passes options through', async () => {
    // Act
    const help = await spawnDocket(['start', '--help']);
    const ls = await spawnDocket(['--data-dir', dataDir, 'ls', '--json']);

    // Assess
    expect(endpoints.pid).not.toBe(start.pid);
    expect(alive(endpoints.pid)).toBe(true);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: docket start \[options\]/);
    expect(help.stdout).toContain('--review-timeout <seconds>');
    expect(ls).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('draws a progress bar on a terminal and stays quiet when not on one', async () => {
    // Prepare
    await writeFile(join(work, 'one.pdf'), '%PDF-1.4\n% not much of a document\n');
    await writeFile(join(work, 'two.pdf'), '%PDF-1.4\n% nor is this one\n');

    // Act
    const onTerminal = await docket(['--data-dir', dataDir, 'upload', 'one.pdf', '--tenant', 'acme'], {
      cwd: work,
      tty: true,
    });
    const piped = await spawnDocket(['--data-dir', dataDir, 'upload', 'two.pdf', '--tenant', 'acme'], work);

    // Assess
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stderr).toContain('Uploading [');
    expect(onTerminal.stdout).toContain(
      'Uploaded 1 to s3://docket-local/incoming/acme/, skipped 0 (not a document), failed 0.',
    );
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toBe(
      'Uploaded 1 to s3://docket-local/incoming/acme/, skipped 0 (not a document), failed 0.\n',
    );
  });

  it('prints an error as one line with a non-zero exit', async () => {
    // Act
    const result = await spawnDocket(['--data-dir', join(work, 'nothing-here'), 'reviews']);

    // Assess
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^docket: No local stack in /);
  });

  it('stops the runtime cleanly when it is sent SIGTERM', async () => {
    // Act
    start.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => start.once('exit', resolve));

    // Assess
    expect(code).toBe(0);
    await eventually('the runtime to exit', async () => (alive(endpoints.pid) ? undefined : true), {
      timeoutMs: 10_000,
    });
  });
});
