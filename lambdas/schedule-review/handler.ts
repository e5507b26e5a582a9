import { createDocumentClient } from '../shared/clients.js';
import { once, storeTablesFromEnv } from '../shared/config.js';
import { createObservability } from '../shared/observability.js';
import { scheduleReview } from '../shared/review/index.js';
import { ReviewStageInputSchema } from '../shared/reviewStageInput.js';
import { stageHandler } from '../shared/stageHandler.js';
import { WorkflowStore } from '../shared/store/index.js';

const observability = createObservability('schedule-review');
const deps = once(() => ({
  store: new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }),
  now: () => new Date(),
}));

/**
 * schedule-review Lambda: runs before the review Task, whose heartbeat is fixed when it starts,
 * and returns that heartbeat (`$.reviewWindow`): the review timeout, or what is left of a resumed
 * review; `expired` sends a review whose time ran out straight to mark-timed-out.
 */
export const handler = stageHandler(observability, ReviewStageInputSchema, async (input) => {
  const window = await scheduleReview(deps(), input);
  observability.logger.info('review scheduled', { ...window });
  return window;
});
