import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import type { Endpoints } from '../../local/endpoints.js';
import { eventually } from '../support/e2e.js';

const BIN = join(process.cwd(), 'bin', 'docket.js');
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A stand-in for npm: a process that runs `docket start` and is then killed without warning. */
const PARENT = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, process.argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] });
console.log(JSON.stringify({ cli: child.pid }));
setInterval(() => {}, 1 << 30);
`;

describe('the local runtime dies with its parent', () => {
  it('stops docket start and the runtime, and frees the ports, when the parent is killed with -9', async () => {
    // Prepare
    const dataDir = await mkdtemp(join(tmpdir(), 'docket-orphan-'));
    dirs.push(dataDir);
    const parent = spawn(
      process.execPath,
      ['-e', PARENT, BIN, 'start', '--data-dir', dataDir, '--ports', 'auto', '--json'],
      {
        env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const lines = createInterface({ input: parent.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
    const { cli } = JSON.parse((await lines.next()).value as string) as { cli: number };
    const endpoints = JSON.parse((await lines.next()).value as string) as Endpoints;

    // Act
    parent.kill('SIGKILL');

    // Assess: both processes end (waiting on their state, not on a sleep), and a new stack could bind.
    await eventually(
      'docket start and the runtime to exit',
      async () => (alive(cli) || alive(endpoints.pid) ? undefined : true),
      {
        timeoutMs: 30_000,
      },
    );
    const port = Number(new URL(endpoints.s3).port);
    await new Promise<void>((resolve, reject) => {
      const server = createServer().once('error', reject);
      server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
    });
    expect(alive(endpoints.pid)).toBe(false);
  }, 90_000);
});
