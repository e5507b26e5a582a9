import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docket } from './support/runDocket.js';

/** `docket token create` with a data dir where no stack ever ran: input checks come first. */
const create = async (...args: string[]) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'docket-token-'));
  try {
    return await docket([
      '--data-dir',
      dataDir,
      'token',
      'create',
      '--role',
      'reviewer',
      '--tenant',
      'acme',
      ...args,
    ]);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
};

describe('docket token create refuses bad input with a message saying what is wrong', () => {
  it.each([
    ['an empty user', ['--user', ''], /--user must name someone/],
    ['a blank user', ['--user', '   '], /--user must name someone/],
    ['a user with a newline', ['--user', 'alice\nadmin'], /control characters or line breaks/],
    ['a user with a NUL', ['--user', 'al\u0000ice'], /control characters/],
    ['a user with surrounding spaces', ['--user', ' alice'], /start or end with spaces/],
    ['a user of 129 characters', ['--user', 'a'.repeat(129)], /at most 128/],
    ['--expires-in 0s', ['--user', 'alice', '--expires-in', '0s'], /more than zero/],
    ['--expires-in 0d', ['--user', 'alice', '--expires-in', '0d'], /more than zero/],
    ['--expires-in 8d', ['--user', 'alice', '--expires-in', '8d'], /at most 7d/],
    ['--expires-in 12 hours', ['--user', 'alice', '--expires-in', '12 hours'], /number and s, m, h or d/],
    [
      'a tenant with a capital',
      ['--user', 'alice', '--tenant', 'Acme'],
      /--tenant: The tenant "Acme" is not valid/,
    ],
  ])('refuses %s', async (_what, args, message) => {
    // Act
    const run = await create(...args);
    // Assess
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });

  it('gets past the input checks with a good user and lifetime (then needs a stack)', async () => {
    const run = await create('--user', 'alice', '--expires-in', '30m');
    expect(run.stderr).toMatch(/No local stack/);
  });
});
