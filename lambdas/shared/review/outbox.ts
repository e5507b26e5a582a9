import { SendTaskSuccessCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { StagePolicy } from '../../../statemachine/index.js';
import { StageOutOfOrderError } from '../stageRunner.js';
import {
  type ItemPatch,
  StaleWorkflowError,
  type WorkflowItem,
  type WorkflowStore,
  when,
} from '../store/index.js';
import { claimAsSeen } from './claims.js';
import { isSameDecision, type ReviewDecision, recordsDecision } from './decision.js';
import { reviewDueAt } from './reviewWindow.js';

/**
 * The decision outbox: how a reviewer's decision reaches the review Task that waits for it.
 *
 * 1. `recordDecision` writes the decision on the item (`review.decision`, the outbox entry) with a
 *    conditional write: exactly one decision is ever recorded, and nothing is sent before it is.
 * 2. `deliverDecision` sends it with `SendTaskSuccess`, with the task token the record write
 *    returned (a review re-armed since the first read has a new one). If the state machine does
 *    not take it, the entry is retracted so nothing changed, unless request-review has already
 *    handed this very decision to a re-armed task.
 * 3. `armReviewTask` (request-review, each time the review Task starts: first time, retry, resume
 *    after a restart or a crash) stores the new token and the due time (reviewWindow.ts) only
 *    while no decision is recorded. If one
 *    is, it is redelivered to the new task at once: a decision whose delivery was lost with the
 *    old execution is not lost, and the reviewer is not asked twice.
 *
 * 4. `deliverPending` sends a decision again that was recorded but never marked delivered, once
 *    its own request can no longer be running (`DELIVERY_GRACE_MS`): the API function crashed or
 *    timed out between the record and the send. The next claim or decision of the review does it.
 *
 * Two conditional writes keep 2 and 3 apart. The token write needs "no decision": a token stored
 * after the record write would never be answered. The redelivery mark (`review.redeliveredAt`)
 * needs "this decision is still recorded", and the retraction needs "this decision, and no mark":
 * of a retraction and a redelivery racing on one decision, exactly one wins.
 */

/** Errors with which Step Functions says the task behind a token is no longer waiting. */
const TOKEN_GONE = new Set(['TaskTimedOut', 'InvalidToken', 'TaskDoesNotExist']);

/** Whether Step Functions refused a task token because its task is gone (timed out, stopped, answered). */
export const tokenGone = (error: unknown) => error instanceof Error && TOKEN_GONE.has(error.name);

/** The one place a decision leaves: the review Task's output, which apply-review gets as `$.review`. */
const send = (sfn: SFNClient, taskToken: string | undefined, decision: ReviewDecision) =>
  sfn.send(new SendTaskSuccessCommand({ taskToken, output: JSON.stringify(decision) }));

/** The claim on a review as a decider read it. */
type SeenClaim = { claimedBy: string; claimedAt?: string; claimExpiresAt?: string };

/**
 * Records the decision on the item, only over no decision, while the review waits, before its
 * deadline, and while the claim is as the decider saw it (`claim`: its holder then, if any, and
 * its expiry). A decision claims the review for its reviewer, and renews the claim to
 * `claimExpiresAt` when given (a decision is activity). `StaleWorkflowError` when any of that no
 * longer holds. Returns the item as written and the patch that undoes the write.
 */
export const recordDecision = async (
  store: WorkflowStore,
  target: { id: string; tenant: string; claim?: SeenClaim; claimExpiresAt?: string },
  decision: ReviewDecision,
): Promise<{ written: WorkflowItem; undo: ItemPatch }> => {
  const seen = target.claim;
  const claims = seen?.claimedBy !== decision.reviewer;
  const renews = target.claimExpiresAt !== undefined;
  const written = await store.update(
    target.id,
    {
      'review.decision': decision,
      ...(claims && { 'review.claimedBy': decision.reviewer, 'review.claimedAt': decision.at }),
      ...(renews && { 'review.claimExpiresAt': target.claimExpiresAt }),
    },
    {
      tenant: target.tenant,
      expectState: 'review_required',
      when: when.all(
        when.absent('review.decision'),
        when.after('review.dueAt', decision.at),
        claimAsSeen(seen),
      ),
    },
  );
  const undo: ItemPatch = {
    'review.decision': null,
    ...(claims && {
      'review.claimedBy': seen?.claimedBy ?? null,
      'review.claimedAt': seen?.claimedAt ?? null,
    }),
    ...(renews && { 'review.claimExpiresAt': seen?.claimExpiresAt ?? null }),
  };
  return { written, undo };
};

/**
 * How long a recorded decision is left to the request that recorded it: longer than the review
 * API function may run (29 s), so a younger undelivered decision may still be on its way.
 */
export const DELIVERY_GRACE_MS = 60_000;

/** Marks the recorded decision delivered; the workflow may already have moved on, which is fine. */
const markDelivered = async (
  store: WorkflowStore,
  workflowId: string,
  decision: ReviewDecision,
  at: Date,
) => {
  try {
    await store.update(
      workflowId,
      { 'review.deliveredAt': at.toISOString() },
      { when: recordsDecision(decision) },
    );
  } catch (error) {
    if (!(error instanceof StaleWorkflowError)) throw error;
  }
};

/**
 * Sends a decision again whose delivery a crash cut off: recorded more than `DELIVERY_GRACE_MS`
 * ago, never marked delivered or redelivered, the review still waiting on a token. True when it
 * went out now. A task that is gone meanwhile (timed out, re-armed: request-review then delivers
 * it) leaves it as it is.
 */
export const deliverPending = async (
  deps: { store: WorkflowStore; sfn: SFNClient; now: () => Date },
  item: WorkflowItem,
): Promise<boolean> => {
  const review = item.review;
  const decision = review?.decision;
  const now = deps.now();
  if (
    item.state !== 'review_required' ||
    !decision ||
    review.deliveredAt ||
    review.redeliveredAt ||
    !item.reviewTaskToken ||
    now.getTime() - Date.parse(decision.at) < DELIVERY_GRACE_MS
  ) {
    return false;
  }
  try {
    await send(deps.sfn, item.reviewTaskToken, decision);
  } catch (error) {
    if (tokenGone(error)) return false;
    throw error;
  }
  await markDelivered(deps.store, item.id, decision, now);
  return true;
};

/** What became of a recorded decision that was sent. */
export type Delivery = 'delivered' | 'redelivered' | 'retracted';

/**
 * Sends a recorded decision to the task behind `taskToken`. When Step Functions refuses it, the
 * record is undone with `undo` (`retracted`, and the caller reports why with `error`), unless
 * request-review delivered it to a re-armed task first (`redelivered`, as good as delivered).
 */
export const deliverDecision = async (
  deps: { store: WorkflowStore; sfn: SFNClient; now: () => Date },
  workflowId: string,
  taskToken: string | undefined,
  decision: ReviewDecision,
  undo: ItemPatch = { 'review.decision': null },
): Promise<{ delivery: Delivery; error?: unknown }> => {
  try {
    await send(deps.sfn, taskToken, decision);
  } catch (error) {
    return retract(deps.store, workflowId, decision, undo, error);
  }
  await markDelivered(deps.store, workflowId, decision, deps.now());
  return { delivery: 'delivered' };
};

/** Undoes the record of a decision Step Functions refused, unless request-review delivered it. */
const retract = async (
  store: WorkflowStore,
  workflowId: string,
  decision: ReviewDecision,
  undo: ItemPatch,
  error: unknown,
): Promise<{ delivery: Delivery; error?: unknown }> => {
  try {
    await store.update(workflowId, undo, {
      when: when.all(recordsDecision(decision), when.absent('review.redeliveredAt')),
    });
  } catch (retractError) {
    if (retractError instanceof StaleWorkflowError) {
      const review = (await store.get(workflowId)).review;
      if (review?.redeliveredAt !== undefined && isSameDecision(review.decision, decision)) {
        return { delivery: 'redelivered' };
      }
    }
    throw retractError;
  }
  return { delivery: 'retracted', error };
};

/** What request-review returns (Step Functions ignores it while the task waits for its token). */
export interface ArmResult {
  workflowId: string;
  dueAt: string;
  /** True when a decision recorded earlier was handed to the new task at once. */
  redelivered?: boolean;
}

type ArmDeps = { store: WorkflowStore; sfn: SFNClient; now: () => Date };
type ArmInput = {
  workflowId: string;
  taskToken: string;
  policy: StagePolicy;
  /** The Task's HeartbeatSecondsPath value (`$.reviewWindow.heartbeatSeconds`). */
  heartbeatSeconds?: number;
  /** `$$.State.EnteredTime`: when the review Task started, and with it its heartbeat clock. */
  enteredAt?: string;
};

/**
 * request-review: stores the task token server-side and sets when the review is due, or hands a
 * recorded decision to this task (see the protocol above). The due time is when the Task was
 * entered plus the heartbeat it started with, which is when Step Functions times it out: for a
 * resumed review that is what was left of it (schedule-review computed it).
 */
export const armReviewTask = async (deps: ArmDeps, input: ArmInput): Promise<ArmResult> => {
  // A failed conditional write means the review API moved in between (it decided, or retracted a
  // decision it could not deliver); the next round reads what it did.
  for (let attempt = 1; ; attempt++) {
    try {
      return await armOrRedeliver(deps, input);
    } catch (error) {
      if (!(error instanceof StaleWorkflowError) || attempt >= 3) throw error;
    }
  }
};

const armOrRedeliver = async (deps: ArmDeps, input: ArmInput): Promise<ArmResult> => {
  const item = await deps.store.get(input.workflowId);
  if (item.state !== 'review_required') {
    throw new StageOutOfOrderError('request-review', item.id, item.state);
  }
  // An execution started from a definition older than schedule-review passes neither: its Task has
  // the configured timeout as a fixed HeartbeatSeconds, counted from about now.
  const heartbeatSeconds = input.heartbeatSeconds ?? input.policy.reviewTimeoutSeconds;
  const dueAt = reviewDueAt(input.enteredAt ? new Date(input.enteredAt) : deps.now(), heartbeatSeconds);
  const recorded = item.review?.decision;
  if (recorded) {
    // Marked before sending, on condition the decision is still there (StaleWorkflowError here
    // means the API retracted it first): the token the decision went out with stays on the item.
    await deps.store.update(
      item.id,
      { 'review.redeliveredAt': deps.now().toISOString() },
      { when: recordsDecision(recorded) },
    );
    await send(deps.sfn, input.taskToken, recorded);
    return { workflowId: item.id, dueAt, redelivered: true };
  }
  const review = item.review
    ? { 'review.dueAt': dueAt, 'review.heartbeatSeconds': heartbeatSeconds }
    : { review: { priority: 0, reasons: [], dueAt, heartbeatSeconds } };
  await deps.store.update(
    item.id,
    { reviewTaskToken: input.taskToken, ...review },
    { expectState: 'review_required', when: when.absent('review.decision') },
  );
  return { workflowId: item.id, dueAt };
};
