import type { LedgerProblem, LedgerScope } from '../../lambdas/shared/store/index.js';
import type { Io } from '../io.js';
import { progressLine } from '../progressLine.js';
import type { Target } from '../target.js';

/**
 * Exit statuses of `docket ledger verify`, apart from 0 (clean), 1 (the CLI failed) and 2 (a
 * usage error): 3 when the ledger is not as the store wrote it, 4 when the evidence could not be
 * read (a snapshot missing, cut short or failing its checksum), so nothing was proven either way.
 */
export const LEDGER_EXIT = { clean: 0, tampered: 3, unreadable: 4 } as const;

/** What `ledger verify` found. */
export interface VerifyReport {
  checked: number;
  entries: number;
  broken: LedgerProblem[];
  repaired: string[];
  /** Present with `--against`: the snapshot and how many of its workflows were checked. */
  snapshot?: { key: string; takenAt: string; checked: number };
}

/** Adds `problem` to `list`, or its sentences to the entry of the same workflow. */
const merge = (list: LedgerProblem[], problem: LedgerProblem): void => {
  const same = list.find((p) => p.workflowId === problem.workflowId);
  if (!same) list.push(problem);
  else same.problems.push(...problem.problems);
};

/**
 * Verifies the ledger of a scope (every chain, or one workflow's, or a time range), rolls forward
 * what a crashed writer left behind with `repair`, and with `against` also checks the workflows
 * of a snapshot, which catches what a chain alone cannot (a chain recomputed, a tail or a
 * workflow deleted). A snapshot that is not whole throws `SnapshotUnreadableError`.
 */
export const verifyCommand = async (
  target: Target,
  io: Io,
  options: LedgerScope & { repair?: boolean; against?: string; progress: boolean },
): Promise<VerifyReport> => {
  const { verifyLedger, verifyWorkflowLog } = await import('../../lambdas/shared/store/index.js');
  const progress = progressLine(io, { enabled: options.progress });
  // The snapshot is opened (and its checksum proven) first: no half-done report on bad evidence.
  const snapshots = options.against
    ? await import('../../lambdas/shared/ledgerSnapshots/index.js')
    : undefined;
  const snapshot =
    snapshots && options.against
      ? await snapshots.openSnapshot(target.s3, target.snapshotBucket, options.against)
      : undefined;
  const result = await verifyLedger(target.store, {
    ...options,
    onProgress: (checked, entries) => progress.update(`Verifying: ${checked} workflows, ${entries} entries`),
  });
  const broken: LedgerProblem[] = [];
  const repaired: string[] = [];
  for (const problem of result.broken) {
    if (!(options.repair && problem.repairable)) {
      broken.push(problem);
      continue;
    }
    const item = await target.store.get(problem.workflowId, { repair: true });
    const after = verifyWorkflowLog(item, await target.store.history(item.id));
    if (after) broken.push(after);
    else repaired.push(problem.workflowId);
  }
  let checkedSnapshot: VerifyReport['snapshot'];
  if (snapshots && snapshot) {
    const check = await snapshots.verifyAgainstSnapshot(target.store, snapshot, {
      onProgress: (n) => progress.update(`Checking against ${snapshot.key}: ${n}/${snapshot.workflows}`),
    });
    for (const problem of check.broken) merge(broken, problem);
    checkedSnapshot = { key: check.key, takenAt: check.takenAt, checked: check.checked };
  }
  progress.done();
  return {
    checked: result.checked,
    entries: result.entries,
    broken,
    repaired,
    ...(checkedSnapshot && { snapshot: checkedSnapshot }),
  };
};

/** The report as text, one line per broken workflow, then the summary. */
export const verifyText = (report: VerifyReport): string[] => [
  ...report.repaired.map((id) => `${id}: repaired (item rolled forward to its log)`),
  ...report.broken.map(
    (b) =>
      `${b.workflowId} (${b.tenant}): ${b.kind} at entry ${b.seq}: ${b.problems.join('; ')}` +
      (b.repairable ? ' [repairable: ledger verify --repair]' : ''),
  ),
  `Checked ${report.checked} workflow(s), ${report.entries} log entries` +
    (report.snapshot
      ? ` and ${report.snapshot.checked} workflow(s) of snapshot ${report.snapshot.key} (${report.snapshot.takenAt})`
      : '') +
    `: ${report.broken.length === 0 ? 'every chain verifies.' : `${report.broken.length} broken.`}`,
];
