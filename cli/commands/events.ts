import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { renderTable } from '../format.js';
import { printJson, println } from '../io.js';
import { isoTime } from '../timeFlags.js';

/**
 * `events`: what the local EventBridge received. Every delivery is in its sink, so each event id
 * is listed with how many times it came (a redelivery is a duplicate, shown, never hidden), and
 * each webhook with what it took and how many POSTs it needed.
 */
export const registerEventsCommand = (program: Command, ctx: CliContext): void => {
  program
    .command('events')
    .description(
      '(local) the completion events the local EventBridge received, with deliveries and duplicates',
    )
    .option('--since <time>', 'only deliveries received at or after this ISO time', isoTime('--since'))
    .option('--json', 'print JSON')
    .action(async (options: { since?: string; json?: boolean }) => {
      if (ctx.stackName) {
        throw new UsageError(
          'docket events reads the local event sink. On AWS the events are on the bus named by the ' +
            'EventBusName output: subscribe a rule to it, or replay them from its archive.',
        );
      }
      // Loaded here: `docket --version` and the other commands do without it.
      const { eventFiles, readCursors, summarizeSink } = await import(
        '../../local/emulators/events/index.js'
      );
      const files = eventFiles(join(ctx.dataDir, 'events'));
      const report = await summarizeSink(files.sink, options.since ? { since: new Date(options.since) } : {});
      const webhooks = await readCursors(files.webhooks);
      if (options.json) return printJson(ctx.io, { ...report, webhooks });
      println(
        ctx.io,
        renderTable(
          report.events,
          [
            { header: 'EVENT ID', value: (e) => e.eventId },
            { header: 'TYPE', value: (e) => e.type.replace(/^Docket Document /, '') },
            { header: 'TENANT', value: (e) => e.tenant, max: 24 },
            { header: 'DELIVERIES', value: (e) => e.deliveries, align: 'right' },
            { header: 'FIRST RECEIVED', value: (e) => e.firstReceivedAt },
            { header: 'LAST RECEIVED', value: (e) => (e.deliveries > 1 ? e.lastReceivedAt : '') },
          ],
          `No events in ${files.sink}${options.since ? ` since ${options.since}` : ''}.`,
        ),
      );
      println(
        ctx.io,
        `\n${report.received} deliveries of ${report.events.length} event id(s); ${report.duplicates} duplicate(s)` +
          (report.unreadable > 0 ? `; ${report.unreadable} unreadable line(s) skipped` : '') +
          '. Consumers dedupe by detail.eventId.',
      );
      for (const w of webhooks) {
        println(
          ctx.io,
          `webhook ${w.url}: ${w.delivered} delivered, ${w.attempts} attempt(s), ${w.failures} failed` +
            (w.lastError ? ` (last: ${w.lastError})` : ''),
        );
      }
    });
};
