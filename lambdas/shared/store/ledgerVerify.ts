import { INITIAL_STATE, isTableTransition, type WorkflowState } from '../../../statemachine/index.js';
import { type ChainFinding, type LedgerFindingKind, verifyChain } from './chainVerify.js';
import type { LogEntry, WorkflowItem } from './types.js';
import type { WorkflowStore } from './workflowStore.js';

/** One workflow whose ledger is not as the store wrote it, or whose log breaks the table. */
export interface LedgerProblem {
  workflowId: string;
  tenant: string;
  /** The first bad sequence number, and what is wrong there. */
  seq: number;
  kind: LedgerFindingKind;
  /** Sentences for a person, the first about `seq`. */
  problems: string[];
  /** True when the only problem is an item behind a log that chains: `get(id, {repair})` fixes it. */
  repairable: boolean;
}

/** Result of `verifyLedger`. */
export interface LedgerVerification {
  checked: number;
  entries: number;
  broken: LedgerProblem[];
}

/**
 * The transition-table checks of a log whose chain holds: sequence contiguous from 1, each entry
 * starts where the previous ended, every (from, to, event) a table row, a retry goes back to the
 * stage that failed, and the item's state is the last entry's.
 */
const tableProblems = (item: WorkflowItem, entries: readonly LogEntry[]): string[] => {
  const problems: string[] = [];
  let expectedFrom: WorkflowState = INITIAL_STATE;
  // The table's retry row targets "the failed step"; which step that was, only the log knows.
  let failedAt: WorkflowState | undefined;
  for (const entry of entries) {
    if (entry.from !== expectedFrom) {
      problems.push(
        `seq ${entry.seq} starts in "${entry.from}" but the previous entry ended in "${expectedFrom}"`,
      );
    }
    // An imported history is recorded as it happened; its import report named the steps no row allows.
    if (entry.event !== 'import' && !isTableTransition(entry.from, entry.to, entry.event)) {
      problems.push(
        `seq ${entry.seq} ${entry.from} --${entry.event}--> ${entry.to} is not a row of the transition table`,
      );
    }
    if (entry.event === 'retry' && failedAt !== undefined && entry.to !== failedAt) {
      problems.push(`seq ${entry.seq} retries into "${entry.to}" but the failure was in "${failedAt}"`);
    }
    if (entry.event === 'fail') failedAt = entry.from;
    expectedFrom = entry.to;
  }
  const applied = entries.slice(0, item.version);
  const last = applied.at(-1)?.to ?? INITIAL_STATE;
  if (item.state !== last)
    problems.push(`item state "${item.state}" but entry ${item.version} ends in "${last}"`);
  return problems;
};

const firstSeq = (problem: string): number => Number(/^seq (\d+)/.exec(problem)?.[1] ?? 0);

/**
 * Checks one workflow's ledger: its hash chain and head first (`verifyChain`: what was edited,
 * deleted, inserted, reordered or forged), then, for a log that chains, the transition table.
 * Undefined when all is well.
 */
export const verifyWorkflowLog = (
  item: WorkflowItem,
  entries: readonly LogEntry[],
): LedgerProblem | undefined => {
  const chain: ChainFinding | undefined = verifyChain(item, entries);
  if (chain && chain.kind !== 'behind') {
    return {
      workflowId: item.id,
      tenant: item.tenant,
      seq: chain.seq,
      kind: chain.kind,
      problems: [chain.detail],
      repairable: false,
    };
  }
  const problems = tableProblems(item, entries);
  if (problems.length > 0) {
    return {
      workflowId: item.id,
      tenant: item.tenant,
      seq: Math.min(...problems.map(firstSeq).filter((n) => n > 0), item.version || 1),
      kind: 'illegal',
      problems: chain ? [chain.detail, ...problems] : problems,
      repairable: false,
    };
  }
  if (!chain) return undefined;
  return {
    workflowId: item.id,
    tenant: item.tenant,
    seq: chain.seq,
    kind: 'behind',
    problems: [chain.detail],
    repairable: true,
  };
};

/** Which workflows `verifyLedger` checks: a tenant, one workflow, a time range of activity. */
export interface LedgerScope {
  tenant?: string;
  workflowId?: string;
  /** Only workflows active at or after this ISO time (last change). */
  since?: string;
  /** Only workflows created at or before this ISO time. */
  until?: string;
}

/** The workflows a scope names, one at a time (the listing streams). */
export async function* workflowsIn(store: WorkflowStore, scope: LedgerScope): AsyncGenerator<WorkflowItem> {
  if (scope.workflowId !== undefined) {
    const item = await store.find(scope.workflowId, { tenant: scope.tenant });
    if (item) yield item;
    return;
  }
  for await (const item of store.listAll({ tenant: scope.tenant })) {
    if (scope.since !== undefined && item.updatedAt < scope.since) continue;
    if (scope.until !== undefined && item.createdAt > scope.until) continue;
    yield item;
  }
}

/**
 * Verifies the workflows of a scope, one at a time: memory holds one workflow's log, never the
 * ledger, so a million entries verify in the same space as ten.
 */
export const verifyLedger = async (
  store: WorkflowStore,
  options: LedgerScope & { onProgress?: (checked: number, entries: number) => void } = {},
): Promise<LedgerVerification> => {
  const result: LedgerVerification = { checked: 0, entries: 0, broken: [] };
  for await (const item of workflowsIn(store, options)) {
    const entries = await store.history(item.id);
    result.checked += 1;
    result.entries += entries.length;
    const problem = verifyWorkflowLog(item, entries);
    if (problem) result.broken.push(problem);
    options.onProgress?.(result.checked, result.entries);
  }
  return result;
};
