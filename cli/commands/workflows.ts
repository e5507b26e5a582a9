import type { Command } from 'commander';
import { Option } from 'commander';
import type { Principal } from '../../lambdas/shared/principal.js';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import { workflowView } from '../../lambdas/shared/workflowViews.js';
import { ALL_STATES, isWorkflowState, type WorkflowState } from '../../statemachine/states.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { baseName, formatDuration, renderTable } from '../format.js';
import { printJson, println } from '../io.js';
import type { Target } from '../target.js';
import { showText, workflowDetails } from './showWorkflow.js';
import { historyText, workflowHistory } from './workflowHistory.js';

/** `--state S`, checked against the workflow states. */
export const stateOption = () =>
  new Option('--state <state>', 'only workflows in this state').choices(ALL_STATES as WorkflowState[]);

/** Every workflow (of one tenant and state), newest first. */
export const listWorkflows = async (
  target: Target,
  query: { tenant?: string; state?: string },
): Promise<WorkflowItem[]> => {
  if (query.state !== undefined && !isWorkflowState(query.state)) {
    throw new UsageError(`Unknown state "${query.state}"; one of ${ALL_STATES.join(', ')}.`);
  }
  const items: WorkflowItem[] = [];
  for await (const item of target.store.listAll({ tenant: query.tenant, state: query.state }))
    items.push(item);
  return items.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
};

/** The workflow table of `ls` and `watch`. */
export const workflowTable = (items: readonly WorkflowItem[], now: Date): string =>
  renderTable(
    items,
    [
      { header: 'ID', value: (w) => w.id },
      { header: 'TENANT', value: (w) => w.tenant, max: 16 },
      { header: 'STATE', value: (w) => w.state },
      { header: 'TYPE', value: (w) => w.docType },
      { header: 'CONF', value: (w) => w.confidence, align: 'right' },
      { header: 'IN STATE', value: (w) => formatDuration(now.getTime() - Date.parse(w.stateEnteredAt)) },
      { header: 'FILE', value: (w) => baseName(w.source?.key), max: 40 },
    ],
    'No workflows.',
  );

/** `ls`, `show`, `history`, `retry`, `cancel`: operators' view of workflows. */
export const registerWorkflowCommands = (program: Command, ctx: CliContext): void => {
  program
    .command('ls')
    .description('list workflows, newest first')
    .addOption(stateOption())
    .option('--tenant <tenant>', 'only this tenant (default: all)')
    .option('--problems', 'instead: quarantined uploads and (local) storage files set aside after a crash')
    .option('--json', 'print JSON')
    .action(async (options: { state?: string; tenant?: string; problems?: boolean; json?: boolean }) => {
      if (options.problems) {
        const { listProblems } = await import('../problems.js');
        const problems = await listProblems(await ctx.stack(), ctx.stackName ? undefined : ctx.dataDir);
        if (options.json) return printJson(ctx.io, problems);
        if (problems.length === 0) return println(ctx.io, 'No problems: nothing quarantined or set aside.');
        for (const p of problems)
          println(
            ctx.io,
            `${p.kind.padEnd(10)} ${p.what}\n           now ${p.where}\n           ${p.reason}`,
          );
        return;
      }
      const items = await listWorkflows(await ctx.stack(), options);
      if (options.json) printJson(ctx.io, items.map(workflowView));
      else println(ctx.io, workflowTable(items, ctx.io.now()));
    });

  program
    .command('show')
    .description('one workflow: state, fields with confidence, review reasons, comparison')
    .argument('<id>', 'workflow id (see `docket ls`)')
    .option('--tenant <tenant>', 'refuse a workflow of another tenant')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { tenant?: string; json?: boolean }) => {
      const target = await ctx.stack();
      const details = await workflowDetails(target, await target.store.get(id, { tenant: options.tenant }));
      if (options.json) printJson(ctx.io, details);
      else println(ctx.io, showText(details, ctx.io.now()));
    });

  program
    .command('history')
    .description(
      'transition log (durations, actors) and the events of every execution of one workflow, oldest first',
    )
    .argument('<id>', 'workflow id')
    .option('--tenant <tenant>', 'refuse a workflow of another tenant')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { tenant?: string; json?: boolean }) => {
      const target = await ctx.stack();
      const history = await workflowHistory(target, await target.store.get(id, { tenant: options.tenant }));
      if (options.json) printJson(ctx.io, history);
      else println(ctx.io, historyText(history));
    });

  /**
   * An operator's action on one workflow (retry, erase, cancel): the workflow's tenant, the
   * operator as the actor, the action run in-process, and its result as JSON or one line.
   */
  const operatorCommand = <R, O extends { as?: string; json?: boolean }>(spec: {
    name: string;
    description: string;
    options?: [flags: string, description: string][];
    act: (target: Target, principal: Principal, id: string, options: O) => Promise<R>;
    text: (result: R, id: string, before: WorkflowItem) => string;
  }) => {
    const command = program.command(spec.name).description(spec.description).argument('<id>', 'workflow id');
    for (const [flags, description] of spec.options ?? []) command.option(flags, description);
    command
      .option('--as <user>', 'operator recorded in the log (default $DOCKET_USER or your login)')
      .option('--json', 'print JSON')
      .action(async (id: string, options: O) => {
        const target = await ctx.stack();
        const item = await target.store.get(id);
        const result = await spec.act(target, ctx.principal(item.tenant, options.as), id, options);
        if (options.json) printJson(ctx.io, result);
        else println(ctx.io, spec.text(result, id, item));
      });
  };

  operatorCommand({
    name: 'retry',
    description:
      'resume a workflow at the stage that failed (or where it stopped): redrives its execution when it was cut short mid-stage, else starts a new one',
    act: async (target, principal, id) =>
      (await import('../../lambdas/shared/operatorActions.js')).retryWorkflow(target.api, principal, id),
    text: (result, id) =>
      result.method === 'redrive'
        ? `Redriving execution ${result.executionArn.split(':').at(-1)} of ${id} from the state it stopped in (${result.resumeAt}).`
        : `Resuming ${id} at ${result.resumeAt} (new execution ${result.executionArn.split(':').at(-1)}).`,
  });

  operatorCommand({
    name: 'erase',
    description:
      'erase a finished document (right to erasure): its upload, its artifacts and what its item holds of it; the log keeps ids, states and hashes, and still verifies',
    act: async (target, principal, id) =>
      (await import('../../lambdas/shared/erasure.js')).eraseWorkflow(target.api, principal, id),
    text: (result, id) =>
      result.alreadyErased
        ? `${id} was already erased; nothing changed.`
        : `Erased ${id} (${result.workflow.state}): ${result.objectsDeleted} object version(s) deleted, its content removed from the item; the log keeps the erase entry.`,
  });

  operatorCommand({
    name: 'cancel',
    description: 'cancel a workflow that has not finished, and stop its execution',
    options: [['--reason <reason>', 'why (kept on the workflow, not in the log)']],
    act: async (target, principal, id, options: { reason?: string; as?: string; json?: boolean }) =>
      (await import('../../lambdas/shared/operatorActions.js')).cancelWorkflow(
        target.api,
        principal,
        id,
        options.reason,
      ),
    text: (result, id, before) =>
      `Cancelled ${id} (was ${before.state})${result.executionStopped ? '; its execution was stopped' : ''}.`,
  });
};
