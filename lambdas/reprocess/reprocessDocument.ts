import type { SFNClient } from '@aws-sdk/client-sfn';
import { finalRecordKey } from '../shared/artifacts.js';
import { locksAfterDecision } from '../shared/documents/index.js';
import { resultKey } from '../shared/results/keys.js';
import { resumeNamePrefix, resumeWorkflow } from '../shared/resumeWorkflow.js';
import type { ExecutionSlots } from '../shared/slots/index.js';
import {
  type ItemPatch,
  type ReprocessInfo,
  type WorkflowItem,
  WorkflowNotFoundError,
  type WorkflowStore,
} from '../shared/store/index.js';
import { RerunWaitsForSlotError } from './errors.js';

/** What the reprocess function works with. */
export interface ReprocessDeps {
  store: WorkflowStore;
  sfn: SFNClient;
  /** The document state machine the rerun executes on. */
  stateMachineArn: string;
  now?: () => Date;
  /** The execution slots uploads take: a rerun takes one too (`maxRunningExecutions` holds). */
  slots?: Pick<ExecutionSlots, 'limit' | 'take' | 'release'>;
}

/** One document of a reprocess batch (`docket reprocess`, one Distributed Map item). */
export interface ReprocessRequest {
  workflowId: string;
  /** The batch: the same request of the same batch twice (a Map retry) starts one run. */
  batch: string;
  /** Who asked (the operator); the `reprocess` log entry's actor. */
  requestedBy: string;
}

/**
 * What became of one document: a run started (its execution is on the item), or why not. Small on
 * purpose: a map run's output, every item's outcome, must stay inside 256 KiB.
 */
export type ReprocessOutcome =
  | { workflowId: string; status: 'started'; run: number }
  | { workflowId: string; status: 'skipped'; reason: string };

/** The execution name of run `run` of a workflow: a repeated start finds the first. */
export const rerunExecutionName = (workflowId: string, run: number): string =>
  `${resumeNamePrefix(workflowId)}run-${run}`;

/** Why a workflow cannot be run again now, or undefined when it can. */
const refusal = (item: WorkflowItem): string | undefined => {
  if (item.state !== 'completed') return `it is ${item.state}; only completed documents are reprocessed`;
  if (item.lastEvent === 'erase' || item.erasingSince) return 'its content was erased';
  if (item.outboxPending)
    return 'its completion event is still being delivered; run the reprocess again shortly';
  if (!finalRecordKey(item.artifacts)) return 'it has no record to compare a rerun with';
  return undefined;
};

/** The item change of the `reprocess` transition: a new run, with what the last one left. */
const rerunPatch = (item: WorkflowItem, request: ReprocessRequest, at: string): ItemPatch => {
  const decision = item.review?.decision;
  const approvedBy = decision && decision.decision !== 'reject' ? decision.reviewer : undefined;
  const run = (item.run ?? 0) + 1;
  const reprocess: ReprocessInfo = {
    run,
    batch: request.batch,
    requestedBy: request.requestedBy,
    at,
    previous: {
      run: item.run ?? 0,
      record: finalRecordKey(item.artifacts) as string,
      completedAt: item.stateEnteredAt,
      ...(approvedBy && { approvedBy }),
      ...(item.docType && { resultKey: resultKey(item.tenant, item.docType, item.stateEnteredAt, item.id) }),
    },
  };
  return {
    run,
    reprocess,
    // A reviewer's corrections become locks: every later run keeps those values.
    lockedFields: locksAfterDecision(
      item.lockedFields,
      decision?.decision === 'correct' ? decision : undefined,
    ),
    // The new run starts clean: no reuse of the content-hash cache (it would return
    // the old extraction), its own artifacts. The previous record stays at `reprocess.previous`.
    artifacts: {},
    reviewTaskToken: null,
    cachedFrom: null,
    confidence: null,
    fieldConfidence: null,
    lastError: null,
    failedAtStep: null,
  };
};

/**
 * Runs a completed document again from parse with the current extractor: the `reprocess`
 * transition (`completed` -> `parsing_pdf`, logged with the operator as actor) and a new
 * execution of the document state machine at parse. Idempotent per batch: a repeated request finds
 * the run it started (the transition carries the batch, the execution its run's name). Documents
 * that cannot be run again are skipped with the reason, never failed: one bad id must not stop a
 * batch.
 */
export const reprocessDocument = async (
  deps: ReprocessDeps,
  request: ReprocessRequest,
): Promise<ReprocessOutcome> => {
  const skipped = (reason: string): ReprocessOutcome => ({
    workflowId: request.workflowId,
    status: 'skipped',
    reason,
  });
  let item: WorkflowItem;
  try {
    item = await deps.store.get(request.workflowId);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return skipped('there is no such workflow');
    throw error;
  }
  const ours = item.reprocess?.batch === request.batch && item.run === item.reprocess.run;
  if (!ours) {
    const why = refusal(item);
    if (why) return skipped(why);
    const at = (deps.now?.() ?? new Date()).toISOString();
    ({ workflow: item } = await deps.store.transition(item.id, {
      event: 'reprocess',
      actor: request.requestedBy,
      expectVersion: item.version,
      patch: rerunPatch(item, request, at),
      metadata: { run: (item.run ?? 0) + 1, batch: request.batch },
    }));
  }
  const run = item.run ?? 0;
  // The last run's review (its decision, reasons, claim) is not this run's: off the item, after
  // the transition that recorded who approved it, and again on a repeated request.
  if (item.state === 'parsing_pdf' && item.review) {
    item = await deps.store.update(item.id, { review: null }, { expectState: 'parsing_pdf' });
  }
  // Started before, and moved on (or a repeated request after the run's first stage began).
  if (ours && item.state !== 'parsing_pdf' && item.executionArn)
    return { workflowId: item.id, status: 'started', run };
  const name = rerunExecutionName(item.id, run);
  // A slot first, by the execution's name, as the starter does: slot-release and request-review
  // give it back by that name when the execution closes or waits for a person.
  const taken = await deps.slots?.take(name);
  if (taken === 'full') throw new RerunWaitsForSlotError(item.id, deps.slots?.limit ?? 0);
  try {
    await resumeWorkflow(deps, item, { name, ignoreRunning: true });
  } catch (error) {
    // Started by an earlier attempt of this request: that execution runs the rerun.
    if (!(error instanceof Error && error.name === 'ExecutionAlreadyExists')) {
      if (taken === 'taken') await deps.slots?.release(name);
      throw error;
    }
  }
  return { workflowId: item.id, status: 'started', run };
};
