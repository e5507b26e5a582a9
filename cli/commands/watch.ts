import type { Command } from 'commander';
import type { WorkflowItem } from '../../lambdas/shared/store/types.js';
import { ALL_STATES, isTerminal, type WorkflowState } from '../../statemachine/states.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { baseName } from '../format.js';
import { println } from '../io.js';
import { listWorkflows, workflowTable } from './workflows.js';

/** One state change seen between two polls. */
export interface WatchChange {
  at: string;
  id: string;
  tenant: string;
  file?: string;
  from?: WorkflowState;
  to: WorkflowState;
}

/** The changes from one snapshot (id -> state) to the next workflows. */
export const diffStates = (
  previous: ReadonlyMap<string, WorkflowState>,
  items: readonly WorkflowItem[],
  at: string,
): WatchChange[] =>
  items
    .filter((w) => previous.get(w.id) !== w.state)
    .map((w) => ({
      at,
      id: w.id,
      tenant: w.tenant,
      ...(w.source?.key && { file: baseName(w.source.key) }),
      ...(previous.has(w.id) && { from: previous.get(w.id) }),
      to: w.state,
    }))
    .sort((a, b) => a.id.localeCompare(b.id));

/** Nothing is moving: at least `expect` workflows, each finished or waiting for a person. */
export const isSettled = (items: readonly WorkflowItem[], expect = 1): boolean =>
  items.length >= expect && items.every((w) => isTerminal(w.state) || w.state === 'review_required');

const countLine = (items: readonly WorkflowItem[]): string => {
  const counts = new Map<WorkflowState, number>();
  for (const w of items) counts.set(w.state, (counts.get(w.state) ?? 0) + 1);
  return ALL_STATES.filter((s) => counts.has(s))
    .map((s) => `${s} ${counts.get(s)}`)
    .join(' | ');
};

const changeLine = (c: WatchChange): string =>
  `${c.at.slice(11, 19)}  ${c.id}  ${(c.file ?? '').padEnd(24)}  ${c.from ? `${c.from} -> ` : ''}${c.to}`;

/** `watch`: documents moving through the states, live. */
export const registerWatchCommand = (program: Command, ctx: CliContext): void => {
  program
    .command('watch')
    .description('live view of workflows moving through the states (Ctrl-C to stop)')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--interval <ms>', 'poll interval in milliseconds', '1000')
    .option('--until-settled', 'exit once every workflow is finished or waiting for review')
    .option('--expect <n>', 'with --until-settled: wait for at least this many workflows', '1')
    .option('--json', 'print each change as one JSON line')
    .action(
      async (options: {
        tenant?: string;
        interval: string;
        untilSettled?: boolean;
        expect: string;
        json?: boolean;
      }) => {
        const interval = Number(options.interval);
        if (!Number.isInteger(interval) || interval < 100) {
          throw new UsageError(`--interval must be at least 100 (ms); got "${options.interval}".`);
        }
        const expect = Number(options.expect);
        if (!Number.isInteger(expect) || expect < 0) {
          throw new UsageError(`--expect must be a whole number; got "${options.expect}".`);
        }
        const target = await ctx.stack();
        const live = Boolean(ctx.io.stdout.isTTY) && !options.json;
        const states = new Map<string, WorkflowState>();
        const recent: string[] = [];
        let stop = false;
        void ctx.io.interrupted().then(() => {
          stop = true;
        });
        while (!stop) {
          const now = ctx.io.now();
          const items = await listWorkflows(target, { tenant: options.tenant });
          const changes = diffStates(states, items, now.toISOString());
          for (const c of changes) states.set(c.id, c.to);
          if (options.json) for (const c of changes) ctx.io.stdout.write(`${JSON.stringify(c)}\n`);
          else if (live) {
            recent.push(...changes.filter((c) => c.from).map(changeLine));
            recent.splice(0, Math.max(0, recent.length - 8));
            const rows = Math.max(5, (ctx.io.stdout as { rows?: number }).rows ?? 30) - 14;
            ctx.io.stdout.write('\x1b[H\x1b[2J');
            println(
              ctx.io,
              `Docket ${target.name}: ${items.length} workflow(s)  ${countLine(items)}  (Ctrl-C to stop)`,
            );
            println(ctx.io);
            println(ctx.io, workflowTable(items.slice(0, rows), now));
            if (items.length > rows) println(ctx.io, `  ... and ${items.length - rows} more`);
            if (recent.length > 0) println(ctx.io, `\nRecent changes\n${recent.join('\n')}`);
          } else for (const c of changes) println(ctx.io, changeLine(c));
          if (options.untilSettled && isSettled(items, expect)) {
            if (!options.json) println(ctx.io, `Settled: ${countLine(items) || 'no workflows'}.`);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, interval));
        }
      },
    );
};
