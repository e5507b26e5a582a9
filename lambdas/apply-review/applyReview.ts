import type { S3Client } from '@aws-sdk/client-s3';
import type { StagePolicy } from '../../statemachine/index.js';
import { ArtifactMissingError, artifactKey, getJsonArtifact, putJsonArtifact } from '../shared/artifacts.js';
import { documentSummary, summaryPatch } from '../shared/documentSummary.js';
import {
  applyCorrections,
  classifyAs,
  DOCUMENT_TYPE_NEEDED,
  type Extraction,
  validateCorrections,
} from '../shared/documents/index.js';
import type { ReviewDecision } from '../shared/review/index.js';
import { type StageResult, StageRun } from '../shared/stageRunner.js';
import type { ItemPatch, WorkflowStore } from '../shared/store/index.js';
import { InvalidCorrectionsError } from './errors.js';

/** What apply-review works with. */
export interface ApplyReviewDeps {
  store: WorkflowStore;
  s3: S3Client;
  bucket: string;
}

/**
 * apply-review, the stage after a reviewer's decision: `review_required` -> `validated` (approve,
 * or correct with the reviewer's corrections written to `artifacts/{id}/reviewed.json`) or ->
 * `rejected`, with the reviewer as the actor. The task token is forgotten either way.
 */
export const applyReview = async (
  deps: ApplyReviewDeps,
  input: { workflowId: string; review: ReviewDecision; policy: StagePolicy },
): Promise<StageResult> => {
  const run = await StageRun.load('apply-review', deps.store, input.workflowId, input.policy);
  if (run.item.state !== 'review_required') return run.result(true);
  const { item } = run;
  const review = input.review;
  if (review.decision === 'reject') {
    await run.apply('reject', {
      actor: review.reviewer,
      patch: { reviewTaskToken: null },
      // The reason a person wrote stays on the item (review.decision), out of the log.
      metadata: {
        decision: 'reject',
        reasonGiven: Boolean(review.reason),
        ...(review.takenOverFrom && { takenOverFrom: review.takenOverFrom }),
      },
    });
    return run.result();
  }

  const patch: ItemPatch = { reviewTaskToken: null };
  if (review.decision === 'correct' && review.corrections) {
    if (!item.artifacts?.extraction)
      throw new ArtifactMissingError(artifactKey(item.id, 'extraction', item.run));
    const read = await getJsonArtifact<Extraction>(deps.s3, deps.bucket, item.artifacts.extraction);
    // The reviewer's choice of type comes first: the corrections are fields of that type.
    const docType = review.docType ?? (read.docType === 'unclassified' ? undefined : read.docType);
    if (!docType) {
      throw new InvalidCorrectionsError(item.id, [{ field: 'docType', message: DOCUMENT_TYPE_NEEDED }]);
    }
    const extraction = classifyAs(read, docType);
    const checked = validateCorrections(docType, review.corrections);
    if (!checked.ok) throw new InvalidCorrectionsError(item.id, checked.issues);
    const reviewed = applyCorrections(extraction, checked.corrections as never);
    const key = artifactKey(item.id, 'reviewed', item.run);
    await putJsonArtifact(deps.s3, deps.bucket, key, reviewed);
    patch['artifacts.reviewed'] = key;
    patch.docType = docType;
    // Read from the corrected document: on the item, never in the log.
    await run.update({ summary: { ...item.summary, ...summaryPatch(documentSummary(reviewed)) } });
  }
  await run.apply('approve', {
    actor: review.reviewer,
    patch,
    metadata: {
      decision: review.decision,
      ...(review.corrections && { corrected: Object.keys(review.corrections) }),
      ...(review.docType && { docType: review.docType }),
      ...(review.takenOverFrom && { takenOverFrom: review.takenOverFrom }),
    },
  });
  return run.result();
};
