import type { S3Client } from '@aws-sdk/client-s3';
import {
  ArtifactMissingError,
  artifactKey,
  copyArtifactIfPresent,
  getJsonArtifact,
  putJsonArtifact,
} from '../shared/artifacts.js';
import { documentSummary, summaryPatch } from '../shared/documentSummary.js';
import type { Extraction } from '../shared/documents/index.js';
import type { StageInput } from '../shared/stageInput.js';
import { type StageResult, StageRun } from '../shared/stageRunner.js';
import type { WorkflowStore } from '../shared/store/index.js';
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
  const extractionKey = artifactKey(item.id, 'extraction');

  const cached = await deps.store.cachedExtractionFor(item);
  const reused =
    cached && (await copyArtifactIfPresent(deps.s3, deps.bucket, cached.artifacts.extraction, extractionKey));
  let extraction: Extraction;
  if (reused) {
    extraction = await getJsonArtifact<Extraction>(deps.s3, deps.bucket, extractionKey);
  } else {
    if (!item.artifacts?.text) throw new ArtifactMissingError(artifactKey(item.id, 'text'));
    const text = parsePdfText(await getJsonArtifact(deps.s3, deps.bucket, item.artifacts.text));
    extraction = await deps.extractor().extract(text);
    await putJsonArtifact(deps.s3, deps.bucket, extractionKey, extraction);
    if (item.source?.sha256 && item.artifacts.text) {
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
    },
    metadata: {
      docType: extraction.docType,
      classificationConfidence: extraction.classificationConfidence,
      extractor: extraction.extractor.name,
      fields: Object.keys(extraction.fields).length,
      ...(cached && (reused ? { cachedFrom: cached.workflowId } : { cacheExpired: cached.workflowId })),
    },
  });
  return run.result();
};
