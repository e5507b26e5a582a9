import type { WorkflowState } from '../../../statemachine/index.js';
import type { LogEntry } from '../store/index.js';

/**
 * One stay of a document in review: from the log entry that moved it into `review_required` to
 * the one that moved it out (a decision, a timeout, a cancellation), or still open. A workflow
 * resumed into review after a restart stays in the same episode: the log records no exit.
 */
export interface ReviewEpisode {
  workflowId: string;
  tenant: string;
  /** The review queue it waited in: its document type (`unknown` when extraction named none). */
  queue: string;
  enteredAt: string;
  /** Absent while the review is open. */
  endedAt?: string;
  /** The event that ended it (`approve`, `reject`, `review_timeout`, `cancel`), absent while open. */
  outcome?: string;
  /** Who ended it: the reviewer of a decision; `system` for a timeout. */
  actor?: string;
}

const REVIEW: WorkflowState = 'review_required';

/**
 * The review episodes in one workflow's log, oldest first. Pure: the log is the only witness of
 * when a review began and ended (the item keeps only its current state's entry time).
 */
export const reviewEpisodes = (entries: readonly LogEntry[], queue = 'unknown'): ReviewEpisode[] => {
  const episodes: ReviewEpisode[] = [];
  let open: ReviewEpisode | undefined;
  for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) {
    if (entry.to === REVIEW && entry.from !== REVIEW) {
      open = { workflowId: entry.workflowId, tenant: entry.tenant, queue, enteredAt: entry.at };
      episodes.push(open);
    } else if (open && entry.from === REVIEW && entry.to !== REVIEW) {
      Object.assign(open, { endedAt: entry.at, outcome: entry.event, actor: entry.actor });
      open = undefined;
    }
  }
  return episodes;
};
