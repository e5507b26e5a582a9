import { ALL_STATES, type WorkflowState } from '../../../statemachine/index.js';
import { nearestRank } from '../percentile.js';
import type { WorkflowStore } from './workflowStore.js';

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
      p50Ms: nearestRank(values, 50) ?? 0,
      p95Ms: nearestRank(values, 95) ?? 0,
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
