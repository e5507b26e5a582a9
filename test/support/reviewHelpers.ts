import { expect } from 'vitest';
import { DEFAULT_CLAIM_TTL_SECONDS } from '../../lambdas/shared/claimWindow.js';
import type { Principal } from '../../lambdas/shared/principal.js';
import type { ReviewDeps } from '../../lambdas/shared/review/index.js';
import type { WorkflowStore } from '../../lambdas/shared/store/index.js';
import { corpusDocument, upload, waitForReviewToken, waitForWorkflow } from './e2e.js';
import type { LocalStack } from './localStackProcess.js';
import { StoreWithRival } from './storeWithRival.js';

/** A reviewer of tenant acme. */
export const reviewer = (user: string): Principal => ({ user, roles: ['reviewer'], tenant: 'acme' });

/**
 * What the review tests do on their file's stack, which `stackOf` returns once beforeAll has
 * started it: bring a document to review, and run the review service in the test's process.
 */
export const reviewHelpers = (stackOf: () => LocalStack) => {
  /** Uploads a must-review corpus document and waits until a reviewer can decide it. */
  const inReview = async (docId: string, name: string) => {
    const key = await upload(stackOf(), 'acme', name, await (await corpusDocument(docId)).pdf());
    const item = await waitForWorkflow(stackOf(), 'acme', key, ['review_required', 'completed', 'rejected']);
    expect(item.state).toBe('review_required');
    const ready = await waitForReviewToken(stackOf(), item.id);
    return { key, id: item.id, item: ready };
  };

  /**
   * The review service in this process, on the stack's DynamoDB, S3 and Step Functions, with the
   * default claim length; `now` is its clock (a test moves it to see a claim run out).
   */
  const serviceOn = (store: WorkflowStore, now: () => Date = () => new Date()): ReviewDeps => ({
    store,
    s3: stackOf().s3,
    sfn: stackOf().sfn,
    bucket: stackOf().endpoints.bucket,
    now,
    claimTtlSeconds: DEFAULT_CLAIM_TTL_SECONDS,
  });

  /** A store whose writes a rival can overtake between a read and a write. */
  const rivalStore = () =>
    new StoreWithRival({ client: stackOf().documentClient, tables: stackOf().endpoints.tables });

  return { inReview, serviceOn, rivalStore };
};
