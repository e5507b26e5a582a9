import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';
import { scanPdf } from '../fixtures/scans.js';

const run = promisify(execFile);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
let dir = '';
let image = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docket-offline-'));
  image = join(dir, 'scan.png');
  const [first] = await scanPdf(await fixtureBytes('invoice'));
  await writeFile(image, first?.bytes ?? new Uint8Array());
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Runs the OCR in a fresh node process inside its own network namespace (util-linux `unshare`, as
 * an unprivileged user namespace): no interface but a downed loopback, so any download attempt
 * fails the OCR instead of quietly succeeding.
 */
const offline = (...args: string[]) =>
  run(
    'unshare',
    [
      '--user',
      '--map-root-user',
      '--net',
      process.execPath,
      '--import',
      pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
      here('./support/ocrOffline.ts'),
      ...args,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );

describe('tesseract OCR with the network blocked', () => {
  it('reads a scan with no network at all: nothing is fetched, in the process or tesseract.js’s worker', async () => {
    // Act
    const { stdout } = await offline(image);

    // Assess
    expect(JSON.parse(stdout)).toContain('Invoice number: INV-2024-0042');
  }, 120_000);

  it('would fail a fetch: a server this test reaches is out of reach of the OCR’s threads (control)', async () => {
    // Prepare: a server on this machine, reachable from here
    const server = createServer((_request, response) => response.end('reachable'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

    // Act
    const direct = await (await fetch(url)).text();
    const { stderr } = await offline(image, url).finally(() => server.close());

    // Assess
    expect(direct).toBe('reachable');
    expect(stderr).toMatch(/CONTROL: TypeError: fetch failed/);
  }, 120_000);
});
