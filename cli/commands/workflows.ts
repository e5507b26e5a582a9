import type { HistoryEvent } from '@aws-sdk/client-sfn';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { ComparisonReport } from '../../lambdas/compare/index.js';
import type { Extraction } from '../../lambdas/shared/documents/index.js';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import { historyEntryView, workflowView } from '../../lambdas/shared/workflowViews.js';
import { ALL_STATES, isWorkflowState, type WorkflowState } from '../../statemachine/index.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { describeEvent } from '../executionEvents.js';
import {
  baseName,
  formatConfidence,
  formatDuration,
  formatRelative,
  formatValue,
  renderTable,
} from '../format.js';
import { printJson, println } from '../io.js';
import type { Target } from '../target.js';
import type { WorkflowExecution } from '../workflowExecutions.js';

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

/** Everything `show` knows about one workflow. */
export const workflowDetails = async (target: Target, item: WorkflowItem) => {
  const { getJsonArtifact } = await import('../../lambdas/shared/artifacts.js');
  const extractionKey = item.artifacts?.reviewed ?? item.artifacts?.extraction;
  const extraction = extractionKey
    ? await getJsonArtifact<Extraction>(target.s3, target.bucket, extractionKey)
    : undefined;
  const comparison = item.artifacts?.comparison
    ? await getJsonArtifact<ComparisonReport>(target.s3, target.bucket, item.artifacts.comparison)
    : undefined;
  return {
    workflow: workflowView(item),
    docType: extraction?.docType ?? item.docType,
    ...(extraction?.language && { language: extraction.language }),
    ...(extraction?.textOrigin && { textOrigin: extraction.textOrigin }),
    ...(extraction?.einvoice && { einvoice: extraction.einvoice }),
    fields: (extraction?.fields ?? {}) as Record<
      string,
      {
        value: unknown;
        confidence: number;
        source?: { page: number; line: number } | { attachment: string; path: string };
        evidence?: { kind: string; detail: string }[];
        corrected?: boolean;
      }
    >,
    rejected: extraction?.rejected ?? [],
    comparison,
  };
};

const TEXT_ORIGIN = { 'text-layer': 'the PDF text', ocr: 'OCR of a scan', xml: 'e-invoice XML' } as const;
/** Evidence kinds that check a value (shown), as opposed to how it was read. */
const CHECKS: ReadonlySet<string> = new Set(['agreement', 'arithmetic', 'master', 'checksum']);

const showText = (details: Awaited<ReturnType<typeof workflowDetails>>, now: Date): string => {
  const w = details.workflow;
  const lines = [
    `${w.id}  ${w.docType ?? 'document'}  ${w.state} (for ${formatDuration(now.getTime() - Date.parse(w.stateEnteredAt))})`,
    `  tenant      ${w.tenant}`,
    `  file        ${w.source?.key ?? '-'}${w.pageCount ? ` (${w.pageCount} page${w.pageCount === 1 ? '' : 's'})` : ''}`,
    `  confidence  ${w.confidence ?? '-'}`,
    ...(details.language ? [`  language    ${details.language}`] : []),
    ...(details.textOrigin ? [`  read from   ${TEXT_ORIGIN[details.textOrigin]}`] : []),
    ...(details.einvoice
      ? [
          `  e-invoice   ${details.einvoice.syntax.toUpperCase()} ${details.einvoice.attachment}: sums ${details.einvoice.consistent ? 'hold' : `do not hold (${details.einvoice.issues.join('; ')})`}`,
        ]
      : []),
    `  retries     ${w.retryCount}${w.failedAtStep ? ` (failed at ${w.failedAtStep})` : ''}`,
    `  created     ${w.createdAt}`,
  ];
  if (w.lastError) lines.push(`  last error  ${w.lastError.type}: ${w.lastError.message}`);
  if (w.review && (w.state === 'review_required' || w.review.reasons.length > 0 || w.review.decision)) {
    const r = w.review;
    lines.push(
      '',
      `Review: priority ${r.priority}${w.state === 'review_required' ? `, due ${formatRelative(r.dueAt, now)}` : ''}${r.claimedBy ? `, claimed by ${r.claimedBy}` : ''}`,
    );
    for (const reason of r.reasons) lines.push(`  - ${reason.code}: ${reason.message}`);
    if (r.decision) {
      lines.push(
        `  decided: ${r.decision.decision} by ${r.decision.reviewer} at ${r.decision.at}${r.decision.reason ? ` (${r.decision.reason})` : ''}`,
      );
    }
  }
  const fields = Object.entries(details.fields);
  if (fields.length > 0) {
    lines.push(
      '',
      'Fields',
      renderTable(
        fields,
        [
          { header: 'FIELD', value: ([name]) => name },
          { header: 'VALUE', value: ([, f]) => formatValue(f.value), max: 60 },
          { header: 'CONF', value: ([, f]) => formatConfidence(f.confidence), align: 'right' },
          {
            header: 'SOURCE',
            value: ([, f]) =>
              f.corrected
                ? 'corrected'
                : f.source && 'page' in f.source
                  ? `p${f.source.page} l${f.source.line}`
                  : f.source
                    ? 'e-invoice data'
                    : '-',
          },
          {
            header: 'CHECKED BY',
            value: ([, f]) =>
              [...new Set((f.evidence ?? []).filter((e) => CHECKS.has(e.kind)).map((e) => e.kind))].join(
                ', ',
              ) || '-',
          },
        ],
        '',
        '  ',
      ),
    );
  }
  for (const r of details.rejected) lines.push(`  ! ${r.field}: "${r.raw}" (${r.reason})`);
  if (details.comparison) {
    const s = details.comparison.summary;
    lines.push(
      '',
      `Comparison: ${s.status} (${s.critical} critical, ${s.warning} warning, ${s.info} info)${details.comparison.referenceId ? ` against ${details.comparison.referenceId}` : ''}`,
    );
    for (const f of details.comparison.findings) lines.push(`  - [${f.severity}] ${f.code}: ${f.message}`);
  }
  return lines.join('\n');
};

