import { randomUUID } from 'node:crypto';
import { DescribeExecutionCommand, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import { REPROCESS_BATCH_ITEMS, type ReprocessInput } from '../../statemachine/index.js';
import { isAtRest, type WorkflowState } from '../../statemachine/states.js';
import { StackOutputsError } from '../errors.js';
import type { Target } from '../target.js';

/** What `docket reprocess` selects: completed documents, narrowed by tenant, type and time. */
export interface ReprocessSelection {
  tenant?: string;
  docType?: 'invoice' | 'contract';
  /** ISO time: only documents that arrived at or after it. */
  since?: string;
}

/** How one document came out of the rerun. */
export interface DocumentReport {
  workflowId: string;
  tenant: string;
  /** `completed`, `review_required`, `rejected`...; `skipped` or `failed` when no rerun started. */
  outcome: WorkflowState | 'skipped' | 'failed';
  run?: number;
  /** Fields whose value the rerun changed (names only). */
  changedFields: string[];
  /** Fields a person set, kept as they were set. */
  lockedFields: string[];
  reason?: string;
}

/** The final report. */
export interface ReprocessReport {
  batch: string;
  selected: number;
  started: number;
  documents: DocumentReport[];
  seconds: number;
  documentsPerSecond: number;
}

/** Completed documents matching the selection, oldest first. */
export const selectForReprocess = async (
  target: Target,
  selection: ReprocessSelection,
): Promise<WorkflowItem[]> => {
  const items: WorkflowItem[] = [];
  for await (const item of target.store.listAll({ tenant: selection.tenant, state: 'completed' })) {
    if (selection.docType && item.docType !== selection.docType) continue;
    if (selection.since && item.createdAt < selection.since) continue;
    items.push(item);
  }
  return items.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
};

type Outcome = {
  workflowId: string;
  status: 'started' | 'skipped' | 'failed';
  run?: number;
  reason?: string;
  error?: string;
};

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Where a rerun stops being ours to wait for: an end, or a person's queue. */
const settled = (item: WorkflowItem, run: number): boolean => (item.run ?? 0) >= run && isAtRest(item.state);

/** What `runReprocess` reports as it goes. */
export type ReprocessProgress = (done: number, total: number, phase: 'starting' | 'running') => void;

/**
 * Runs `items` again from parse: one execution of the reprocess state machine (a Distributed Map)
 * per `REPROCESS_BATCH_ITEMS` ids, then waits until every started rerun completed, was rejected or
 * waits for a person, and reports per document what changed. `sleep` paces the polling.
 */
export const runReprocess = async (
  target: Target,
  items: readonly WorkflowItem[],
  options: {
    requestedBy: string;
    onProgress?: ReprocessProgress;
    sleep?: (ms: number) => Promise<void>;
    pollMs?: number;
  },
): Promise<ReprocessReport> => {
  const stateMachineArn = target.reprocessStateMachineArn;
  if (!stateMachineArn) {
    throw new StackOutputsError(
      `${target.name} has no reprocess state machine: deploy the current stack (\`npx cdk deploy\`) or restart \`docket start\`.`,
    );
  }
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const pollMs = options.pollMs ?? 1000;
  const started = Date.now();
  const batch = `rp-${new Date(started)
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14)}-${randomUUID().slice(0, 8)}`;
  const outcomes: Outcome[] = [];
  for (const [index, ids] of chunks(
    items.map((i) => i.id),
    REPROCESS_BATCH_ITEMS,
  ).entries()) {
    const input: ReprocessInput = { workflowIds: ids, batch, requestedBy: options.requestedBy };
    const { executionArn } = await target.sfn.send(
      new StartExecutionCommand({ stateMachineArn, name: `${batch}-${index}`, input: JSON.stringify(input) }),
    );
    for (;;) {
      const run = await target.sfn.send(new DescribeExecutionCommand({ executionArn }));
      if (run.status !== 'RUNNING') {
        if (run.status !== 'SUCCEEDED') {
          throw new Error(
            `The reprocess execution ${executionArn} ended ${run.status}: ${run.error ?? ''} ${run.cause ?? ''}`,
          );
        }
        outcomes.push(...(JSON.parse(run.output ?? '[]') as Outcome[]));
        break;
      }
      await sleep(pollMs);
    }
    options.onProgress?.(outcomes.length, items.length, 'starting');
  }

  const waiting = new Map(
    outcomes.filter((o) => o.status === 'started').map((o) => [o.workflowId, o.run ?? 1]),
  );
  const startedCount = waiting.size;
  const finished = new Map<string, WorkflowItem>();
  while (waiting.size > 0) {
    for (const [id, run] of [...waiting]) {
      const item = await target.store.get(id);
      if (settled(item, run)) {
        finished.set(id, item);
        waiting.delete(id);
      }
    }
    options.onProgress?.(finished.size, startedCount, 'running');
    if (waiting.size > 0) await sleep(pollMs);
  }

  const tenantOf = new Map(items.map((i) => [i.id, i.tenant]));
  const documents = outcomes.map((o): DocumentReport => {
    const item = finished.get(o.workflowId);
    if (!item) {
      return {
        workflowId: o.workflowId,
        tenant: tenantOf.get(o.workflowId) ?? '',
        outcome: o.status === 'failed' ? 'failed' : 'skipped',
        changedFields: [],
        lockedFields: [],
        reason: o.reason ?? o.error ?? '',
      };
    }
    return {
      workflowId: item.id,
      tenant: item.tenant,
      outcome: item.state,
      ...(item.run !== undefined && { run: item.run }),
      changedFields: item.reprocess?.changedFields ?? [],
      lockedFields: Object.entries(item.lockedFields ?? {})
        .filter(([, lock]) => !lock.cleared)
        .map(([name]) => name)
        .sort(),
    };
  });
  const seconds = (Date.now() - started) / 1000;
  return {
    batch,
    selected: items.length,
    started: finished.size,
    documents,
    seconds,
    documentsPerSecond: seconds > 0 ? finished.size / seconds : 0,
  };
};
