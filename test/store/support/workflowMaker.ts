import type { WorkflowStore } from '../../../lambdas/shared/store/index.js';

/**
 * Creates workflows at pending on the store `storeOf` returns (once beforeAll has started it),
 * each under an idempotency key of its own.
 */
export const workflowMaker = (storeOf: () => WorkflowStore) => {
  let keyCounter = 0;
  return async (tenant = 'acme') =>
    (
      await storeOf().create({
        tenant,
        idempotencyKey: `s3://bucket/incoming/${tenant}/doc-${++keyCounter}.pdf#v1`,
      })
    ).workflow;
};
