import type { S3Client } from '@aws-sdk/client-s3';
import { finalRecordKey, getJsonArtifact } from './artifacts.js';
import type { ExtractedField, Extraction } from './documents/index.js';
import type { WorkflowItem } from './store/index.js';
import { fieldsAsValidated } from './workflowViews.js';

/**
 * A workflow's record as a person is shown it (the review API, `docket show`): the reviewed
 * record when a reviewer corrected one, else the extraction, each field with the confidence
 * validation gave it. Undefined parts when nothing was extracted yet.
 */
export const loadRecordView = async (s3: S3Client, bucket: string, item: WorkflowItem) => {
  const key = finalRecordKey(item.artifacts);
  const extraction = key ? await getJsonArtifact<Extraction>(s3, bucket, key) : undefined;
  return {
    docType: extraction?.docType ?? item.docType,
    ...(extraction?.language && { language: extraction.language }),
    ...(extraction?.textOrigin && { textOrigin: extraction.textOrigin }),
    ...(extraction?.einvoice && { einvoice: extraction.einvoice }),
    fields: fieldsAsValidated((extraction?.fields ?? {}) as Record<string, ExtractedField<unknown>>, item),
    rejected: extraction?.rejected ?? [],
  };
};
