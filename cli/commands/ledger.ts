import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { LedgerScope } from '../../lambdas/shared/store/index.js';
import { ALL_STATES } from '../../statemachine/states.js';
import type { CliContext } from '../context.js';
import { StackOutputsError } from '../errors.js';
import { formatDuration, renderTable } from '../format.js';
import { printJson, println } from '../io.js';
import { isoTime } from '../timeFlags.js';
import { LEDGER_EXIT, type VerifyReport, verifyCommand, verifyText } from './ledgerVerify.js';

/** A commander parser for an ISO 8601 time flag: a usage error names the flag and the format. */
/** `ledger verify | snapshot | stats | export`: the transition log as an audit trail an operator can prove. */
export const registerLedgerCommands = (program: Command, ctx: CliContext): void => {
  const ledger = program
    .command('ledger')
    .description('verify, snapshot, import, summarise and export the transition log');

  ledger
    .command('verify')
    .description(
      `recompute every hash chain (or one workflow's, or a time range) and check it against its item, the transition table and, with --against, a snapshot; exit ${LEDGER_EXIT.clean} clean, ${LEDGER_EXIT.tampered} tampered, ${LEDGER_EXIT.unreadable} unreadable evidence`,
    )
    .option('--tenant <tenant>', 'only this tenant')
    .option('--workflow <id>', 'only this workflow')
    .option('--since <time>', 'only workflows changed at or after this ISO time', isoTime('--since'))
    .option('--until <time>', 'only workflows created at or before this ISO time', isoTime('--until'))
    .option('--against <key>', 'also check against this snapshot (S3 key under ledger/snapshots/)')
    .option('--repair', 'roll forward items left behind their log by a crashed writer (entries that chain)')
    .option('--json', 'print JSON')
    .action(
      async (
        options: LedgerScope & { workflow?: string; against?: string; repair?: boolean; json?: boolean },
      ) => {
        const { SnapshotUnreadableError } = await import('../../lambdas/shared/ledgerSnapshots/index.js');
        let report: VerifyReport;
        try {
          report = await verifyCommand(await ctx.stack(), ctx.io, {
            ...options,
            ...(options.workflow !== undefined && { workflowId: options.workflow }),
            progress: !options.json,
          });
        } catch (error) {
          if (!(error instanceof SnapshotUnreadableError)) throw error;
          ctx.io.stderr.write(`docket: ${error.message}\n`);
          ctx.exitCode = LEDGER_EXIT.unreadable;
          return;
        }
        if (options.json) printJson(ctx.io, report);
        else for (const line of verifyText(report)) println(ctx.io, line);
        if (report.broken.length > 0) {
          ctx.io.stderr.write(
            `docket: ${report.broken.length} workflow(s) with a ledger not as the store wrote it: ${report.broken.map((b) => b.workflowId).join(', ')}\n`,
          );
          ctx.exitCode = LEDGER_EXIT.tampered;
        }
      },
    );

  ledger
    .command('snapshot')
    .description(
      "write each tenant's chain heads (entry count, head hash, state of every workflow) with a SHA-256 of the file to ledger/snapshots/ (Object Lock on AWS)",
    )
    .option('--tenant <tenant>', 'only this tenant')
    .option('--json', 'print JSON')
    .action(async (options: { tenant?: string; json?: boolean }) => {
      const target = await ctx.stack();
      const { takeSnapshots } = await import('../../lambdas/shared/ledgerSnapshots/index.js');
      if (!target.snapshotBucket) {
        throw new StackOutputsError(
          `Stack ${target.name} has no ledger snapshot bucket (deployed before snapshots existed); deploy it again.`,
        );
      }
      const written = await takeSnapshots({
        store: target.store,
        s3: target.s3,
        bucket: target.snapshotBucket,
        now: ctx.io.now,
        ...(options.tenant !== undefined && { tenant: options.tenant }),
      });
      if (options.json) return printJson(ctx.io, written);
      for (const w of written)
        println(
          ctx.io,
          `${w.tenant}: ${w.workflows} workflow(s) -> s3://${w.bucket}/${w.key} (sha256 ${w.sha256})`,
        );
      if (written.length === 0) println(ctx.io, 'No workflows yet: nothing to snapshot.');
    });

  ledger
    .command('import')
    .description(
      "import an older pipeline's JSONL ledger (seed 004) as workflows of a tenant, its state strings mapped through a YAML mapping; re-running it writes nothing twice",
    )
    .argument('<file>', 'the JSONL ledger: one {doc_id, state, timestamp, ...} record per line')
    .requiredOption(
      '--map <mapping.yaml>',
      'state strings to Docket states, with "*": legacy as the catch-all',
    )
    .requiredOption('--tenant <tenant>', 'the tenant the documents belong to')
    .option('--dry-run', 'read, map and check everything, write nothing')
    .option('--report <file>', 'also write the report (JSON) to this file')
    .option('--json', 'print JSON')
    .action(
      async (
        file: string,
        options: { map: string; tenant: string; dryRun?: boolean; report?: string; json?: boolean },
      ) => {
        const { runImport } = await import('../ledgerImport/importCommand.js');
        await runImport(ctx, file, options);
      },
    );

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
