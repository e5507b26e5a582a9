import type { S3Client } from '@aws-sdk/client-s3';
import { type Facts, factsOfRecord } from '../../statemachine/reviewPolicies/index.js';
import { ArtifactMissingError, artifactKey, finalRecordKey, getJsonArtifact } from '../shared/artifacts.js';
import {
  applyCorrections,
  classifyAs,
  DOCUMENT_TYPE_NEEDED,
  type DocType,
  type Extraction,
  validateCorrections,
} from '../shared/documents/index.js';
import type { ReviewDecision } from '../shared/review/index.js';
import type { WorkflowItem } from '../shared/store/index.js';
import { InvalidCorrectionsError } from './errors.js';

/** The machine's reading and, for a `correct`, the record with the reviewer's corrections applied. */
export interface DecidedRecord {
  extraction: Extraction;
  corrected?: { docType: DocType; record: Extraction };
}

/**
 * Reads the record as it stands (the extraction, or an earlier step's correction of it) and applies
 * a `correct` decision's corrections to it (in memory).
 */
export const decidedRecord = async (
  deps: { s3: S3Client; bucket: string },
  item: WorkflowItem,
  review: ReviewDecision,
): Promise<DecidedRecord> => {
  // The record as it stands: an earlier step's corrections (review policies) are kept, and this
  // decision's corrections go on top of them. (A run starts without a reviewed record.)
  const key = finalRecordKey(item.artifacts);
  if (!key) throw new ArtifactMissingError(artifactKey(item.id, 'extraction', item.run));
  const extraction = await getJsonArtifact<Extraction>(deps.s3, deps.bucket, key);
  if (review.decision !== 'correct' || !review.corrections) return { extraction };
  // The reviewer's choice of type comes first: the corrections are fields of that type.
  const docType = review.docType ?? (extraction.docType === 'unclassified' ? undefined : extraction.docType);
  if (!docType) {
    throw new InvalidCorrectionsError(item.id, [{ field: 'docType', message: DOCUMENT_TYPE_NEEDED }]);
  }
  const checked = validateCorrections(docType, review.corrections);
  if (!checked.ok) throw new InvalidCorrectionsError(item.id, checked.issues);
  return {
    extraction,
    corrected: {
      docType,
      record: applyCorrections(classifyAs(extraction, docType), checked.corrections as never),
    },
  };
};

/**
 * The facts a review policy's conditions read, of a record of this workflow: its type and amounts
 * from the record, the tenant, validation's overall confidence and whether the counterparty is in
 * the Providers table from the item.
 */
export const policyFacts = (item: WorkflowItem, record: Extraction): Facts =>
  factsOfRecord({
    ...record,
    tenant: item.tenant,
    ...(item.confidence !== undefined && { confidence: item.confidence }),
    facts: { vendor_known: typeof item.summary?.providerId === 'string' },
  });
