/**
 * `npm run bench:reprocess`: `docket reprocess` of N completed documents after the extractor
 * changed.
 *
 *   npx tsx bench/reprocess.bench.ts [--docs N] [--json]
 *
 * Run 1: N clean sample documents through the local stack with the layout heuristics, until every
 * one completed (or waits for a reviewer). Then the stack is restarted on the same data with a
 * "new model" as extractor, a Bedrock Runtime stand-in (Bedrock has no local implementation) whose
 * answer differs from run 1 in the document number, and every completed document is reprocessed
 * through the real CLI (`docket reprocess --json`: the reprocess state machine's Distributed Map,
 * the reprocess function, a rerun per document). Reported: documents run again, per outcome, how
 * many changed and which fields, and documents/s of the rerun (from the start of the reprocess
 * until the last rerun completed or waits for a reviewer). `--same-extractor` is the control: the
 * rerun reads with the heuristics again, so nothing should change and everything complete alone.
 */
import { Command } from 'commander';
import type { ReprocessReport } from '../cli/reprocess/runReprocess.js';
import { generateCorpus } from '../cli/samples/corpus.js';
import { isAtRest } from '../statemachine/index.js';
import { docket } from '../test/cli/support/runDocket.js';
import { startBedrockStandIn, toolUseReply } from '../test/extract/bedrockStandIn.js';
import { importCorpusProviders, upload } from '../test/support/e2e.js';
import { type LocalStack, startLocalStack } from '../test/support/localStackProcess.js';
import { pool } from './support/pool.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

const options = new Command('bench:reprocess')
  .option('--docs <n>', 'documents run through, then reprocessed', Number, 1000)
  .option('--same-extractor', 'control: rerun with the heuristics again (nothing should change)')
  .option('--json', 'print JSON only')
  .parse()
  .opts<{ docs: number; sameExtractor?: boolean; json?: boolean }>();
const log = (line: string) => {
  if (!options.json) process.stderr.write(`${line}\n`);
};

/** Waits until every workflow of acme has finished its automatic part; returns how many there are. */
const settle = async (stack: LocalStack, expected: number) => {
  for (;;) {
    let settled = 0;
    for await (const item of stack.store.listAll({ tenant: 'acme' })) if (isAtRest(item.state)) settled++;
    log(`  ${settled} of ${expected} settled`);
    if (settled >= expected) return settled;
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
};

// The "new model": the same kind of document with another number, read from line 1 of page 1.
const bedrock = await startBedrockStandIn((request) => {
  const text = JSON.stringify(request.body.messages ?? '');
  return /invoice/i.test(text)
    ? toolUseReply('record_invoice', {
        classificationConfidence: 0.9,
        fields: { invoiceNumber: { value: 'RERUN-1', confidence: 0.9, page: 1, line: 1 } },
      })
    : toolUseReply('record_contract', {
        classificationConfidence: 0.9,
        fields: { contractNumber: { value: 'RERUN-1', confidence: 0.9, page: 1, line: 1 } },
      });
});

log(`rendering ${options.docs} clean sample documents ...`);
const corpus = await generateCorpus({ set: 'clean', count: options.docs });
const first = await startLocalStack();
await importCorpusProviders(first);
const uploadStart = Date.now();
await pool(corpus, 8, async (doc, i) => {
  await upload(first, 'acme', `doc-${i}.pdf`, await doc.pdf());
});
log(`run 1 (heuristic): ${options.docs} uploaded in ${((Date.now() - uploadStart) / 1000).toFixed(0)} s`);
await settle(first, options.docs);
const run1Seconds = (Date.now() - uploadStart) / 1000;
await first.stop();

const second = await startLocalStack({
  dataDir: first.dataDir,
  env: options.sameExtractor
    ? {}
    : {
        DOCKET_EXTRACTOR: 'bedrock',
        DOCKET_BEDROCK_MODEL_ID: 'stand-in-model',
        AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.endpoint,
      },
});
log(`reprocess (${options.sameExtractor ? 'the same heuristics' : 'stand-in model'}) ...`);
const run = await docket(['reprocess', '--data-dir', first.dataDir, '--tenant', 'acme', '--json'], {
  env: { DOCKET_USER: 'bench' },
});
if (run.code !== 0) throw new Error(`docket reprocess failed (${run.code}): ${run.stderr}`);
const report = run.json<ReprocessReport>();
// Why any rerun ended rejected: the error type its log recorded.
const rejectedBy: Record<string, number> = {};
for (const doc of report.documents.filter((d) => d.outcome === 'rejected')) {
  const item = await second.store.get(doc.workflowId);
  const type = `${item.lastError?.type ?? 'reviewer'}${item.failedAtStep ? ` at ${item.failedAtStep}` : ''}`;
  rejectedBy[type] = (rejectedBy[type] ?? 0) + 1;
}
await second.stop();
await second.remove();
await bedrock.close();

const byOutcome: Record<string, number> = {};
const byField: Record<string, number> = {};
for (const doc of report.documents) {
  byOutcome[doc.outcome] = (byOutcome[doc.outcome] ?? 0) + 1;
  for (const field of doc.changedFields) byField[field] = (byField[field] ?? 0) + 1;
}
const figures = {
  documents: options.docs,
  run1Seconds: Math.round(run1Seconds),
  run1DocumentsPerSecond: Number((options.docs / run1Seconds).toFixed(2)),
  selected: report.selected,
  rerun: report.started,
  changed: report.documents.filter((d) => d.changedFields.length > 0).length,
  byOutcome,
  changedFields: byField,
  rejectedBy,
  reprocessSeconds: Math.round(report.seconds),
  reprocessDocumentsPerSecond: Number(report.documentsPerSecond.toFixed(2)),
  modelCalls: bedrock.requests.length,
};
if (options.json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
else {
  for (const [name, value] of Object.entries(figures))
    process.stdout.write(`${name.padEnd(28)} ${typeof value === 'object' ? JSON.stringify(value) : value}\n`);
}
