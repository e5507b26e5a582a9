import { type DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { Index } from '../shared/store/index.js';

/** The review queue across tenants at one moment. */
export interface ReviewQueueStats {
  /** Workflows waiting in `review_required`. */
  depth: number;
  /** How long the oldest of them has waited, in seconds (0 when the queue is empty). */
  oldestAgeSeconds: number;
  /** How many have waited longer than the review target (`reviewSlaSeconds`): open SLA breaches. */
  pastTarget: number;
}

/**
 * Counts the open reviews and the age of the oldest by scanning the sparse review-queue index:
 * only workflows in `review_required` carry its key, so the scan reads the queue and nothing else.
 */
export const reviewQueueStats = async (deps: {
  client: DynamoDBDocumentClient;
  table: string;
  now: () => Date;
  /** The review target, seconds (`reviewSlaSeconds`). */
  targetSeconds: number;
}): Promise<ReviewQueueStats> => {
  const now = deps.now().getTime();
  let depth = 0;
  let pastTarget = 0;
  let oldest = now;
  const pages = paginateScan(
    { client: deps.client },
    { TableName: deps.table, IndexName: Index.reviewQueue, ProjectionExpression: 'stateEnteredAt' },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      depth += 1;
      const entered = Date.parse(String(item.stateEnteredAt));
      if (!Number.isFinite(entered)) continue;
      oldest = Math.min(oldest, entered);
      if (now - entered > deps.targetSeconds * 1000) pastTarget += 1;
    }
  }
  return { depth, oldestAgeSeconds: Math.max(0, Math.round((now - oldest) / 1000)), pastTarget };
};
