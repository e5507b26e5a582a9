import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { ALL_STATES } from '../../statemachine/states.js';
import type { CliContext } from '../context.js';
import { CheckFailedError } from '../errors.js';
import { formatDuration, renderTable } from '../format.js';
import { printJson, println } from '../io.js';
import type { Target } from '../target.js';

/** Verifies the ledger; with `repair`, first rolls forward items a crashed writer left behind. */
export const verify = async (target: Target, options: { tenant?: string; repair?: boolean }) => {
  const { verifyLedger, verifyWorkflowLog } = await import('../../lambdas/shared/store/index.js');
  const result = await verifyLedger(target.store, { tenant: options.tenant });
  if (!options.repair) return { ...result, repaired: [] as string[] };
  const repaired: string[] = [];
  const broken = [];
  for (const problem of result.broken) {
    if (!problem.repairable) {
      broken.push(problem);
      continue;
    }
    const item = await target.store.get(problem.workflowId, { repair: true });
    const after = verifyWorkflowLog(item, await target.store.history(item.id));
    if (after) broken.push(after);
    else repaired.push(problem.workflowId);
  }
  return { ...result, broken, repaired };
};

/** `ledger verify | stats | export`: the transition log as an audit trail an operator can check. */
export const registerLedgerCommands = (program: Command, ctx: CliContext): void => {
  const ledger = program.command('ledger').description('check, summarise and export the transition log');

  ledger
    .command('verify')
    .description(
      'check every workflow log against its item and the transition table; non-zero exit if broken',
    )
    .option('--tenant <tenant>', 'only this tenant')
    .option('--repair', 'roll forward items left behind their log by a crashed writer')
    .option('--json', 'print JSON')
    .action(async (options: { tenant?: string; repair?: boolean; json?: boolean }) => {
      const result = await verify(await ctx.stack(), options);
      if (options.json) printJson(ctx.io, result);
      else {
        for (const id of result.repaired) println(ctx.io, `${id}: repaired (item rolled forward to its log)`);
        for (const b of result.broken) {
          println(
            ctx.io,
            `${b.workflowId} (${b.tenant}): ${b.problems.join('; ')}${b.repairable ? ' [repairable: ledger verify --repair]' : ''}`,
          );
        }
        println(
          ctx.io,
          `Checked ${result.checked} workflow(s), ${result.entries} log entries: ${
            result.broken.length === 0 ? 'every log is consistent.' : `${result.broken.length} broken.`
          }`,
        );
      }
      if (result.broken.length > 0) {
        throw new CheckFailedError(
          `${result.broken.length} workflow(s) with a broken ledger: ${result.broken.map((b) => b.workflowId).join(', ')}`,
        );
      }
    });

  ledger
    .command('stats')
    .description('workflows by state, time in each state (p50/p95), errors by type')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--json', 'print JSON')
    .action(async (options: { tenant?: string; json?: boolean }) => {
      const { ledgerStats } = await import('../../lambdas/shared/store/index.js');
      const stats = await ledgerStats((await ctx.stack()).store, options);
      if (options.json) return printJson(ctx.io, stats);
      const states = ALL_STATES.filter(
        (s) => stats.byState[s] !== undefined || stats.timeInState[s] !== undefined,
      );
      println(ctx.io, `${stats.workflows} workflow(s), ${stats.transitions} transition(s)`);
      println(ctx.io);
      println(
        ctx.io,
        renderTable(
          states,
          [
            { header: 'STATE', value: (s) => s },
            { header: 'NOW', value: (s) => stats.byState[s] ?? 0, align: 'right' },
            { header: 'EXITS', value: (s) => stats.timeInState[s]?.count ?? 0, align: 'right' },
            {
              header: 'P50 TIME',
              value: (s) => (stats.timeInState[s] ? formatDuration(stats.timeInState[s].p50Ms) : '-'),
              align: 'right',
            },
            {
              header: 'P95 TIME',
              value: (s) => (stats.timeInState[s] ? formatDuration(stats.timeInState[s].p95Ms) : '-'),
              align: 'right',
            },
          ],
          'No workflows yet.',
        ),
      );
      const errors = Object.entries(stats.errorsByType).sort((a, b) => b[1] - a[1]);
      if (errors.length > 0) {
        println(ctx.io);
        println(
          ctx.io,
          renderTable(
            errors,
            [
              { header: 'ERROR', value: ([type]) => type },
              { header: 'COUNT', value: ([, n]) => n, align: 'right' },
            ],
            '',
          ),
        );
      }
    });

  ledger
    .command('export')
    .description('every log entry as JSON lines, workflow by workflow, oldest first')
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--tenant <tenant>', 'only this tenant')
    .action(async (options: { out?: string; tenant?: string }) => {
      const target = await ctx.stack();
      const { exportLedger } = await import('../../lambdas/shared/store/index.js');
      let lines = 0;
      const counted = async function* () {
        for await (const line of exportLedger(target.store, { tenant: options.tenant })) {
          lines += 1;
          yield line;
        }
      };
      if (options.out) {
        const file = resolve(ctx.io.cwd, options.out);
        await pipeline(Readable.from(counted()), createWriteStream(file));
        ctx.io.stderr.write(`Exported ${lines} log entries to ${file}.\n`);
      } else {
        for await (const line of counted()) {
          if (!ctx.io.stdout.write(line)) await new Promise((r) => ctx.io.stdout.once('drain', r));
        }
      }
    });
};
