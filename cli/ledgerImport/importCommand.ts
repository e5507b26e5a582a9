import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { checkTenant } from '../checkTenant.js';
import type { CliContext } from '../context.js';
import { printJson, println } from '../io.js';
import { type ImportResult, importLedger } from './importLedger.js';
import { readMapping } from './mapping.js';

const top = (counts: Record<string, number>, n = 8) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** The import's report as text: what was read, what it maps to, what is odd, what was written. */
export const importText = (result: ImportResult): string[] => {
  const { report } = result;
  const rate = result.seconds > 0 ? Math.round(report.records / result.seconds) : report.records;
  return [
    `${result.dryRun ? 'Dry run of the import of' : 'Imported'} ${result.file.path} (sha256 ${result.file.sha256.slice(0, 16)}…) into tenant ${result.tenant}:`,
    `  ${report.records} record(s) of ${report.documents} document(s) in ${result.seconds.toFixed(1)} s (${rate} records/s)`,
    `  legacy states: ${top(report.legacyStates) || '-'}`,
    `  unmapped (to the catch-all): ${top(report.unmapped) || 'none'}`,
    `  invalid historical transitions (imported, warned): ${report.invalidTransitions}${report.invalidExamples
      .slice(0, 3)
      .map((e) => `; line ${e.line} ${e.docId}: ${e.from} -> ${e.to}`)
      .join('')}`,
    `  repeated states: ${report.repeats}; unreadable lines (skipped): ${report.unreadable}${report.unreadableExamples
      .slice(0, 3)
      .map((u) => `; line ${u.line}: ${u.reason}`)
      .join('')}`,
    `  documents end in: ${top(report.finalStates) || '-'}`,
    result.dryRun
      ? '  Nothing was written (--dry-run).'
      : `  ${result.written} log entries written, ${result.alreadyImported} record(s) already imported by an earlier run.`,
  ];
};

/** `docket ledger import`: reads the mapping, imports (or plans) with a progress bar, reports. */
export const runImport = async (
  ctx: CliContext,
  file: string,
  options: { map: string; tenant: string; dryRun?: boolean; report?: string; json?: boolean },
): Promise<void> => {
  const tenant = await checkTenant(options.tenant);
  const mapping = await readMapping(resolve(ctx.io.cwd, options.map));
  const target = await ctx.stack();
  const bar =
    ctx.io.stderr.isTTY && !options.json
      ? new cliProgress.SingleBar(
          {
            stream: ctx.io.stderr,
            format: 'Importing [{bar}] {percentage}% | {records} records | {eta_formatted} left',
            hideCursor: true,
            clearOnComplete: true,
          },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
  let started = false;
  const result = await importLedger({
    store: target.store,
    file: resolve(ctx.io.cwd, file),
    mapping,
    tenant,
    dryRun: Boolean(options.dryRun),
    onProgress: (read, total, records) => {
      if (!started) bar?.start(total, 0, { records });
      started = true;
      bar?.update(read, { records });
    },
  });
  bar?.stop();
  if (options.report)
    await writeFile(resolve(ctx.io.cwd, options.report), `${JSON.stringify(result, null, 2)}\n`);
  if (options.json) printJson(ctx.io, result);
  else for (const line of importText(result)) println(ctx.io, line);
};
