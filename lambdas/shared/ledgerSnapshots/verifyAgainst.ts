import { isTerminal } from '../../../statemachine/index.js';
import { headOf, type LedgerProblem, type WorkflowStore } from '../store/index.js';
import type { SnapshotWorkflow } from './format.js';
import type { OpenedSnapshot } from './readSnapshot.js';

/** Result of checking the ledger against a snapshot. */
export interface SnapshotCheck {
  key: string;
  takenAt: string;
  checked: number;
  broken: LedgerProblem[];
}

/**
 * What a chain alone cannot show, for one workflow of the snapshot: it is gone; its log is
 * shorter than the snapshot saw; its first `count` entries no longer hash to the head the
 * snapshot recorded (edited, then the chain and the item's head recomputed); or something other
 * than an erasure was appended after a state the snapshot saw as terminal.
 */
const checkOne = async (
  store: WorkflowStore,
  tenant: string,
  seen: SnapshotWorkflow,
): Promise<LedgerProblem | undefined> => {
  const problem = (seq: number, kind: LedgerProblem['kind'], detail: string): LedgerProblem => ({
    workflowId: seen.id,
    tenant,
    seq,
    kind,
    problems: [detail],
    repairable: false,
  });
  const item = await store.find(seen.id, { tenant });
  if (!item) {
    return problem(
      1,
      'deleted',
      `the workflow is gone: the snapshot saw it in "${seen.state}" with ${seen.count} entries`,
    );
  }
  const entries = await store.history(item.id);
  if (entries.length < seen.count) {
    return problem(
      entries.length + 1,
      'missing',
      `the log has ${entries.length} entries; the snapshot saw ${seen.count}: entries ${entries.length + 1}..${seen.count} were deleted`,
    );
  }
  if (headOf(entries.slice(0, seen.count)) !== seen.head) {
    return problem(
      seen.count,
      'rewritten',
      `entries 1..${seen.count} no longer hash to the head the snapshot recorded: history at or before entry ${seen.count} was rewritten and the chain recomputed`,
    );
  }
  // After an end the table allows only `erase` (which keeps it) and `reprocess`, which starts a
  // new run: what follows a reprocess is that run's, checked by the chain like any other.
  const tail = entries.slice(seen.count);
  const reopened = tail.findIndex((e) => e.event === 'reprocess' && seen.state === 'completed');
  const after = (reopened === -1 ? tail : tail.slice(0, reopened)).find((e) => e.event !== 'erase');
  if (isTerminal(seen.state) && after) {
    return problem(
      after.seq,
      'forged_tail',
      `entry ${after.seq} (${after.event}) follows "${seen.state}", where the snapshot saw the workflow end`,
    );
  }
  return undefined;
};

/** Checks every workflow a snapshot lists against the store, one at a time. */
export const verifyAgainstSnapshot = async (
  store: WorkflowStore,
  snapshot: OpenedSnapshot,
  options: { onProgress?: (checked: number) => void } = {},
): Promise<SnapshotCheck> => {
  const result: SnapshotCheck = {
    key: snapshot.key,
    takenAt: snapshot.header.takenAt,
    checked: 0,
    broken: [],
  };
  for await (const seen of snapshot.each()) {
    const found = await checkOne(store, snapshot.header.tenant, seen);
    result.checked += 1;
    if (found) result.broken.push(found);
    options.onProgress?.(result.checked);
  }
  return result;
};
