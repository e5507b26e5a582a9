import type { S3Client } from '@aws-sdk/client-s3';
import {
  ArtifactMissingError,
  artifactKey,
  copyArtifactIfPresent,
  getJsonArtifact,
  putJsonArtifact,
} from '../shared/artifacts.js';
import { documentSummary, summaryPatch } from '../shared/documentSummary.js';
import { applyLocks, changedFields, type Extraction } from '../shared/documents/index.js';
import type { StageInput } from '../shared/stageInput.js';
import { type StageResult, StageRun } from '../shared/stageRunner.js';
import type { WorkflowItem, WorkflowStore } from '../shared/store/index.js';
import type { Extractor } from './extractor.js';
import { parsePdfText } from './pdfTextSchema.js';

/** What the extract stage works with. */
export interface ExtractStageDeps {
  store: WorkflowStore;
  s3: S3Client;
  bucket: string;
  extractor: () => Extractor;
}

/**
 * The extract stage: `extracting` -> `validating`, with the classified,
 * field-by-field record in `artifacts/{id}/extraction.json` and a summary on the item. Content
 * extracted before for this tenant is reused (seed 002), unless the cached record has expired,
 * in which case it is extracted again; fresh extractions are offered to the content-hash cache.
 */
export const extractStage = async (deps: ExtractStageDeps, input: StageInput): Promise<StageResult> => {
  const run = await StageRun.load('extract', deps.store, input.workflowId, input.policy);
  if (!(await run.enter('extracting'))) return run.result(true);
  const { item } = run;
  const extractionKey = artifactKey(item.id, 'extraction', item.run);

  const cached = await deps.store.cachedExtractionFor(item);
  const reused =
    cached && (await copyArtifactIfPresent(deps.s3, deps.bucket, cached.artifacts.extraction, extractionKey));
  let extraction: Extraction;
  let changes: { changedFields: string[]; lockedFields: string[] } | undefined;
  if (reused) {
    extraction = await getJsonArtifact<Extraction>(deps.s3, deps.bucket, extractionKey);
  } else {
    if (!item.artifacts?.text) throw new ArtifactMissingError(artifactKey(item.id, 'text', item.run));
    const text = parsePdfText(await getJsonArtifact(deps.s3, deps.bucket, item.artifacts.text));
    extraction = await deps.extractor().extract(text);
    const rerun = item.run ? await reprocessed(deps, item, extraction) : undefined;
    if (rerun) {
      extraction = rerun.record;
      changes = rerun.changes;
    }
    await putJsonArtifact(deps.s3, deps.bucket, extractionKey, extraction);
    // A rerun's record may hold a person's values (locked fields): never handed to other uploads.
    if (item.source?.sha256 && item.artifacts.text && !item.run) {
      await deps.store.putExtractionCache({
        tenant: item.tenant,
        sha256: item.source.sha256,
        workflowId: item.id,
        artifacts: { text: item.artifacts.text, extraction: extractionKey },
        pageCount: extraction.pageCount,
        ...(extraction.docType !== 'unclassified' && { docType: extraction.docType }),
      });
    }
  }
  // The summary is read from the document: it goes on the item, never into the log.
  await run.update({ summary: summaryPatch(documentSummary(extraction)) });
  await run.apply('extracted', {
    patch: {
      // An unclassified document gets its type from the reviewer.
      ...(extraction.docType !== 'unclassified' && { docType: extraction.docType }),
      'artifacts.extraction': extractionKey,
      ...(changes && { 'reprocess.changedFields': changes.changedFields }),
    },
    metadata: {
      docType: extraction.docType,
      classificationConfidence: extraction.classificationConfidence,
      extractor: extraction.extractor.name,
      fields: Object.keys(extraction.fields).length,
      ...(cached && (reused ? { cachedFrom: cached.workflowId } : { cacheExpired: cached.workflowId })),
      // Names only: the log never holds a document's values.
      ...(changes && { run: item.run, ...changes }),
    },
  });
  return run.result();
};

/**
 * A rerun (`docket reprocess`): the new extraction with the fields a person set kept as they were
 * set, and which fields now differ from the previous run's final record. Validation sends a changed
 * record that a person approved back to a person.
 */
const reprocessed = async (deps: ExtractStageDeps, item: WorkflowItem, extraction: Extraction) => {
  const previousKey = item.reprocess?.previous.record;
  if (!previousKey) return undefined;
  const previous = await getJsonArtifact<Extraction>(deps.s3, deps.bucket, previousKey);
  const { record, applied } = applyLocks(extraction, previous, item.lockedFields ?? {});
  return { record, changes: { changedFields: changedFields(record, previous), lockedFields: applied } };
};
