import { type Command, Option } from 'commander';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { formatDuration, renderTable } from '../format.js';
import { printJson, println } from '../io.js';
import { progressLine } from '../progressLine.js';
import type { ReprocessReport } from '../reprocess/runReprocess.js';
import { isoTime } from '../timeFlags.js';

interface ReprocessOptions {
  tenant?: string;
  type?: 'invoice' | 'contract';
  since?: string;
  state?: string;
  dryRun?: boolean;
  as?: string;
  json?: boolean;
}

/** The per-document table and the summary line of a finished reprocess. */
const reportText = (report: ReprocessReport): string => {
  const table = renderTable(
    report.documents,
    [
      { header: 'ID', value: (d) => d.workflowId },
      { header: 'TENANT', value: (d) => d.tenant, max: 16 },
      { header: 'RUN', value: (d) => d.run, align: 'right' },
      { header: 'OUTCOME', value: (d) => d.outcome },
      {
        header: 'CHANGED',
        value: (d) => (d.changedFields.length ? d.changedFields.join(', ') : '-'),
        max: 48,
      },
      { header: 'KEPT (SET BY A PERSON)', value: (d) => d.lockedFields.join(', '), max: 32 },
      { header: 'WHY NOT', value: (d) => d.reason, max: 60 },
    ],
    'Nothing was reprocessed.',
  );
  const count = (f: (d: ReprocessReport['documents'][number]) => boolean) =>
    report.documents.filter(f).length;
  return [
    table,
    '',
    `batch ${report.batch}: ${report.started} of ${report.selected} run again in ${formatDuration(report.seconds * 1000)} ` +
      `(${report.documentsPerSecond.toFixed(2)} documents/s); ` +
      `${count((d) => d.changedFields.length > 0)} changed, ` +
      `${count((d) => d.outcome === 'review_required')} sent to review, ` +
      `${count((d) => d.outcome === 'skipped' || d.outcome === 'failed')} not run.`,
  ].join('\n');
};

/** `docket reprocess`: completed documents run again from parse with the current extractor. */
export const registerReprocessCommand = (program: Command, ctx: CliContext): void => {
  program
    .command('reprocess')
    .description(
      'run completed documents again from parse with the current extractor; fields a person set are kept, and a changed record a person approved goes back to review',
    )
    .option('--tenant <tenant>', 'only this tenant (default: all)')
    .addOption(new Option('--type <type>', 'only this document type').choices(['invoice', 'contract']))
    .option('--since <time>', 'only documents that arrived at or after this ISO time', isoTime('--since'))
    .option('--state <state>', 'which documents: completed (the only state a rerun starts from)', 'completed')
    .option('--dry-run', 'list what would run again, change nothing')
    .option('--as <user>', 'operator recorded in the log (default $DOCKET_USER or your login)')
    .option('--json', 'print JSON')
    .action(async (options: ReprocessOptions) => {
      if (options.state !== 'completed') {
        throw new UsageError(
          `--state ${options.state}: only completed documents can be reprocessed; retry a failed one with \`docket retry\`.`,
        );
      }
      const { runReprocess, selectForReprocess } = await import('../reprocess/runReprocess.js');
      const target = await ctx.stack();
      const items = await selectForReprocess(target, {
        ...(options.tenant && { tenant: options.tenant }),
        ...(options.type && { docType: options.type }),
        ...(options.since && { since: options.since }),
      });
      if (options.dryRun) {
        const rows = items.map((i) => ({
          workflowId: i.id,
          tenant: i.tenant,
          docType: i.docType,
          run: i.run ?? 0,
        }));
        if (options.json) return printJson(ctx.io, { dryRun: true, documents: rows });
        println(
          ctx.io,
          renderTable(
            rows,
            [
              { header: 'ID', value: (r) => r.workflowId },
              { header: 'TENANT', value: (r) => r.tenant, max: 16 },
              { header: 'TYPE', value: (r) => r.docType },
              { header: 'RUNS SO FAR', value: (r) => r.run + 1, align: 'right' },
            ],
            'No completed documents match.',
          ),
        );
        return println(ctx.io, `\n${items.length} documents would run again (dry run: nothing changed).`);
      }
      const progress = progressLine(ctx.io, { enabled: !options.json });
      const report = await runReprocess(target, items, {
        requestedBy: ctx.principal(options.tenant ?? '*', options.as).user,
        onProgress: (done, total, phase) =>
          progress.update(`${phase === 'starting' ? 'starting' : 'running'}: ${done} of ${total} documents`),
      });
      progress.done();
      if (options.json) printJson(ctx.io, report);
      else println(ctx.io, reportText(report));
    });
};
