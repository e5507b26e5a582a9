import {
  ALL_STATES,
  INITIAL_STATE,
  isTableTransition,
  type WorkflowState,
} from '../../../statemachine/index.js';
import type { LogEntry, WorkflowItem } from './types.js';
import type { WorkflowStore } from './workflowStore.js';

/** One workflow whose log and item disagree, or whose log breaks the table. */
export interface LedgerProblem {
  workflowId: string;
  tenant: string;
  problems: string[];
  /** True when the only problem is an item behind its log, which `get(id, {repair})` fixes. */
  repairable: boolean;
}

/** Result of `verifyLedger`. */
export interface LedgerVerification {
  checked: number;
  entries: number;
  broken: LedgerProblem[];
}

/**
 * Checks one workflow's log against its item and the transition table, so an audit can trust
 * it: sequence
 * contiguous from 1, each entry starts where the previous ended, every (from, to, event) a table
 * row, and the item's state and version equal the last entry's.
 */
export const verifyWorkflowLog = (
  item: WorkflowItem,
  entries: readonly LogEntry[],
): LedgerProblem | undefined => {
  const problems: string[] = [];
  let expectedFrom: WorkflowState = INITIAL_STATE;
  // The table's retry row targets "the failed step"; which step that was, only the log knows.
  let failedAt: WorkflowState | undefined;
  entries.forEach((entry, index) => {
    if (entry.seq !== index + 1)
      problems.push(`seq ${entry.seq} where ${index + 1} was expected (gap or duplicate)`);
    if (entry.from !== expectedFrom) {
      problems.push(
        `seq ${entry.seq} starts in "${entry.from}" but the previous entry ended in "${expectedFrom}"`,
      );
    }
    if (!isTableTransition(entry.from, entry.to, entry.event)) {
      problems.push(
        `seq ${entry.seq} ${entry.from} --${entry.event}--> ${entry.to} is not a row of the transition table`,
      );
    }
    if (entry.event === 'retry' && failedAt !== undefined && entry.to !== failedAt) {
      problems.push(`seq ${entry.seq} retries into "${entry.to}" but the failure was in "${failedAt}"`);
    }
    if (entry.event === 'fail') failedAt = entry.from;
    expectedFrom = entry.to;
  });
  const last = entries.at(-1);
  const behind = item.version < entries.length;
  if (behind) problems.push(`item at version ${item.version} is behind its log (${entries.length} entries)`);
  else if (item.version !== entries.length) {
    problems.push(`item at version ${item.version} but the log has ${entries.length} entries`);
  }
  if (!behind && item.state !== (last?.to ?? INITIAL_STATE)) {
    problems.push(`item state "${item.state}" but the log ends in "${last?.to ?? INITIAL_STATE}"`);
  }
  if (problems.length === 0) return undefined;
  return { workflowId: item.id, tenant: item.tenant, problems, repairable: behind && problems.length === 1 };
};

/** Verifies every workflow (or those of one tenant). */
export const verifyLedger = async (
  store: WorkflowStore,
  options: { tenant?: string; onProgress?: (checked: number) => void } = {},
): Promise<LedgerVerification> => {
  const result: LedgerVerification = { checked: 0, entries: 0, broken: [] };
  for await (const item of store.listAll({ tenant: options.tenant })) {
    const entries = await store.history(item.id);
    result.checked += 1;
    result.entries += entries.length;
    const problem = verifyWorkflowLog(item, entries);
    if (problem) result.broken.push(problem);
    options.onProgress?.(result.checked);
  }
  return result;
};

/** Nearest-rank percentile of sorted numbers. */
const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number);

/** Time spent in one state, over every recorded exit from it. */
export interface TimeInState {
  count: number;
  p50Ms: number;
  p95Ms: number;
}

/** Result of `ledgerStats`. */
export interface LedgerStats {
  workflows: number;
  transitions: number;
  byState: Partial<Record<WorkflowState, number>>;
  timeInState: Partial<Record<WorkflowState, TimeInState>>;
  errorsByType: Record<string, number>;
}

/** Counts by state, time-in-state p50/p95 and errors by type: what an operator watches for. */
export const ledgerStats = async (
  store: WorkflowStore,
  options: { tenant?: string } = {},
): Promise<LedgerStats> => {
  const byState: Partial<Record<WorkflowState, number>> = {};
  const durations = new Map<WorkflowState, number[]>();
  const errorsByType: Record<string, number> = {};
  let workflows = 0;
  let transitions = 0;
  for await (const item of store.listAll({ tenant: options.tenant })) {
    workflows += 1;
    byState[item.state] = (byState[item.state] ?? 0) + 1;
    for (const entry of await store.history(item.id)) {
      transitions += 1;
      const values = durations.get(entry.from);
      if (values) values.push(entry.durationMs);
      else durations.set(entry.from, [entry.durationMs]);
      if (entry.error) errorsByType[entry.error.type] = (errorsByType[entry.error.type] ?? 0) + 1;
    }
  }
  const timeInState: Partial<Record<WorkflowState, TimeInState>> = {};
  for (const state of ALL_STATES) {
    const values = durations.get(state);
    if (!values) continue;
    values.sort((a, b) => a - b);
    timeInState[state] = {
      count: values.length,
      p50Ms: percentile(values, 50),
      p95Ms: percentile(values, 95),
    };
  }
  return { workflows, transitions, byState, timeInState, errorsByType };
};

/**
 * Every log entry as one JSON line, workflow by workflow, oldest first: JSONL streams into any
 * audit or analytics tool without loading the whole ledger.
 */
export async function* exportLedger(
  store: WorkflowStore,
  options: { tenant?: string } = {},
): AsyncGenerator<string> {
  for await (const item of store.listAll({ tenant: options.tenant })) {
    for (const entry of await store.history(item.id)) {
      const { patch: _patch, ...audit } = entry;
      yield `${JSON.stringify(audit)}\n`;
    }
  }
}
