import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApi, startApiServer } from '../../local/api/apiServer.js';

let dir: string;
let api: LocalApi;

beforeAll(async () => {
  // The console's directory, and beside it one whose name starts the same: it must stay unreadable.
  dir = await mkdtemp(join(tmpdir(), 'docket-static-'));
  await mkdir(join(dir, 'site'));
  await mkdir(join(dir, 'site-secret'));
  await writeFile(join(dir, 'site', 'index.html'), '<p>console</p>');
  await writeFile(join(dir, 'site-secret', 'key.txt'), 'secret');
  api = await startApiServer({
    signingKey: randomBytes(32),
    handler: async () => ({ statusCode: 204 }),
    staticDir: join(dir, 'site'),
  });
});
afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the console files the local API server serves', () => {
  it('serves the console, refuses bad escapes with 400, and nothing outside its directory', async () => {
    // Prepare
    const base = `http://127.0.0.1:${api.port}`;

    // Act
    const index = await fetch(`${base}/`);
    const badEscape = await fetch(`${base}/%zz`);
    const sibling = await fetch(`${base}/..%2fsite-secret%2fkey.txt`);

    // Assess
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('console');
    expect(badEscape.status).toBe(400);
    expect(await badEscape.json()).toMatchObject({ error: 'BadRequest' });
    expect(await sibling.text()).not.toContain('secret');
  });
});
