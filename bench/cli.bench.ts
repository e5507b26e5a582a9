/**
 * `npx tsx bench/cli.bench.ts`: the docket CLI and the review console.
 * - start-up: wall time of `docket --version` and `docket --help` as processes (median of 5),
 *   against a bare `node -e 0` in the same run, and the time to build the CLI bundle from scratch
 *   (what the first run after a change pays);
 * - upload: files/s and MB/s of `docket upload`'s code path into the local S3 (the emulator only, no
 *   workflow behind it; links presigned in-process, not by the review API) at concurrency 1, 4
 *   and 16, and the process's peak RSS;
 * - tables: rendering `docket ls` for 10,000 workflows;
 * - console: build time, app.js size (raw and gzip) and the whole of console/dist.
 * Flags: --json, --files N (default 200), --size KB (default 100).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { renderTable } from '../cli/format.js';
import { collectUploads } from '../cli/upload/collectUploads.js';
import { uploadFiles } from '../cli/upload/uploadFiles.js';
import { buildConsole } from '../console/build.js';
import { createS3Client } from '../lambdas/shared/clients.js';
import { presignPut } from '../lambdas/shared/presign.js';
import { startLocalS3 } from '../local/emulators/s3.js';
import { buildBundle, cliBundle } from '../scripts/cliBundle.mjs';
import { median } from './support/stats.js';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    files: { type: 'string', default: '200' },
    size: { type: 'string', default: '100' },
  },
});
const FILES = Number(values.files);
const SIZE_KB = Number(values.size);
const log = (message: string) => {
  if (!values.json) process.stderr.write(`${message}\n`);
};

const startup = (args: string[]) => {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${run.stderr}`);
    times.push(performance.now() - started);
  }
  return Math.round(median(times));
};

const uploads = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docket-bench-upload-'));
  const body = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(SIZE_KB * 1024 - 9, 0x20)]);
  for (let i = 0; i < FILES; i++) await writeFile(join(dir, `doc-${String(i).padStart(4, '0')}.pdf`), body);
  const s3 = await startLocalS3({ directory: join(dir, 's3'), port: 0, bucket: 'docket-bench' });
  const client = createS3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const results: { concurrency: number; filesPerSecond: number; mbPerSecond: number }[] = [];
  try {
    for (const concurrency of [1, 4, 16]) {
      const plan = await collectUploads([dir], `c${concurrency}`, dir);
      const started = performance.now();
      // The links presigned here, as the review API would: the PUTs are what is measured.
      const requestLink = async (name: string, size: number, contentType: string) => {
        const key = `incoming/c${concurrency}/${name}`;
        const url = await presignPut(client, s3.bucket, key, { contentType, contentLength: size }, 300);
        return { key, url, headers: { 'content-type': contentType } };
      };
      const outcomes = await uploadFiles({ requestLink }, plan.uploads, { concurrency });
      const seconds = (performance.now() - started) / 1000;
      if (outcomes.some((o) => !o.ok)) throw new Error('an upload failed');
      results.push({
        concurrency,
        filesPerSecond: Math.round(outcomes.length / seconds),
        mbPerSecond: Math.round(((outcomes.length * body.length) / 1e6 / seconds) * 10) / 10,
      });
      log(
        `upload ${FILES} x ${SIZE_KB} KB, concurrency ${concurrency}: ${results.at(-1)?.filesPerSecond} files/s`,
      );
    }
  } finally {
    client.destroy();
    await s3.close();
    await rm(dir, { recursive: true, force: true });
  }
  return results;
};

const table = () => {
  const rows = Array.from({ length: 10_000 }, (_, i) => ({
    id: `wf-${String(i).padStart(22, '0')}`,
    state: 'completed',
    file: `incoming/acme/contract-${i}.pdf`,
  }));
  const started = performance.now();
  const text = renderTable(
    rows,
    [
      { header: 'ID', value: (r) => r.id },
      { header: 'STATE', value: (r) => r.state },
      { header: 'FILE', value: (r) => r.file, max: 40 },
    ],
    '',
  );
  return { rows: rows.length, ms: Math.round(performance.now() - started), bytes: text.length };
};

const consoleBuild = async () => {
  const started = performance.now();
  await buildConsole();
  const ms = Math.round(performance.now() - started);
  const dist = new URL('../console/dist/', import.meta.url);
  const app = await readFile(new URL('app.js', dist));
  let total = 0;
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return {
    buildMs: ms,
    appKiB: Math.round(app.length / 1024),
    appGzipKiB: Math.round(gzipSync(app).length / 1024),
    distKiB: Math.round(total / 1024),
  };
};

/** Time to build the CLI bundle from nothing, into a scratch directory. */
const bundleBuild = async () => {
  const cacheDir = await mkdtemp(join(tmpdir(), 'docket-bench-cli-'));
  try {
    const started = performance.now();
    const built = await buildBundle({ cacheDir });
    return { ms: Math.round(performance.now() - started), inputs: built.inputs.length };
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
};

// Start-up is measured on an up-to-date bundle; building it is measured on its own.
await cliBundle();
const figures = {
  startupMs: {
    node: startup(['-e', '0']),
    version: startup(['bin/docket.js', '--version']),
    help: startup(['bin/docket.js', '--help']),
  },
  bundleBuild: await bundleBuild(),
  upload: await uploads(),
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  table: table(),
  console: await consoleBuild(),
};
if (values.json) console.log(JSON.stringify(figures));
else {
  console.log(`node -e 0                 ${figures.startupMs.node} ms (median of 5 processes)`);
  console.log(`docket --version          ${figures.startupMs.version} ms`);
  console.log(`docket --help             ${figures.startupMs.help} ms`);
  console.log(
    `CLI bundle build          ${figures.bundleBuild.ms} ms from ${figures.bundleBuild.inputs} files (the first run after a change)`,
  );
  for (const u of figures.upload) {
    console.log(
      `upload concurrency ${String(u.concurrency).padStart(2)}     ${u.filesPerSecond} files/s, ${u.mbPerSecond} MB/s (${FILES} x ${SIZE_KB} KB into the local S3)`,
    );
  }
  console.log(`peak RSS (bench process)  ${figures.peakRssMb} MB (uploader and local S3 together)`);
  console.log(`ls table of ${figures.table.rows} rows   ${figures.table.ms} ms`);
  console.log(
    `console build             ${figures.console.buildMs} ms; app.js ${figures.console.appKiB} KiB (${figures.console.appGzipKiB} KiB gzip); dist ${figures.console.distKiB} KiB with pdf.js worker, fonts, cmaps`,
  );
}
