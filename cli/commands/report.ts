import type { Command } from 'commander';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { formatDuration, renderTable } from '../format.js';
import { printJson, println } from '../io.js';
import { progressLine } from '../progressLine.js';
import type { Target } from '../target.js';
import { isoTime } from '../timeFlags.js';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400 };

/** `--target`: a duration such as 8h, 90m, 1d or plain seconds; a usage error otherwise. */
const targetDuration = (value: string): number => {
  const match = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(value.trim());
  const seconds = match ? Number(match[1]) * (UNITS[match[2] || 's'] as number) : Number.NaN;
  if (!(seconds >= 60))
    throw new UsageError(
      `--target takes a duration of at least a minute, such as 8h, 90m or 1d, not "${value}".`,
    );
  return Math.round(seconds);
};

/** Whether a workflow may have a review episode in the report's window: it reached review, and moved since. */
const reviewedSince = (item: WorkflowItem, since: string | undefined): boolean =>
  (item.review !== undefined || item.state === 'review_required') &&
  (!since || item.state === 'review_required' || item.updatedAt >= since);

/**
 * Reads the review episodes of the target's workflows (one tenant, or all) from their logs: the
 * log is the only record of when each review began and ended.
 */
const readEpisodes = async (
  target: Target,
  ctx: CliContext,
  options: { tenant?: string; since?: string; progress: boolean },
) => {
  const { reviewEpisodes } = await import('../../lambdas/shared/sla/index.js');
  const progress = progressLine(ctx.io, { enabled: options.progress });
  const episodes = [];
  let read = 0;
  for await (const item of target.store.listAll({ tenant: options.tenant })) {
    read += 1;
    progress.update(`Reading review history: ${read} workflows, ${episodes.length} reviews`);
    if (!reviewedSince(item, options.since)) continue;
    episodes.push(...reviewEpisodes(await target.store.history(item.id), item.docType ?? 'unknown'));
  }
  progress.done();
  return episodes;
};

const hours = (seconds: number | null) => (seconds === null ? '-' : formatDuration(seconds * 1000));

/** `report sla`: review waits against the target, per queue and per reviewer, decisions per day. */
export const registerReportCommands = (program: Command, ctx: CliContext): void => {
  const report = program.command('report').description('reports over the workflows and their logs');
  report
    .command('sla')
    .description(
      'review waits (p50/p95/max) against the review target, breaches per queue and reviewer, decisions per day',
    )
    .option(
      '--since <time>',
      'only reviews that ended at or after this ISO time (open ones always count)',
      isoTime('--since'),
    )
    .option('--tenant <tenant>', 'only this tenant (default: all)')
    .option(
      '--target <duration>',
      'the review target (default: reviewSlaSeconds, DOCKET_REVIEW_SLA_SECONDS or 8h)',
      targetDuration,
    )
    .option('--json', 'print JSON')
    .action(async (options: { since?: string; tenant?: string; target?: number; json?: boolean }) => {
      const { reviewSlaSecondsFromEnv, slaReport } = await import('../../lambdas/shared/sla/index.js');
      const targetSeconds = options.target ?? reviewSlaSecondsFromEnv(ctx.io.env);
      const target = await ctx.stack();
      const episodes = await readEpisodes(target, ctx, { ...options, progress: !options.json });
      const sla = slaReport(episodes, {
        targetSeconds,
        now: ctx.io.now(),
        ...(options.since && { since: new Date(options.since) }),
      });
      if (options.json) return printJson(ctx.io, sla);
      const { ended, open } = sla;
      println(
        ctx.io,
        `Review target ${hours(targetSeconds)}${options.since ? `; reviews ended since ${options.since}` : ''}.`,
      );
      println(
        ctx.io,
        renderTable(
          [
            { what: 'ended', ...ended },
            { what: 'open', ...open },
            ...sla.queues.map((q) => ({ what: `queue ${q.queue}`, ...q })),
          ],
          [
            { header: 'REVIEWS', value: (r) => r.what },
            { header: 'COUNT', value: (r) => r.count, align: 'right' },
            { header: 'P50', value: (r) => hours(r.p50Seconds), align: 'right' },
            { header: 'P95', value: (r) => hours(r.p95Seconds), align: 'right' },
            { header: 'MAX', value: (r) => hours(r.maxSeconds), align: 'right' },
            { header: 'PAST TARGET', value: (r) => r.breaches, align: 'right' },
          ],
          'No reviews.',
        ),
      );
      println(ctx.io, '');
      println(
        ctx.io,
        renderTable(
          sla.reviewers,
          [
            { header: 'REVIEWER', value: (r) => r.reviewer, max: 32 },
            { header: 'DECISIONS', value: (r) => r.decisions, align: 'right' },
            { header: 'PAST TARGET', value: (r) => r.breaches, align: 'right' },
            { header: 'P50 WAIT', value: (r) => hours(r.p50Seconds), align: 'right' },
          ],
          'No decisions by a reviewer.',
        ),
      );
      if (sla.daily.length > 0) {
        println(ctx.io, '');
        println(
          ctx.io,
          renderTable(
            sla.daily,
            [
              { header: 'DAY', value: (d) => d.day },
              { header: 'REVIEWER', value: (d) => d.reviewer, max: 32 },
              { header: 'DECISIONS', value: (d) => d.decisions, align: 'right' },
            ],
            '',
          ),
        );
      }
    });
};
