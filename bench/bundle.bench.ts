/**
 * `npm run bench:bundle`: synthesizes the app with esbuild bundling (as `npx cdk synth` does) and
 * prints, per function, the size of its bundle (`index.mjs`, the source map beside it, and the
 * zip Lambda receives, estimated by gzip) and its cold import time: the median over fresh `node`
 * processes of `await import(bundle)`, the module-load part of a Lambda cold start.
 * Goal: <= 1 MB per bundle, parse <= 2 MB. Flags: --json, --runs N (default 7).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { bundleGoalBytes, functionBundles } from '../test/infra/support/bundles.js';
import { synthDocket } from '../test/infra/support/synthDocket.js';
import { median } from './support/stats.js';

const { values } = parseArgs({
  options: { json: { type: 'boolean', default: false }, runs: { type: 'string', default: '7' } },
});
const RUNS = Number(values.runs);
const MB = 1024 * 1024;
const goalBytes = bundleGoalBytes;
const log = (message: string) => {
  if (!values.json) process.stderr.write(`${message}\n`);
};

const IMPORT_ONCE = `
const t = performance.now();
await import(process.env.DOCKET_BUNDLE_FILE);
process.stdout.write(String(performance.now() - t));
process.exit(0);
`;

log('Synthesizing with bundling ...');
const started = performance.now();
const synth = synthDocket({ bundle: true });
process.once('exit', () => synth.remove());
const synthSeconds = (performance.now() - started) / 1000;
const bundles = Object.values(functionBundles(synth.template, synth.outdir)).sort((a, b) =>
  a.name.localeCompare(b.name),
);

const rows = bundles.map((bundle) => {
  const code = readFileSync(bundle.file);
  const importMs = Array.from({ length: RUNS }, () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', IMPORT_ONCE], {
      // The function's own environment: NODE_OPTIONS=--enable-source-maps costs import time too.
      env: { ...process.env, ...bundle.staticEnv, DOCKET_BUNDLE_FILE: bundle.file },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`importing ${bundle.name} failed:\n${run.stderr}`);
    return Number(run.stdout);
  });
  return {
    function: bundle.name,
    bundleBytes: code.byteLength,
    sourceMapBytes: statSync(`${bundle.file}.map`).size,
    gzipBytes: gzipSync(code).byteLength,
    coldImportMsMedian: Math.round(median(importMs) * 10) / 10,
    coldImportMsMax: Math.round(Math.max(...importMs) * 10) / 10,
    withinGoal: code.byteLength <= goalBytes(bundle.name),
  };
});

if (values.json) {
  console.log(JSON.stringify({ node: process.version, runs: RUNS, synthSeconds, rows }, null, 2));
} else {
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`.padStart(9);
  console.log(
    `Bundles (${process.version}, ${RUNS} cold imports each; synth with bundling ${synthSeconds.toFixed(1)} s)`,
  );
  console.log(
    `${'function'.padEnd(16)}${'bundle'.padStart(9)}${'gzip'.padStart(9)}${'map'.padStart(9)}  import ms (median / max)  goal`,
  );
  for (const r of rows) {
    console.log(
      `${r.function.padEnd(16)}${kb(r.bundleBytes)}${kb(r.gzipBytes)}${kb(r.sourceMapBytes)}  ` +
        `${r.coldImportMsMedian.toFixed(1).padStart(9)} / ${r.coldImportMsMax.toFixed(1).padEnd(12)}  ` +
        `${r.withinGoal ? 'ok' : `OVER ${(goalBytes(r.function) / MB).toFixed(0)} MB`}`,
    );
  }
}
