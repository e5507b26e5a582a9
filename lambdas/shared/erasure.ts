import {
  DeleteObjectsCommand,
  ListObjectVersionsCommand,
  type ListObjectVersionsCommandOutput,
  type ObjectIdentifier,
  type S3Client,
} from '@aws-sdk/client-s3';
import { isTerminal } from '../../statemachine/index.js';
import type { Principal } from './principal.js';
import { compactDay } from './results/compact.js';
import { resultDate, resultKey } from './results/keys.js';
import { ConflictError, loadForTenant } from './review/index.js';
import { StaleWorkflowError, type WorkflowStore } from './store/index.js';
import { workflowView } from './workflowViews.js';

/** What erasure needs: the store, and the documents bucket. */
export interface ErasureDeps {
  store: WorkflowStore;
  s3: S3Client;
  bucket: string;
}

/** A version listed for deletion. */
interface Listed {
  Key?: string | undefined;
  VersionId?: string | undefined;
  ETag?: string | undefined;
}

/**
 * Deletes every version (and delete marker) under `prefix` that `pick` chooses, 1,000 a call:
 * in a versioned bucket a plain delete only hides an object, and erasure must remove it.
 */
const deleteVersions = async (
  deps: ErasureDeps,
  prefix: string,
  pick: (version: Listed) => boolean,
): Promise<number> => {
  let deleted = 0;
  // The SDK has no paginator for ListObjectVersions: it pages by key and version-id markers.
  let page: ListObjectVersionsCommandOutput | undefined;
  do {
    page = await deps.s3.send(
      new ListObjectVersionsCommand({
        Bucket: deps.bucket,
        Prefix: prefix,
        ...(page?.NextKeyMarker && { KeyMarker: page.NextKeyMarker }),
        ...(page?.NextVersionIdMarker && { VersionIdMarker: page.NextVersionIdMarker }),
      }),
    );
    const objects: ObjectIdentifier[] = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])]
      .filter(pick)
      .map((v) => ({ Key: v.Key as string, ...(v.VersionId && { VersionId: v.VersionId }) }));
    if (objects.length === 0) continue;
    await deps.s3.send(
      new DeleteObjectsCommand({ Bucket: deps.bucket, Delete: { Objects: objects, Quiet: true } }),
    );
    deleted += objects.length;
  } while (page.IsTruncated);
  return deleted;
};

/**
 * Erases a finished document (right to erasure): its upload (the version this workflow read:
 * another upload under the same key is another document), every version of its artifacts and of
 * its JSON result (its day's Parquet file is rewritten without it; the replaced file's versions
 * expire with the bucket's lifecycle rule), and
 * what its item holds of the document and of what people wrote; then logs an `erase` entry (the
 * workflow keeps its end state). The transition log never held any of it, so every chain and
 * every snapshot (ids, counts, hashes, states) still verifies. The `erase` entry is written
 * last, so an erasure a crash cut short is simply run again; a second one changes nothing.
 */
export const eraseWorkflow = async (deps: ErasureDeps, principal: Principal, id: string) => {
  const item = await loadForTenant(deps, principal, id);
  if (!isTerminal(item.state)) {
    throw new ConflictError(
      `Workflow ${id} is ${item.state}: only a finished document can be erased. Cancel it first (docket cancel ${id}), then erase it.`,
      { state: item.state },
    );
  }
  if (item.lastEvent === 'erase')
    return { workflow: workflowView(item), objectsDeleted: 0, alreadyErased: true };
  const { source } = item;
  let objectsDeleted = await deleteVersions(deps, `artifacts/${id}/`, () => true);
  if (source?.key && source.bucket === deps.bucket) {
    objectsDeleted += await deleteVersions(
      deps,
      source.key,
      (v) =>
        v.Key === source.key &&
        (source.versionId
          ? v.VersionId === source.versionId
          : source.etag !== undefined && v.ETag === source.etag),
    );
  }
  // A completed document's result, and its row in that day's Parquet file (compacted again without it).
  const { docType } = item;
  if (item.state === 'completed' && (docType === 'contract' || docType === 'invoice')) {
    const key = resultKey(item.tenant, docType, item.stateEnteredAt, id);
    objectsDeleted += await deleteVersions(deps, key, (v) => v.Key === key);
    await compactDay(deps, item.tenant, docType, resultDate(item.stateEnteredAt));
  }
  try {
    const scrubbed = await deps.store.eraseContent(item);
    const { workflow } = await deps.store.transition(scrubbed, {
      event: 'erase',
      actor: principal.user,
      tenant: principal.tenant,
      patch: { artifacts: {} },
      metadata: { objectsDeleted },
    });
    return { workflow: workflowView(workflow), objectsDeleted, alreadyErased: false };
  } catch (error) {
    if (
      error instanceof StaleWorkflowError ||
      (error instanceof Error && error.name === 'TransitionConflict')
    ) {
      throw new ConflictError(`Workflow ${id} changed while it was being erased; run the erasure again.`);
    }
    throw error;
  }
};
