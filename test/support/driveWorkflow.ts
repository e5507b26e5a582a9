import type { WorkflowItem, WorkflowStore } from '../../lambdas/shared/store/index.js';

let counter = 0;

/** The events that take a new workflow to each state, as the stages would send them. */
const PATHS = {
  pending: [],
  parsing_pdf: ['start_parse'],
  extracting: ['start_parse', 'parsed'],
  validating: ['start_parse', 'parsed', 'extracted'],
  review_required: ['start_parse', 'parsed', 'extracted', 'validation_completed:review'],
  validated: ['start_parse', 'parsed', 'extracted', 'validation_completed:auto'],
  comparing: ['start_parse', 'parsed', 'extracted', 'validation_completed:auto', 'start_compare'],
} as const;

/**
 * Creates a workflow and moves it, through the store and the transition table, to `state`:
 * test setup that writes real log entries rather than faking an item.
 */
export const workflowIn = async (
  store: WorkflowStore,
  state: keyof typeof PATHS,
  options: { tenant?: string; priority?: number } = {},
): Promise<WorkflowItem> => {
  let { workflow } = await store.create({
    tenant: options.tenant ?? 'acme',
    idempotencyKey: `test-${process.pid}-${Date.now()}-${++counter}`,
    source: { bucket: 'docket-test', key: `incoming/${options.tenant ?? 'acme'}/doc-${counter}.pdf` },
  });
  for (const step of PATHS[state]) {
    if (step.startsWith('validation_completed')) {
      const review = step.endsWith(':review');
      // As validate does: the reasons go on the item first, the transition logs the decision.
      if (review) {
        workflow = await store.update(
          workflow.id,
          {
            review: {
              priority: options.priority ?? 50,
              reasons: [{ code: 'low_confidence', message: 'confidence 40' }],
            },
          },
          { expectState: workflow.state },
        );
      }
      workflow = (
        await store.transition(workflow, {
          event: 'validation_completed',
          context: { confidence: review ? 40 : 95, confidenceThreshold: 80, requiredFieldsValid: true },
        })
      ).workflow;
    } else {
      workflow = (await store.transition(workflow, { event: step as 'start_parse' })).workflow;
    }
  }
  return workflow;
};

/**
 * Creates a workflow and takes it to `completed` through the store, with one failure at compare
 * and its retry on the way: 8 log entries, each kind of bookkeeping the ledger checks.
 */
export const completedWithRetry = async (store: WorkflowStore, tenant: string, idempotencyKey: string) => {
  const { workflow } = await store.create({ tenant, idempotencyKey });
  for (const event of ['start_parse', 'parsed', 'extracted'] as const)
    await store.transition(workflow.id, { event });
  await store.transition(workflow.id, {
    event: 'validation_completed',
    context: { confidence: 95, confidenceThreshold: 80, requiredFieldsValid: true },
  });
  await store.transition(workflow.id, { event: 'start_compare' });
  await store.transition(workflow.id, {
    event: 'fail',
    error: { type: 'S3Unavailable', message: 'read timed out', retryable: true },
  });
  await store.transition(workflow.id, {
    event: 'retry',
    context: { retryable: true, retryCount: 0, maxRetries: 3, failedAtStep: 'comparing' },
  });
  await store.transition(workflow.id, { event: 'compared' });
  return workflow.id;
};
