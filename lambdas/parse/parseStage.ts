import { GetObjectCommand, type GetObjectCommandOutput, type S3Client } from '@aws-sdk/client-s3';
import { SourceObjectMissingError, SourceUnavailableError } from '../ingest/errors.js';
import { artifactKey, copyArtifactIfPresent, putJsonArtifact } from '../shared/artifacts.js';
import type { StageInput } from '../shared/stageInput.js';
import { type StageResult, StageRun } from '../shared/stageRunner.js';
import type { DocumentSource, WorkflowStore } from '../shared/store/index.js';
import type { ParseLimits } from './parseLimits.js';
import { checkPdfSize, type ParseRunStats, parsePdf } from './parsePdf.js';

/** What the parse stage works with. */
export interface ParseStageDeps {
  store: WorkflowStore;
  s3: S3Client;
  bucket: string;
  limits: ParseLimits;
  onStats?: (stats: ParseRunStats) => void;
}

/** Reads the uploaded object, refusing one over the size limit before downloading it. */
const readSource = async (s3: S3Client, source: DocumentSource, maxBytes: number): Promise<Uint8Array> => {
  let object: GetObjectCommandOutput;
  try {
    object = await s3.send(
      new GetObjectCommand({ Bucket: source.bucket, Key: source.key, VersionId: source.versionId }),
    );
  } catch (error) {
    if (error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NoSuchVersion')) {
      throw new SourceObjectMissingError(source.bucket, source.key, { cause: error });
    }
    throw new SourceUnavailableError(`Could not read s3://${source.bucket}/${source.key}; will retry.`, {
      cause: error,
    });
  }
  const body = object.Body as { transformToByteArray: () => Promise<Uint8Array>; destroy?: () => void };
  try {
    checkPdfSize(object.ContentLength ?? 0, maxBytes);
  } catch (error) {
    body.destroy?.();
    throw error;
  }
  return body.transformToByteArray();
};

/**
 * The parse stage (DESIGN.md §2): `pending` -> `parsing_pdf` -> `extracting`, with the text of
 * every page written to `artifacts/{id}/text.json`. Content extracted before for this tenant is
 * reused (the text artifact is copied, the transitions are still logged); when the cached text has
 * expired, the document is parsed as if it had never been seen.
 */
export const parseStage = async (deps: ParseStageDeps, input: StageInput): Promise<StageResult> => {
  const run = await StageRun.load('parse', deps.store, input.workflowId, input.policy);
  if (!(await run.enter('parsing_pdf', { from: 'pending', event: 'start_parse' }))) return run.result(true);
  const { item } = run;
  const textKey = artifactKey(item.id, 'text');

  const cached = await deps.store.cachedExtractionFor(item);
  if (cached && (await copyArtifactIfPresent(deps.s3, deps.bucket, cached.artifacts.text, textKey))) {
    await run.apply('parsed', {
      patch: { pageCount: cached.pageCount, 'artifacts.text': textKey },
      metadata: { cachedFrom: cached.workflowId },
    });
    return run.result();
  }

  if (!item.source) throw new SourceObjectMissingError('(unknown)', `(workflow ${item.id} has no source)`);
  const bytes = await readSource(deps.s3, item.source, deps.limits.maxBytes);
  let stats: ParseRunStats | undefined;
  const text = await parsePdf(bytes, deps.limits, {
    onStats: (s) => {
      stats = s;
      deps.onStats?.(s);
    },
  });
  await putJsonArtifact(deps.s3, deps.bucket, textKey, text);
  await run.apply('parsed', {
    patch: { pageCount: text.pageCount, 'artifacts.text': textKey },
    metadata: {
      pages: text.pageCount,
      bytes: bytes.byteLength,
      // Says why identical content was parsed again: its cached text had expired.
      ...(cached && { cacheExpired: cached.workflowId }),
      ...(stats && {
        parseMs: Math.round(stats.durationMs),
        peakRssMb: Math.round(stats.peakRssBytes / 2 ** 20),
      }),
    },
  });
  return run.result();
};
