import type { SFNClient } from '@aws-sdk/client-sfn';
import type { Command } from 'commander';
import type { WorkflowItem, WorkflowStore } from '../../lambdas/shared/store/index.js';
import { ALL_STATES, isAtRest, type WorkflowState } from '../../statemachine/states.js';
import type { CliContext } from '../context.js';
import { CheckFailedError, UsageError } from '../errors.js';
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

/**
 * True when no execution runs the workflow any more. Step Functions is the only one that can
 * tell a halted workflow (recovery gave up on it, or someone stopped its execution) from a slow
 * one: both sit in a processing or `failed` state. A redrive may run an ended execution again,
 * so the answer is not remembered.
 */
const executionEnded = async (sfn: SFNClient, executionArn: string | undefined): Promise<boolean> => {
  // Loaded here, not at the top: the SDK is no part of the CLI's start-up.
  const { describeExecution } = await import('../../lambdas/shared/resumeWorkflow.js');
  // None recorded (ingest records it on the workflow it creates), or past the retention: nothing
  // runs the workflow.
  const status = (await describeExecution(sfn, executionArn))?.status;
  return status !== 'RUNNING' && status !== 'PENDING_REDRIVE';
};

/** Whether `--until-settled` can stop, and the workflows that stopped without finishing. */
export interface Settlement {
  settled: boolean;
  /** Not at rest, yet no execution runs them: they wait for `docket retry` or `cancel`. */
  halted: WorkflowItem[];
}

/**
 * Settled means nothing will move without a person: every workflow is finished, waiting for
 * review, or halted. Step Functions is asked only once the listing is still (no workflow that is
 * not at rest changed since the last poll), and only until one execution is found running, so a
 * busy stack costs no calls.
 */
export const settlement = async (
  deps: { sfn: SFNClient; store: WorkflowStore },
  items: readonly WorkflowItem[],
  changed: ReadonlySet<string>,
  expect: number,
): Promise<Settlement> => {
  const notYet: Settlement = { settled: false, halted: [] };
  if (items.length < expect) return notYet;
  const waiting = items.filter((w) => !isAtRest(w.state));
  if (waiting.length === 0) return { settled: true, halted: [] };
  if (waiting.some((w) => changed.has(w.id))) return notYet;
  for (const w of waiting) if (!(await executionEnded(deps.sfn, w.executionArn))) return notYet;
  // The listing (an index, eventually consistent) may predate an execution's last write, made
  // just before it ended: only a workflow that reads the same now is halted.
  for (const w of waiting) {
    const now = await deps.store.find(w.id);
    if (now?.version !== w.version || now.updatedAt !== w.updatedAt) return notYet;
  }
  return { settled: true, halted: waiting };
};

/** Table rows that fit a terminal of `rows` lines beside the header, counts and recent changes. */
export const visibleRows = (rows = 30): number => Math.max(5, rows - 14);

const SHOWN_WHEN_LATE = 5;

/** What `--timeout` names: too few workflows, or the ones still moving. */
const notSettled = (items: readonly WorkflowItem[], expect: number, seconds: number): string => {
  const waiting = items.filter((w) => !isAtRest(w.state));
  const parts: string[] = [];
  if (items.length < expect) parts.push(`${items.length} of ${expect} expected workflow(s) seen`);
  if (waiting.length > 0) {
    const named = waiting.slice(0, SHOWN_WHEN_LATE).map((w) => `${w.id} (${w.state})`);
    const more = waiting.length - named.length;
    parts.push(
      `not finished or waiting for review: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
    );
  }
  return `not settled after ${seconds}s: ${parts.join('; ')}.`;
};

const countLine = (items: readonly WorkflowItem[]): string => {
  const counts = new Map<WorkflowState, number>();
  for (const w of items) counts.set(w.state, (counts.get(w.state) ?? 0) + 1);
  return ALL_STATES.filter((s) => counts.has(s))
    .map((s) => `${s} ${counts.get(s)}`)
    .join(' | ');
};

const changeLine = (c: WatchChange): string =>
  `${c.at.slice(11, 19)}  ${c.id}  ${(c.file ?? '').padEnd(24)}  ${c.from ? `${c.from} -> ` : ''}${c.to}`;

const printSettled = (ctx: CliContext, items: readonly WorkflowItem[], halted: readonly WorkflowItem[]) => {
  println(ctx.io, `Settled: ${countLine(items) || 'no workflows'}.`);
  if (halted.length === 0) return;
  println(
    ctx.io,
    'Halted, no execution runs them (`docket history ID` says why, `docket retry ID` resumes):',
  );
  for (const w of halted)
    println(ctx.io, `  ${w.id}  ${w.state}  ${baseName(w.source?.key) ?? ''}`.trimEnd());
};

/** `watch`: documents moving through the states, live. */
export const registerWatchCommand = (program: Command, ctx: CliContext): void => {
  program
    .command('watch')
    .description('live view of workflows moving through the states (Ctrl-C to stop)')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--interval <ms>', 'poll interval in milliseconds', '1000')
    .option(
      '--until-settled',
      'exit once every workflow is finished, waiting for review, or halted (no execution runs it)',
    )
    .option('--expect <n>', 'with --until-settled: wait for at least this many workflows', '1')
    .option(
      '--timeout <seconds>',
      'with --until-settled: give up after this long (exit 1, naming what had not settled)',
    )
    .option('--json', 'print each change as one JSON line')
    .action(
      async (options: {
        tenant?: string;
        interval: string;
        untilSettled?: boolean;
        expect: string;
        timeout?: string;
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
        const timeout = options.timeout === undefined ? undefined : Number(options.timeout);
        if (timeout !== undefined && !(timeout > 0 && Number.isFinite(timeout))) {
          throw new UsageError(`--timeout must be a positive number of seconds; got "${options.timeout}".`);
        }
        if (timeout !== undefined && !options.untilSettled) {
          throw new UsageError('--timeout goes with --until-settled.');
        }
        const target = await ctx.stack();
        const limit =
          timeout === undefined
            ? undefined
            : { seconds: timeout, at: ctx.io.now().getTime() + timeout * 1000 };
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
            const rows = visibleRows((ctx.io.stdout as { rows?: number }).rows);
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
          if (options.untilSettled) {
            const { settled, halted } = await settlement(
              target,
              items,
              new Set(changes.map((c) => c.id)),
              expect,
            );
            if (settled) {
              if (!options.json) printSettled(ctx, items, halted);
              break;
            }
          }
          let pause = interval;
          if (limit) {
            const left = limit.at - ctx.io.now().getTime();
            if (left <= 0) throw new CheckFailedError(notSettled(items, expect, limit.seconds));
            pause = Math.min(interval, left);
          }
          await new Promise((resolve) => setTimeout(resolve, pause));
        }
      },
    );
};