/**
 * The transition log and the events of every execution of one workflow, oldest first. A retry or
 * a resume after a restart runs the workflow on in a new execution; the earlier ones still tell
 * what happened before. `execution` (the latest, as the item records it) stays for readers of
 * the JSON from before `executions` existed.
 */
export const workflowHistory = async (target: Target, item: WorkflowItem) => {
  const entries = (await target.store.history(item.id)).map(historyEntryView);
  // Loaded here, not at the top: it brings the Step Functions SDK, no part of the CLI's start-up.
  const { workflowExecutions } = await import('../workflowExecutions.js');
  const executions = await workflowExecutions(target.sfn, target.stateMachineArn, item);
  const latest = executions.find((e) => e.executionArn === item.executionArn);
  const execution = latest && { executionArn: latest.executionArn, events: latest.events };
  return { workflowId: item.id, state: item.state, entries, execution, executions };
};

const executionHeader = (execution: WorkflowExecution): string =>
  `Execution ${execution.name} (${execution.events.length} events): ${execution.status}, started ${execution.startDate}`;

const eventsTable = (events: readonly HistoryEvent[]): string => {
  const start = events[0]?.timestamp ? new Date(events[0].timestamp).getTime() : 0;
  return renderTable(
    events,
    [
      { header: 'ID', value: (e) => e.id, align: 'right' },
      {
        header: '+TIME',
        value: (e) => (e.timestamp ? formatDuration(new Date(e.timestamp).getTime() - start) : '-'),
        align: 'right',
      },
      { header: 'TYPE', value: (e) => e.type },
      { header: 'STATE', value: (e) => describeEvent(e).state ?? '' },
      { header: 'DETAIL', value: (e) => describeEvent(e).detail ?? '', max: 70 },
    ],
    '  (no events)',
  );
};

const historyText = (history: Awaited<ReturnType<typeof workflowHistory>>): string => {
  const lines = [
    `Transitions of ${history.workflowId} (now ${history.state})`,
    renderTable(
      history.entries,
      [
        { header: 'SEQ', value: (e) => e.seq, align: 'right' },
        { header: 'AT', value: (e) => e.at },
        { header: 'TRANSITION', value: (e) => `${e.from} -> ${e.to}` },
        { header: 'EVENT', value: (e) => e.event },
        { header: 'ACTOR', value: (e) => e.actor, max: 24 },
        { header: 'TIME IN FROM', value: (e) => formatDuration(e.durationMs), align: 'right' },
        {
          header: 'NOTE',
          value: (e) =>
            e.error
              ? `${e.error.type}: ${e.error.message}`
              : e.metadata?.reason !== undefined
                ? String(e.metadata.reason)
                : '',
          max: 60,
        },
      ],
      '  (no transitions yet)',
    ),
  ];
  for (const execution of history.executions)
    lines.push('', executionHeader(execution), eventsTable(execution.events));
  if (history.executions.length === 0) lines.push('', 'No execution recorded for this workflow.');
  return lines.join('\n');
};

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

  program
    .command('retry')
    .description('resume a workflow at the stage that failed (or where it stopped)')
    .argument('<id>', 'workflow id')
    .option('--as <user>', 'operator recorded in the log (default $DOCKET_USER or your login)')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { as?: string; json?: boolean }) => {
      const target = await ctx.stack();
      const item = await target.store.get(id);
      const { retryWorkflow } = await import('../../lambdas/shared/operatorActions.js');
      const result = await retryWorkflow(target.api, ctx.principal(item.tenant, options.as), id);
      if (options.json) printJson(ctx.io, result);
      else
        println(
          ctx.io,
          `Resuming ${id} at ${result.resumeAt} (execution ${result.executionArn.split(':').at(-1)}).`,
        );
    });

  program
    .command('cancel')
    .description('cancel a workflow that has not finished, and stop its execution')
    .argument('<id>', 'workflow id')
    .option('--reason <reason>', 'why (recorded in the log)')
    .option('--as <user>', 'operator recorded in the log (default $DOCKET_USER or your login)')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { reason?: string; as?: string; json?: boolean }) => {
      const target = await ctx.stack();
      const item = await target.store.get(id);
      const { cancelWorkflow } = await import('../../lambdas/shared/operatorActions.js');
      const result = await cancelWorkflow(
        target.api,
        ctx.principal(item.tenant, options.as),
        id,
        options.reason,
      );
      if (options.json) printJson(ctx.io, result);
      else
        println(
          ctx.io,
          `Cancelled ${id} (was ${item.state})${result.executionStopped ? '; its execution was stopped' : ''}.`,
        );
    });
};
