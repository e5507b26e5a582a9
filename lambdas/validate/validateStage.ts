import type { S3Client } from '@aws-sdk/client-s3';
import { ArtifactMissingError, artifactKey, getJsonArtifact } from '../shared/artifacts.js';
import type { ProviderLookup } from '../shared/documents/index.js';
import { type Routing, routingOf } from '../shared/routing.js';
import type { StageInput } from '../shared/stageInput.js';
import { type StageResult, StageRun } from '../shared/stageRunner.js';
import type { WorkflowItem, WorkflowStore } from '../shared/store/index.js';
import { duplicateFinder } from './duplicates.js';
import { validateDocument } from './validateDocument.js';

/** What the validate stage works with. */
export interface ValidateStageDeps {
  store: WorkflowStore;
  s3: S3Client;
  bucket: string;
  /** A provider lookup for one validation (it sees every import made before its first call). */
  providers: () => ProviderLookup;
  now: () => Date;
}

/** On a rerun of a record a person approved, what changed: a person then looks again. */
const changedSinceApproval = (item: WorkflowItem) => {
  const approvedBy = item.run ? item.reprocess?.previous.approvedBy : undefined;
  const fields = item.reprocess?.changedFields ?? [];
  return approvedBy && fields.length > 0 ? { changedSinceApproval: { fields, approvedBy } } : {};
};

/**
 * The validate stage: `validating` -> `validated` or `review_required`. Validation
 * computes the facts (confidence, required fields valid, reasons, priority); the transition
 * table's guards decide between auto-approval and a human, so the rule lives in one place.
 */
export const validateStage = async (
  deps: ValidateStageDeps,
  input: StageInput,
): Promise<StageResult & { routing: Routing }> => {
  const run = await StageRun.load('validate', deps.store, input.workflowId, input.policy);
  // The tenant and type select the review policy (the definition's SelectPolicy reads them).
  if (!(await run.enter('validating'))) return { ...run.result(true), routing: routingOf(run.item) };
  const { item } = run;
  if (!item.artifacts?.extraction)
    throw new ArtifactMissingError(artifactKey(item.id, 'extraction', item.run));
  const extraction = await getJsonArtifact(deps.s3, deps.bucket, item.artifacts.extraction);
  const result = await validateDocument(extraction, {
    lookupProvider: deps.providers(),
    confidenceThreshold: input.policy.confidenceThreshold,
    pageCount: item.pageCount,
    now: deps.now(),
    findDuplicate: duplicateFinder(deps.store, item),
    ...changedSinceApproval(item),
  });
  // Kept whatever the outcome: the queue needs it on review, and it explains an auto-approval.
  // On the item only: the reasons quote the document's values, which the log never holds.
  await run.update({
    review: {
      priority: result.priority,
      reasons: result.reasons.map((r) => ({ code: r.code, message: r.message, fields: r.fields })),
    },
  });
  await run.apply('validation_completed', {
    context: {
      confidence: result.confidence,
      confidenceThreshold: input.policy.confidenceThreshold,
      requiredFieldsValid: result.requiredFieldsValid,
    },
    patch: {
      confidence: result.confidence,
      fieldConfidence: result.fieldConfidence,
      ...(result.provider && { 'summary.providerId': result.provider.id }),
    },
    metadata: {
      confidence: result.confidence,
      requiredFieldsValid: result.requiredFieldsValid,
      reasons: result.reasons.map((r) => r.code),
      priority: result.priority,
      ...(result.provider && { providerId: result.provider.id }),
    },
  });
  return { ...run.result(), routing: routingOf(run.item) };
};
