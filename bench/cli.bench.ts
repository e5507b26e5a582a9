/**
 * `npx tsx bench/cli.bench.ts`: the docket CLI and the review console.
 * - start-up: wall time of `docket --version` and `docket --help` as processes (median of 5);
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
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const startup = (args: string[]) => {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, ['bin/docket.js', ...args], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`docket ${args.join(' ')} failed: ${run.stderr}`);
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

const figures = {
  startupMs: { version: startup(['--version']), help: startup(['--help']) },
  upload: await uploads(),
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  table: table(),
  console: await consoleBuild(),
};
if (values.json) console.log(JSON.stringify(figures));
else {
  console.log(`docket --version          ${figures.startupMs.version} ms (median of 5 processes)`);
  console.log(`docket --help             ${figures.startupMs.help} ms`);
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
