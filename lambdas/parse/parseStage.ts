import { GetObjectCommand, type GetObjectCommandOutput, type S3Client } from '@aws-sdk/client-s3';
import { SourceObjectMissingError, SourceUnavailableError } from '../ingest/errors.js';
import { artifactKey, copyArtifactIfPresent, putJsonArtifact } from '../shared/artifacts.js';
import type { PdfText } from '../shared/pdfText.js';
import type { StageInput } from '../shared/stageInput.js';
import { type StageResult, StageRun } from '../shared/stageRunner.js';
import type { DocumentSource, WorkflowStore } from '../shared/store/index.js';
import { detectDocumentKind, isImageKind } from './documentKind.js';
import { xmlUploadText } from './embeddedXml.js';
import { imagePageCount } from './imagePages.js';
import type { ParseLimits } from './parseLimits.js';
import { checkPdfSize, type ParseRunStats, readPdfGuarded } from './parsePdf.js';
import { needsOcr } from './pdfText.js';

/** What the parse stage works with. */
export interface ParseStageDeps {
  store: WorkflowStore;
  s3: S3Client;
  bucket: string;
  limits: ParseLimits;
  onStats?: (stats: ParseRunStats) => void;
}

/**
 * What the parse stage hands the state machine: `needsOcr` sends a scan or image to the Ocr state.
 * Always present: a Choice on a path that does not exist fails the execution (States.Runtime).
 */
export interface ParseStageResult extends StageResult {
  needsOcr: boolean;
}

/** Reads the uploaded object, refusing one over the size limit before downloading it (parse and OCR). */
export const readSource = async (
  s3: S3Client,
  source: DocumentSource,
  maxBytes: number,
): Promise<Uint8Array> => {
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
 * The parse stage: `pending` -> `parsing_pdf` -> `extracting`, with the text of
 * every page written to `artifacts/{id}/text.json`. The upload's kind is told from its bytes: a
 * PDF with a text layer is parsed under guard, a bare e-invoice XML becomes an artifact with no
 * pages and the XML as its embedded file. A scan (a PDF whose pages carry no text) and an image
 * stay in `parsing_pdf` with `needsOcr`: the artifact then holds what parse knows (page count,
 * XML attachments) and the Ocr state writes the text and makes the transition. Content extracted
 * before for this tenant is reused (the text artifact is copied, the transitions are still
 * logged); when the cached text has expired, the document is parsed as if it had never been seen.
 */
export const parseStage = async (deps: ParseStageDeps, input: StageInput): Promise<ParseStageResult> => {
  const run = await StageRun.load('parse', deps.store, input.workflowId, input.policy);
  if (!(await run.enter('parsing_pdf', { from: 'pending', event: 'start_parse' }))) {
    return { ...run.result(true), needsOcr: false };
  }
  const { item } = run;
  const textKey = artifactKey(item.id, 'text', item.run);

  const cached = await deps.store.cachedExtractionFor(item);
  if (cached && (await copyArtifactIfPresent(deps.s3, deps.bucket, cached.artifacts.text, textKey))) {
    await run.apply('parsed', {
      patch: { pageCount: cached.pageCount, 'artifacts.text': textKey },
      metadata: { cachedFrom: cached.workflowId },
    });
    return { ...run.result(), needsOcr: false };
  }

  if (!item.source) throw new SourceObjectMissingError('(unknown)', `(workflow ${item.id} has no source)`);
  const bytes = await readSource(deps.s3, item.source, deps.limits.maxBytes);
  const kind = detectDocumentKind(bytes);
  let stats: ParseRunStats | undefined;
  let text: PdfText;
  let skipped: { name: string; reason: string }[] = [];
  if (kind === 'xml') text = xmlUploadText(bytes, item.source.key);
  else if (isImageKind(kind)) text = { pageCount: imagePageCount(bytes, kind), pages: [], origin: 'ocr' };
  else {
    const reading = await readPdfGuarded(bytes, deps.limits, {
      onStats: (s) => {
        stats = s;
        deps.onStats?.(s);
      },
    });
    ({ text } = reading);
    skipped = reading.skippedAttachments;
  }
  await putJsonArtifact(deps.s3, deps.bucket, textKey, text);
  // A scan or an image: the Ocr state reads the artifact (page count, attachments) and finishes.
  if (isImageKind(kind) || needsOcr(text)) return { ...run.result(), needsOcr: true };
  await run.apply('parsed', {
    patch: { pageCount: text.pageCount, 'artifacts.text': textKey },
    metadata: {
      kind,
      pages: text.pageCount,
      bytes: bytes.byteLength,
      ...(text.embedded && { embedded: text.embedded.map((file) => file.name) }),
      ...(skipped.length > 0 && { embeddedSkipped: skipped }),
      // Says why identical content was parsed again: its cached text had expired.
      ...(cached && { cacheExpired: cached.workflowId }),
      ...(stats && {
        parseMs: Math.round(stats.durationMs),
        peakRssMb: Math.round(stats.peakRssBytes / 2 ** 20),
      }),
    },
  });
  return { ...run.result(), needsOcr: false };
};
