import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, cliBundle, freshBundle, PROJECT_ROOT } from '../../scripts/cliBundle.mjs';

const VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

/**
 * Files a module imports statically, in esbuild's minified output: `import{a}from"x";import"y";`
 * on one line, so each statement starts a line or follows a semicolon. (`import(` is dynamic.)
 */
const staticImports = (code: string): string[] =>
  [
    ...code.matchAll(/(?:^|[;\n])\s*(?:import|export)(?!\s*\()\s*(?:[^"';]*?\bfrom\s*)?["']([^"']+)["']/g),
  ].map((m) => m[1] ?? '');

/** Every package an output file and its static chunks import at load time. */
const packagesLoadedAtStart = async (entry: string): Promise<{ packages: Set<string>; files: number }> => {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(await readFile(file, 'utf8'))) {
      if (spec.startsWith('./')) await visit(join(dirname(file), spec));
      else packages.add(spec);
    }
  };
  await visit(entry);
  return { packages, files: seen.size };
};

describe('the docket CLI bundle', () => {
  let cacheDir: string;
  let built: Awaited<ReturnType<typeof buildBundle>>;

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'docket-cli-bundle-'));
    built = await buildBundle({ cacheDir });
  });

  afterAll(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('is built from the CLI and what it imports, never from test code', async () => {
    // Act
    const loadedAtStart = await packagesLoadedAtStart(built.entry);

    // Assess
    expect(built.inputs).toContain('cli/main.ts');
    expect(built.inputs).toContain('cli/samples/writeCorpus.ts');
    expect(built.inputs.filter((path) => path.startsWith('test/'))).toEqual([]);
    // pdf-lib, the AWS SDK and zod load with the commands that use them, not with every start.
    expect(loadedAtStart.files).toBeGreaterThan(3);
    expect([...loadedAtStart.packages].filter((p) => !p.startsWith('node:'))).toEqual([]);
  });

  it('is reused while its inputs are unchanged and rebuilt when one changes or the manifest is damaged', async () => {
    // Prepare
    const manifestFile = join(cacheDir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { inputs: Record<string, string> };

    // Act
    const unchanged = freshBundle({ cacheDir });
    writeFileSync(
      manifestFile,
      JSON.stringify({ ...manifest, inputs: { ...manifest.inputs, 'cli/main.ts': '1:1' } }),
    );
    const afterEdit = freshBundle({ cacheDir });
    writeFileSync(manifestFile, '{"entry": "builds/');
    const afterDamage = freshBundle({ cacheDir });
    const rebuilt = await cliBundle({ cacheDir });

    // Assess
    expect(unchanged).toBe(built.entry);
    expect(afterEdit).toBeUndefined();
    expect(afterDamage).toBeUndefined();
    expect(rebuilt).not.toBe(built.entry);
    expect(freshBundle({ cacheDir })).toBe(rebuilt);
    expect(await readdir(join(cacheDir, 'builds'))).toHaveLength(2);
  });

  it('runs as bin/docket.js: --version prints the package version', () => {
    // Act
    const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin', 'docket.js'), '--version'], {
      cwd: tmpdir(),
      encoding: 'utf8',
    });

    // Assess
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 0,
      stdout: `${VERSION}\n`,
      stderr: '',
    });
  });
});
