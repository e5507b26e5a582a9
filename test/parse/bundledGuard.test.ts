import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPdfText } from '../../lambdas/parse/pdfText.js';
import { fixtureBytes, fixturePath } from '../fixtures/pdfFixtures.js';
import { bundleParseEntry } from './bundleParseEntry.js';

const run = promisify(execFile);

/** What bundleEntry.ts prints. */
type BundleOutput = { ok: true; text: unknown } | { ok: false; name: string; message: string };

describe('the guarded parse bundled into one file by esbuild', () => {
  let dir = '';
  let bundle = '';
  let metafile: Metafile;

  beforeAll(async () => {
    // Outside the project, so nothing can be resolved from node_modules at run time.
    dir = await mkdtemp(join(tmpdir(), 'docket-parse-bundle-'));
    ({ file: bundle, metafile } = await bundleParseEntry(dir));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs the bundle with plain node (no tsx, no loader) from its own folder. */
  const parseWithBundle = async (file: string): Promise<BundleOutput> => {
    const { stdout } = await run(process.execPath, [bundle, file], {
      cwd: dir,
      env: { PATH: process.env.PATH },
    });
    return JSON.parse(stdout) as BundleOutput;
  };

  it('is a single file that imports nothing but Node built-ins', () => {
    // Prepare
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

    // Act
    const [output, ...others] = Object.values(metafile.outputs);
    const imports = output?.imports.map((entry) => entry.path) ?? [];

    // Assess
    expect(others).toEqual([]);
    expect(imports.filter((path) => !builtins.has(path))).toEqual([]);
  });

  it('extracts text through its own child process, as the unbundled code does', async () => {
    // Prepare
    const file = await fixturePath('invoice');
    const expected = await extractPdfText(await fixtureBytes('invoice'));

    // Act
    const output = await parseWithBundle(file);

    // Assess
    expect(output).toEqual({ ok: true, text: expected });
  });

  it('still stops the flate bomb at the RSS bound', async () => {
    // Prepare
    const file = await fixturePath('flateBomb');

    // Act
    const output = await parseWithBundle(file);

    // Assess
    expect(output).toMatchObject({ ok: false, name: 'PdfTooComplex' });
    expect(output.ok || output.message).toMatch(/needed more than 512 MB of memory/);
  });
});
