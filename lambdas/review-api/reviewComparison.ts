import { type ComparisonReport, comparisonOf, InvalidExtractionForCompare } from '../compare/index.js';
import { ArtifactMissingError, getJsonArtifact } from '../shared/artifacts.js';
import type { WorkflowItem } from '../shared/store/index.js';
import type { ApiDeps } from './apiDeps.js';

/** A comparison as a reviewer sees it: the stored report, or one made now for a waiting review. */
export type ReviewComparison = ComparisonReport & {
  /** True when it was made for this look at the review, from the record as it stands. */
  preview: boolean;
};

/**
 * What the record compares like beside its reference (the previous contract of the same parties,
 * or the invoice's contract): the compare stage's report once it ran; for a review still waiting,
 * the same comparison made now from the extracted record, so the reviewer sees what the decision
 * leads to. Nothing while a required field is missing (there is nothing sound to compare yet) or
 * for a document of no known type.
 */
export const reviewComparison = async (
  deps: ApiDeps,
  item: WorkflowItem,
): Promise<ReviewComparison | undefined> => {
  if (item.artifacts?.comparison) {
    const stored = await getJsonArtifact<ComparisonReport>(deps.s3, deps.bucket, item.artifacts.comparison);
    return { ...stored, preview: false };
  }
  if (item.state !== 'review_required' || !item.docType) return undefined;
  try {
    return { ...(await comparisonOf(deps, item)), preview: true };
  } catch (error) {
    if (error instanceof InvalidExtractionForCompare || error instanceof ArtifactMissingError)
      return undefined;
    throw error;
  }
};
