import { createDocumentClient } from '../shared/clients.js';
import { once, storeTablesFromEnv } from '../shared/config.js';
import { createObservability } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';
import { BookkeepingInputSchema } from '../shared/stageInput.js';
import { StageRun } from '../shared/stageRunner.js';
import { WorkflowStore } from '../shared/store/index.js';

const observability = createObservability('mark-rejected');
const store = once(() => new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }));

/** mark-rejected Lambda: `failed` -> `rejected` after a permanent error or the last retry. */
export const handler = stageHandler(observability, BookkeepingInputSchema, async (input) => {
  const run = await StageRun.load('mark-rejected', store(), input.workflowId, input.policy);
  if (run.item.state !== 'failed') return run.result(true);
  const { item } = run;
  await run.apply('give_up', {
    context: {
      retryable: item.lastError?.retryable ?? false,
      retryCount: item.retryCount,
      maxRetries: input.policy.maxRetries,
    },
    metadata: { reason: item.lastError?.retryable === false ? 'permanent error' : 'retries exhausted' },
  });
  return run.result();
});
