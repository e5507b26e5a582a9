import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { renderTable } from '../format.js';
import { printJson, println } from '../io.js';

/** A cell as text: null empty in CSV (`-` in a table), a structure as JSON. */
const text = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const csvField = (value: unknown): string => {
  const t = text(value);
  return /[",\r\n]/.test(t) ? `"${t.replaceAll('"', '""')}"` : t;
};

/** Collects a repeated option's values. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `query SQL` (DuckDB over the Parquet results, locally or of a deployed stack's bucket) and
 * `results compact` (the compaction the schedule runs, now, for any day).
 */
export const registerResultsCommands = (program: Command, ctx: CliContext): void => {
  program
    .command('query')
    .description(
      'run SQL with DuckDB over the Parquet results: tables invoices and contracts, one row per completed document',
    )
    .argument('<sql>', `e.g. "SELECT vendor, sum(total) FROM invoices WHERE currency = 'EUR' GROUP BY 1"`)
    .option('--tenant <tenant>', "only this tenant's results")
    .option('--json', 'print JSON (an array of rows)')
    .option('--csv', 'print CSV with a header line')
    .action(async (sql: string, options: { tenant?: string; json?: boolean; csv?: boolean }) => {
      if (options.json && options.csv) throw new UsageError('Give --json or --csv, not both.');
      const target = await ctx.stack();
      const { queryResults } = await import('../query/resultsQuery.js');
      const result = await queryResults({
        s3: target.s3,
        bucket: target.bucket,
        sql,
        ...(options.tenant !== undefined && { tenant: options.tenant }),
      });
      if (options.json) return printJson(ctx.io, result.rows);
      if (options.csv) {
        const lines = [result.columns, ...result.rows.map((r) => result.columns.map((c) => r[c]))];
        return println(ctx.io, lines.map((l) => l.map(csvField).join(',')).join('\n'));
      }
      println(
        ctx.io,
        renderTable(
          result.rows,
          result.columns.map((c) => ({
            header: c,
            value: (r: Record<string, unknown>) => text(r[c]) || '-',
          })),
          'No rows.',
        ),
      );
      println(ctx.io, `\n${result.rows.length} row(s) from ${result.files} Parquet file(s).`);
    });

  program
    .command('results')
    .description('the results of completed documents (JSON under results/, Parquet under results-parquet/)')
    .command('compact')
    .description(
      "rewrite each tenant's Parquet file of a day from that day's JSON results (default today and yesterday, UTC), as the schedule does",
    )
    .option('--date <YYYY-MM-DD>', 'a day to compact (repeatable)', collect)
    .option('--all', 'every day that has results')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--json', 'print JSON')
    .action(async (options: { date?: string[]; all?: boolean; tenant?: string; json?: boolean }) => {
      if (options.all && options.date) throw new UsageError('Give --date or --all, not both.');
      const target = await ctx.stack();
      const { compactResults } = await import('../../lambdas/shared/results/compact.js');
      const days = await compactResults(
        { s3: target.s3, bucket: target.bucket },
        {
          now: ctx.io.now,
          ...(options.all ? { dates: 'all' as const } : options.date && { dates: options.date }),
          ...(options.tenant !== undefined && { tenant: options.tenant }),
        },
      );
      if (options.json) return printJson(ctx.io, days);
      const done = days.filter((d) => d.action !== 'nothing');
      for (const d of done) {
        println(
          ctx.io,
          d.action === 'written'
            ? `${d.tenant} ${d.docType} ${d.date}: ${d.rows} row(s) -> s3://${target.bucket}/${d.key}`
            : `${d.tenant} ${d.docType} ${d.date}: no results left, removed ${d.key}`,
        );
        for (const key of d.unreadable) println(ctx.io, `  left out (not a Docket result): ${key}`);
      }
      if (done.length === 0) println(ctx.io, 'No results for those days: nothing to compact.');
    });
};
