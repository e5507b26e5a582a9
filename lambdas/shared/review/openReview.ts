import type { WorkflowItem } from '../store/index.js';
import { ConflictError, GoneError, ReviewNotReadyError } from './errors.js';

/** 410 for a review whose time ran out: nothing was, or will be, changed. */
export const reviewTimedOut = (id: string, details?: Record<string, unknown>) =>
  new GoneError(`The review of ${id} timed out; nothing was changed.`, details);

/**
 * Refuses a review that can no longer be claimed or decided: decided or not waiting (409), out of
 * time (410), or not set up yet (its task token not stored: a retryable 409).
 */
export const assertOpen = (item: WorkflowItem, now: Date): void => {
  if (
    item.state === 'timed_out' ||
    (item.state === 'review_required' && item.review?.dueAt && Date.parse(item.review.dueAt) <= now.getTime())
  ) {
    throw reviewTimedOut(item.id, { state: item.state });
  }
  if (item.state !== 'review_required') {
    throw new ConflictError(`Workflow ${item.id} is ${item.state}, not waiting for review.`, {
      state: item.state,
    });
  }
  const decision = item.review?.decision;
  if (decision) {
    throw new ConflictError(
      `${decision.reviewer} already decided "${decision.decision}" at ${decision.at}.`,
      { decision },
    );
  }
  if (!item.reviewTaskToken) throw new ReviewNotReadyError(item.id);
};
