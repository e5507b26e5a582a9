import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Template } from 'aws-cdk-lib/assertions';
import { PROJECT_ROOT } from '../../../infra/constructs/StageFunction.js';
import { createDocketApp } from '../../../infra/docketApp.js';

/** The context in cdk.json: tests synthesize what `npx cdk synth` would, plus their overrides. */
export const CDK_JSON_CONTEXT: Record<string, unknown> = JSON.parse(
  readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8'),
).context;

/** What a finished synth left behind. */
export interface SynthResult extends ReturnType<typeof createDocketApp> {
  template: Template;
  /** The cloud assembly directory (templates, bundled assets, validation report). */
  outdir: string;
  /** Deletes the cloud assembly directory. */
  remove: () => void;
}

/**
 * Synthesizes the Docket app into a temp directory with cdk-nag on. Without `bundle`, CDK's own
 * `aws:cdk:bundling-stacks` switch skips esbuild (the template is identical but for asset hashes),
 * which keeps template tests at a few seconds. The environment is empty: no CDK_DEFAULT_* leaks in.
 */
export const synthDocket = (
  options: { context?: Record<string, unknown>; bundle?: boolean; outdir?: string } = {},
): SynthResult => {
  const outdir = options.outdir ?? mkdtempSync(join(tmpdir(), 'docket-cdk-'));
  const docket = createDocketApp(
    {
      outdir,
      context: {
        ...CDK_JSON_CONTEXT,
        ...(!options.bundle && { 'aws:cdk:bundling-stacks': [] }),
        ...options.context,
      },
    },
    { env: {} },
  );
  docket.app.synth();
  return {
    ...docket,
    template: Template.fromStack(docket.stack),
    outdir,
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
};

/** What a synth in a child process left behind: the template and the cloud assembly. */
export interface ChildSynthResult {
  template: Template;
  outdir: string;
  remove: () => void;
}

/**
 * `synthDocket` with esbuild bundling, run in a child process. Bundling runs esbuild once per
 * function, synchronously: in the test's own process that blocks its event loop for minutes on a
 * busy two-core machine, longer than the test runner's 60 s RPC timeout. A child keeps the worker
 * responsive while it waits.
 */
export const synthDocketInChild = async (
  context: Record<string, unknown> = {},
): Promise<ChildSynthResult> => {
  const outdir = mkdtempSync(join(tmpdir(), 'docket-cdk-'));
  const script = [
    `import { createDocketApp } from ${JSON.stringify(pathToFileURL(join(PROJECT_ROOT, 'infra/docketApp.ts')).href)};`,
    `const context = ${JSON.stringify({ ...CDK_JSON_CONTEXT, ...context })};`,
    `createDocketApp({ outdir: ${JSON.stringify(outdir)}, context }, { env: {} }).app.synth();`,
  ].join('\n');
  await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
    cwd: PROJECT_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const template = Template.fromJSON(
    JSON.parse(
      readFileSync(join(outdir, `${String(CDK_JSON_CONTEXT.stackName ?? 'Docket')}.template.json`), 'utf8'),
    ),
  );
  return { template, outdir, remove: () => rmSync(outdir, { recursive: true, force: true }) };
};

/** The cdk-nag findings a synth reported (its `validation-report.json`): none unless a rule broke. */
export const nagViolations = (outdir: string): unknown[] =>
  JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')).pluginReports.flatMap(
    (r: { violations?: unknown[] }) => r.violations ?? [],
  );
