import type { S3Client } from '@aws-sdk/client-s3';
import { isTerminal } from '../../statemachine/index.js';
import { deleteVersions } from './objectVersions.js';
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
  /** The clock of the erasure's start mark (the review API's injected one). */
  now?: () => Date;
}

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
  // Marked before anything is deleted: an outbox deliverer that wrote this document's result
  // meanwhile reads the item again after its write, sees the mark and deletes what it wrote.
  await deps.store.update(id, { erasingSince: (deps.now?.() ?? new Date()).toISOString() });
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
