import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { renderTable } from '../format.js';
import { printJson, println } from '../io.js';
import type { Target } from '../target.js';

const queuesOf = (target: Target) => {
  if (target.queues) return target.queues;
  throw new UsageError(
    `${target.name} has no upload queue: it was deployed before the queue existed. Deploy it again with \`npx cdk deploy\`.`,
  );
};

/** `dlq list` and `dlq redrive`: the uploads Docket could not start, and sending them back. */
export const registerDeadLetterCommands = (program: Command, ctx: CliContext): void => {
  const dlq = program
    .command('dlq')
    .description('the dead-letter queue: uploads Docket could not start or read, with the reason');

  dlq
    .command('list')
    .description('list the dead letters (nothing is taken off the queue)')
    .option('--limit <n>', 'at most this many', '1000')
    .option('--json', 'print JSON')
    .action(async (options: { limit: string; json?: boolean }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1) {
        throw new UsageError(`--limit must be a positive whole number; got "${options.limit}".`);
      }
      const target = await ctx.stack();
      const { listDeadLetters } = await import('../deadLetterQueue.js');
      const letters = await listDeadLetters(target.sqs, queuesOf(target).deadLetters, { limit });
      if (options.json) return printJson(ctx.io, letters);
      println(
        ctx.io,
        renderTable(
          letters,
          [
            { header: 'MESSAGE', value: (l) => l.messageId, max: 36 },
            { header: 'AT', value: (l) => l.at },
            { header: 'FROM', value: (l) => l.source },
            { header: 'KEY', value: (l) => l.key, max: 48 },
            { header: 'REASON', value: (l) => l.reason, max: 80 },
          ],
          'The dead-letter queue is empty.',
        ),
      );
    });

  dlq
    .command('redrive')
    .description('send dead letters back to the upload queue; each runs as a new execution of its workflow')
    .argument('[messageIds...]', 'the messages to redrive (from `docket dlq list`)')
    .option('--all', 'redrive every dead letter')
    .option('--json', 'print JSON')
    .action(async (ids: string[], options: { all?: boolean; json?: boolean }) => {
      if (!options.all && ids.length === 0) {
        throw new UsageError('Name the messages to redrive (see `docket dlq list`), or pass --all.');
      }
      if (options.all && ids.length > 0) throw new UsageError('Pass message ids or --all, not both.');
      const target = await ctx.stack();
      const { redriveDeadLetters } = await import('../deadLetterQueue.js');
      const wanted = new Set(ids);
      const { redriven, kept } = await redriveDeadLetters(target.sqs, queuesOf(target), (l) =>
        options.all ? true : wanted.has(l.messageId),
      );
      const missing = ids.filter((id) => !redriven.some((l) => l.messageId === id));
      if (options.json) return printJson(ctx.io, { redriven, kept, missing });
      println(ctx.io, `Redrove ${redriven.length} upload(s); ${kept} dead letter(s) stay.`);
      if (missing.length > 0) {
        println(ctx.io, `Not in the dead-letter queue (redriven already?): ${missing.join(', ')}`);
        ctx.exitCode = 1;
      }
    });
};
