import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { ResultStoreUnavailableError } from '../shared/results/errors.js';
import { resultKey } from '../shared/results/keys.js';
import { RESULT_VERSION, type ResultRecord, resultBytes } from '../shared/results/record.js';
import type { DetailDeps, DocumentEventDetail } from './eventDetail.js';

/**
 * The result of a completed workflow, from its event's full detail (every field, who set each),
 * or undefined for an end that has none: not completed, no record left (erased, expired), or no
 * contract/invoice type.
 */
export const resultOf = (detail: DocumentEventDetail): ResultRecord | undefined => {
  const { docType } = detail;
  // Compared by value, which keeps the documents module's zod schemas out of this bundle.
  if (
    detail.state !== 'completed' ||
    detail.fieldsOmitted ||
    (docType !== 'contract' && docType !== 'invoice')
  )
    return undefined;
  return {
    version: RESULT_VERSION,
    id: detail.workflowId,
    eventId: detail.eventId,
    tenant: detail.tenant,
    docType,
    completedAt: detail.occurredAt,
    actor: detail.actor,
    fields: detail.fields,
    comparison: detail.comparison,
    review: detail.review,
    links: detail.links,
  };
};

/**
 * Writes the JSON result of a completed workflow to `results/{tenant}/{docType}/date=…/{id}.json`
 * and returns its key (undefined when the end has no result).
 *
 * Why the outbox deliverer writes it, and not compare (the stage that completes): the deliverer
 * already builds the final record with who set each field, and it runs at least once per end,
 * after the transition (compare could write a result for a completion that then fails to commit).
 * It writes before it publishes, and the outbox entry is cleared only after both, so a crash at any
 * point leaves the entry for the next run, which writes again: the key is the workflow's and its
 * completion day's, and the content is built from what no longer changes once it completed, so a
 * redelivery writes the same bytes to the same key.
 */
export const writeResult = async (
  deps: DetailDeps,
  detail: DocumentEventDetail,
): Promise<string | undefined> => {
  const record = resultOf(detail);
  if (!record) return undefined;
  const key = resultKey(record.tenant, record.docType, record.completedAt, record.id);
  try {
    await deps.s3.send(
      new PutObjectCommand({
        Bucket: deps.bucket,
        Key: key,
        Body: resultBytes(record),
        ContentType: 'application/json',
      }),
    );
  } catch (error) {
    throw new ResultStoreUnavailableError(`Could not write the result ${key}; the next run writes it.`, {
      cause: error,
    });
  }
  return key;
};

/**
 * After a rerun (`docket reprocess`) completed on another day than the run before it, removes the
 * earlier run's JSON result, so that a document has one current row in its results (the object
 * stays as a noncurrent version in the versioned bucket). The day's Parquet file loses the row at
 * its next compaction. A no-op when the key did not change or there is no earlier result.
 */
export const removeReplacedResult = async (
  deps: DetailDeps,
  previousKey: string | undefined,
  written: string | undefined,
): Promise<void> => {
  if (!previousKey || !written || previousKey === written) return;
  try {
    await deps.s3.send(new DeleteObjectCommand({ Bucket: deps.bucket, Key: previousKey }));
  } catch (error) {
    throw new ResultStoreUnavailableError(
      `Could not remove the replaced result ${previousKey}; the next run does.`,
      {
        cause: error,
      },
    );
  }
};
