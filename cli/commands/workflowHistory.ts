import type { HistoryEvent } from '@aws-sdk/client-sfn';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import { historyEntryView } from '../../lambdas/shared/workflowViews.js';
import { describeEvent } from '../executionEvents.js';
import { formatDuration, renderTable } from '../format.js';
import type { Target } from '../target.js';
import type { WorkflowExecution } from '../workflowExecutions.js';

/**
 * The transition log and the events of every execution of one workflow, oldest first. A retry or
 * a resume after a restart runs the workflow on in a new execution; the earlier ones still tell
 * what happened before. `execution` (the latest, as the item records it) stays for readers of
 * the JSON from before `executions` existed.
 */
export const workflowHistory = async (target: Target, item: WorkflowItem) => {
  // What a person wrote with a reject or a cancel lives on the item (the log holds no free text).
  const noteOf: Partial<Record<string, string>> = {
    reject: item.review?.decision?.reason,
    cancel: item.cancellation?.reason,
  };
  const entries = (await target.store.history(item.id)).map((entry) => {
    const note = noteOf[entry.event];
    return { ...historyEntryView(entry), ...(note !== undefined && { note }) };
  });
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

/** `docket history` as text: the transition table, then each execution's events. */
export const historyText = (history: Awaited<ReturnType<typeof workflowHistory>>): string => {
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
              : (e.note ?? (e.metadata?.reason !== undefined ? String(e.metadata.reason) : '')),
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
