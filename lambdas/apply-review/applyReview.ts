import type { S3Client } from '@aws-sdk/client-s3';
import type { StagePolicy } from '../../statemachine/index.js';
import { chooseRoute, type DecisionRoute, type ReviewStep } from '../../statemachine/reviewPolicies/index.js';
import { artifactKey, putJsonArtifact } from '../shared/artifacts.js';
import { documentSummary, summaryPatch } from '../shared/documentSummary.js';
import type { ReviewDecision } from '../shared/review/index.js';
import { type StageResult, StageRun } from '../shared/stageRunner.js';
import type { ItemPatch, WorkflowStore } from '../shared/store/index.js';
import { type DecidedRecord, decidedRecord, policyFacts } from './reviewedRecord.js';

/** What apply-review works with. */
export interface ApplyReviewDeps {
  store: WorkflowStore;
  s3: S3Client;
  bucket: string;
}

/** apply-review's input; under a review policy also the step and its routes (compiled into the definition). */
export interface ApplyReviewInput {
  workflowId: string;
  review: ReviewDecision;
  policy: StagePolicy;
  reviewStep?: ReviewStep;
  routes?: DecisionRoute[];
}

/** The result, with the step the definition goes to next under a review policy. */
export type ApplyReviewResult = StageResult & { next?: string };

/**
 * apply-review, the stage after a reviewer's decision: `review_required` -> `validated` (approve,
 * or correct with the reviewer's corrections written to the run's `reviewed` artifact) or ->
 * `rejected`, with the reviewer as the actor. Under a review policy the step's routes say where
 * the decision leads: the end (as above), or another approval step (`step_decided`: the document
 * stays in review, the decider is recorded for four-eyes). The task token is forgotten either way.
 */
export const applyReview = async (
  deps: ApplyReviewDeps,
  input: ApplyReviewInput,
): Promise<ApplyReviewResult> => {
  const run = await StageRun.load('apply-review', deps.store, input.workflowId, input.policy);
  const { item } = run;
  const { review, reviewStep, routes } = input;
  if (!routes || !reviewStep) {
    if (item.state !== 'review_required') return run.result(true);
    // As before review policies: the extraction is read only to apply corrections.
    const corrects = review.decision === 'correct' && review.corrections !== undefined;
    const decided = corrects ? await decidedRecord(deps, item, review) : undefined;
    await finish(deps, run, review, decided, {});
    return run.result();
  }
  const decided = await decidedRecord(deps, item, review);
  const route = chooseRoute(routes, review.decision, {
    before: policyFacts(item, decided.extraction),
    after: policyFacts(item, decided.corrected?.record ?? decided.extraction),
  });
  const next = { next: route.to };
  const recorded = item.review?.deciders?.some((d) => d.step === reviewStep.step && d.at === review.at);
  if (item.state !== 'review_required' || recorded) return { ...run.result(true), ...next };
  const metadata = {
    policy: reviewStep.policy,
    version: reviewStep.version,
    step: reviewStep.step,
    ...(route.whenText && { when: route.whenText }),
    ...(route.notify.length > 0 && { notify: route.notify }),
  };
  if (route.ends !== 'step') {
    await finish(deps, run, review, route.ends === 'rejected' ? undefined : decided, metadata);
    return { ...run.result(), ...next };
  }
  const patch = await writeCorrections(deps, run, decided);
  const decider = {
    step: reviewStep.step,
    reviewer: review.reviewer,
    decision: review.decision,
    at: review.at,
  };
  await run.update({ 'review.deciders': [...(run.item.review?.deciders ?? []), decider] });
  await run.apply('step_decided', {
    actor: review.reviewer,
    patch,
    metadata: { ...metadata, decision: review.decision, next: route.step, ...decisionFacts(review) },
  });
  return { ...run.result(), ...next };
};

/** What the log says of a decision besides its actor: corrected field names, the type, a take-over. */
const decisionFacts = (review: ReviewDecision) => ({
  ...(review.corrections && { corrected: Object.keys(review.corrections) }),
  ...(review.docType && { docType: review.docType }),
  ...(review.takenOverFrom && { takenOverFrom: review.takenOverFrom }),
});

/**
 * A `correct` decision's record written as the run's `reviewed` artifact, the summary read from
 * it; returns the item change that goes with the decision's transition.
 */
const writeCorrections = async (
  deps: ApplyReviewDeps,
  run: StageRun<'apply-review'>,
  decided: DecidedRecord | undefined,
): Promise<ItemPatch> => {
  const patch: ItemPatch = { reviewTaskToken: null };
  if (!decided?.corrected) return patch;
  const { item } = run;
  const key = artifactKey(item.id, 'reviewed', item.run);
  await putJsonArtifact(deps.s3, deps.bucket, key, decided.corrected.record);
  patch['artifacts.reviewed'] = key;
  patch.docType = decided.corrected.docType;
  // Read from the corrected document: on the item, never in the log.
  await run.update({
    summary: { ...item.summary, ...summaryPatch(documentSummary(decided.corrected.record)) },
  });
  return patch;
};

/** The decision that ends the review: approve (with any corrections) or reject. */
const finish = async (
  deps: ApplyReviewDeps,
  run: StageRun<'apply-review'>,
  review: ReviewDecision,
  decided: DecidedRecord | undefined,
  metadata: Record<string, unknown>,
): Promise<void> => {
  if (review.decision === 'reject') {
    await run.apply('reject', {
      actor: review.reviewer,
      patch: { reviewTaskToken: null },
      // The reason a person wrote stays on the item (review.decision), out of the log.
      metadata: {
        ...metadata,
        decision: 'reject',
        reasonGiven: Boolean(review.reason),
        ...(review.takenOverFrom && { takenOverFrom: review.takenOverFrom }),
      },
    });
    return;
  }
  const patch = await writeCorrections(deps, run, decided);
  await run.apply('approve', {
    actor: review.reviewer,
    patch,
    metadata: { ...metadata, decision: review.decision, ...decisionFacts(review) },
  });
};
