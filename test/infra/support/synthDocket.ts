import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** A synth made in another process: its template and cloud assembly directory. */
export interface ChildSynthResult {
  template: Template;
  outdir: string;
  remove: () => void;
}

const SYNTH_CHILD = fileURLToPath(new URL('./synthChild.ts', import.meta.url));

/**
 * `synthDocket({ bundle: true })` in a child process. Bundling every function is synchronous and
 * takes tens of seconds on a loaded machine; run in a test worker it would block that worker's
 * event loop past vitest's fixed 60 s RPC timeout ("Timeout calling onTaskUpdate") and fail a
 * green run. Here the worker only waits.
 */
export const synthDocketInChild = async (): Promise<ChildSynthResult> => {
  const outdir = mkdtempSync(join(tmpdir(), 'docket-cdk-'));
  const remove = () => rmSync(outdir, { recursive: true, force: true });
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SYNTH_CHILD, outdir], {
      cwd: PROJECT_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    const templateFile = stdout.trim().split('\n').at(-1) ?? '';
    return { template: Template.fromJSON(JSON.parse(readFileSync(templateFile, 'utf8'))), outdir, remove };
  } catch (error) {
    remove();
    throw error;
  }
};
