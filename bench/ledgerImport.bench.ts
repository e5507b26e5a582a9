/**
 * `npm run bench:ledger-import`: imports a generated seed-004 ledger of N records (default
 * 1,000,000, about 12 per document) into a tenant on dynalite, and verifies the result:
 *
 *   npx tsx bench/ledgerImport.bench.ts [--records N] [--json]
 *
 * Prints records/s and this process's peak RSS for the dry run, the real run and a re-run, whether
 * the dry run's report equals the real one, what the re-run wrote (goal 0), and `ledger verify`'s
 * time and peak RSS over the imported entries. dynalite runs in a child process so its memory is
 * not counted.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { isDeepStrictEqual } from 'node:util';
import { importLedger } from '../cli/ledgerImport/importLedger.js';
import { readMapping } from '../cli/ledgerImport/mapping.js';
import { createDocumentClient } from '../lambdas/shared/clients.js';
import { verifyLedger, WorkflowStore } from '../lambdas/shared/store/index.js';
import { SEED_004_MAPPING, writeLegacyLedger } from '../test/support/legacyLedger.js';
import { LOCAL_CREDENTIALS } from '../test/support/localDynamo.js';

const { values } = parseArgs({
  options: { records: { type: 'string', default: '1000000' }, json: { type: 'boolean', default: false } },
});
const RECORDS = Number(values.records);
const log = (line: string) => {
  if (!values.json) process.stderr.write(`${line}\n`);
};

/** Runs `work`, sampling this process's RSS; returns its result, seconds and peak RSS in MB. */
const measured = async <T>(work: () => Promise<T>) => {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - started) / 1000, peakRssMb: Math.round(peak / 2 ** 20) };
  } finally {
    clearInterval(timer);
  }
};

const dir = await mkdtemp(join(tmpdir(), 'docket-bench-import-'));
const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/dynamoChild.ts', join(dir, 'db')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const ready = await new Promise<{ endpoint: string; tables: { workflows: string; transitions: string } }>(
    (resolve, reject) => {
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (l) =>
        resolve(JSON.parse(l)),
      );
      child.once('exit', (code) => reject(new Error(`dynalite exited (${code})`)));
    },
  );
  const client = createDocumentClient({
    endpoint: ready.endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
  });
  const store = new WorkflowStore({ client, tables: ready.tables });
  const file = join(dir, 'ledger.jsonl');
  const mappingFile = join(dir, 'mapping.yaml');
  await writeFile(mappingFile, SEED_004_MAPPING);
  log(`generating ${RECORDS} records ...`);
  const generated = await writeLegacyLedger(file, { records: RECORDS, broken: 10 });
  const mapping = await readMapping(mappingFile);
  const run = (dryRun: boolean) =>
    measured(() =>
      importLedger({
        store,
        file,
        mapping,
        tenant: 'legacy',
        dryRun,
        onProgress: (read, total, records) =>
          log(`  ${((100 * read) / total).toFixed(0)}% ${records} records`),
      }),
    );
  log('dry run ...');
  const dry = await run(true);
  log('import ...');
  const real = await run(false);
  log('re-run ...');
  const again = await run(false);
  log('ledger verify ...');
  const verify = await measured(() => verifyLedger(store, { tenant: 'legacy' }));
  const rate = (m: { seconds: number }) => Math.round(RECORDS / m.seconds);
  const figures = {
    records: RECORDS,
    documents: generated.documents,
    dryRun: { seconds: Math.round(dry.seconds), recordsPerSecond: rate(dry), peakRssMb: dry.peakRssMb },
    import: {
      seconds: Math.round(real.seconds),
      recordsPerSecond: rate(real),
      peakRssMb: real.peakRssMb,
      written: real.result.written,
    },
    rerun: { seconds: Math.round(again.seconds), written: again.result.written, peakRssMb: again.peakRssMb },
    dryRunReportEqualsImport: isDeepStrictEqual(dry.result.report, real.result.report),
    report: real.result.report,
    verify: {
      seconds: Math.round(verify.seconds),
      workflows: verify.result.checked,
      entries: verify.result.entries,
      broken: verify.result.broken.length,
      peakRssMb: verify.peakRssMb,
    },
  };
  if (values.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
  else {
    const { report: _report, ...shown } = figures;
    process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  }
  client.destroy();
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await rm(dir, { recursive: true, force: true });
}
