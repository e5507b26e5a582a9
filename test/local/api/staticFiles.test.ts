import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../../bench/support/rawHttp.js';
import { type LocalApi, startApiServer } from '../../../local/api/apiServer.js';

let api: LocalApi;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'docket-static-'));
  await writeFile(join(root, 'index.html'), '<!doctype html><title>console</title>');
  api = await startApiServer({ signingKey: new Uint8Array(32), handler: undefined, staticDir: root });
});
afterAll(async () => {
  await api.close();
  await rm(root, { recursive: true, force: true });
});

describe('the console files the local API serves', () => {
  it('answers 400, not 500, for a path that is not valid percent-encoding', async () => {
    // Act: sent raw, as a browser or curl would send a mistyped link.
    const answers = await Promise.all(
      ['/%zz', '/%E0%A4%A', '/app.js%'].map((path) => send(api.port, 'GET', path, {})),
    );

    // Assess
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400]);
  });

  it('still serves the console for a well-formed path', async () => {
    // Act
    const answer = await send(api.port, 'GET', '/reviews/wf-1', {});

    // Assess
    expect(answer.status).toBe(200);
  });
});
