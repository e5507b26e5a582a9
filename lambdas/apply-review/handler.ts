import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as z from 'zod';
import { DecisionRouteSchema } from '../../statemachine/reviewPolicies/index.js';
import { createDocumentClient, createS3Client } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { ReviewDecisionSchema } from '../shared/review/index.js';
import { ReviewStageInputSchema } from '../shared/reviewStageInput.js';
import { stageHandler } from '../shared/stageHandler.js';
import { WorkflowStore } from '../shared/store/index.js';
import { applyReview } from './applyReview.js';

const observability = createObservability('apply-review');
const deps = once(() => ({
  store: new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }),
  s3: createS3Client(),
  bucket: requireEnv(EnvVar.bucket),
}));

/**
 * apply-review's input: the stage input plus the decision the review Task returned; under a
 * review policy the step and its routes, which the compiler wrote into the definition.
 */
const ApplyReviewInputSchema = ReviewStageInputSchema.extend({
  review: ReviewDecisionSchema,
  routes: z.array(DecisionRouteSchema).min(1).max(40).optional(),
});

/** apply-review Lambda: the reviewer's decision -> validated (approve/correct) or rejected. */
export const handler = stageHandler(observability, ApplyReviewInputSchema, async (input) => {
  const result = await applyReview(deps(), input);
  observability.metrics.addDimension('decision', input.review.decision);
  observability.metrics.addMetric('ReviewDecisions', MetricUnit.Count, result.alreadyDone ? 0 : 1);
  return result;
});
