import { createHash } from 'node:crypto';
import {
  type Block,
  GetDocumentTextDetectionCommand,
  type GetDocumentTextDetectionCommandOutput,
  StartDocumentTextDetectionCommand,
  type TextractClient,
} from '@aws-sdk/client-textract';
import type { PlacedText } from '../parse/buildLines.js';
import { pageTextOf } from '../parse/pageText.js';
import type { PageText } from '../shared/pdfText.js';
import type { DocumentSource } from '../shared/store/index.js';
import { OcrFailed, OcrTooComplex, OcrUnavailable, TooManyPagesForOcr } from './errors.js';

/*
 * Amazon Textract text detection as an OCR engine. Multi-page documents need the asynchronous API:
 * the first call starts a job on the S3 object, later calls poll it (the state machine waits in
 * between), and the last one turns its LINE and WORD blocks into pages. Languages: Textract's text
 * detection reads English, German, French, Spanish, Italian and Portuguese without being told.
 */

/**
 * Textract gives positions as fractions of the page and not the page's size. Words are placed on
 * an A4 portrait page of this many units so that the line builder's em-based gaps (measured across
 * and down the page alike) keep their proportions; other page shapes skew column gaps a little.
 */
const PAGE = { width: 1000, height: 1414 } as const;

/** A Textract job in progress, as the state machine carries it between polls. */
export interface TextractJob {
  jobId: string;
  /** ISO time the job was started, for the bound on its duration. */
  startedAt: string;
}

/** One step of the Textract engine: the job is running (poll again later), or the pages are read. */
export type TextractStep =
  | { status: 'running'; job: TextractJob }
  | { status: 'done'; pages: PageText[]; pageCount: number };

/** What the engine needs. */
export interface TextractDeps {
  textract: TextractClient;
  now?: () => Date;
}

/** Faults of the Textract service itself (throttling, outage): retried, not the document's fault. */
const TRANSIENT = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'LimitExceededException',
  'InternalServerError',
  'ServiceUnavailableException',
]);

/** What Textract says about the document when it refuses it. */
const DOCUMENT_FAULTS = new Set([
  'UnsupportedDocumentException',
  'BadDocumentException',
  'DocumentTooLargeException',
  'InvalidS3ObjectException',
]);

const classify = (error: unknown): Error => {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  if (DOCUMENT_FAULTS.has(name))
    return new OcrFailed({ engine: 'Textract', reason: `${name}: ${message}` }, { cause: error });
  if (TRANSIENT.has(name)) return new OcrUnavailable({ reason: `Textract ${name}` }, { cause: error });
  return new OcrUnavailable({ reason: `Textract ${name}: ${message}` }, { cause: error });
};

/**
 * The idempotency token of a job: the same workflow and attempt start one job however often the
 * Lambda is invoked (Textract returns the same JobId for a repeated token), a retry a new one.
 */
export const jobToken = (workflowId: string, attempt: number): string =>
  createHash('sha256').update(`${workflowId}#${attempt}`).digest('hex').slice(0, 64);

/** Starts text detection on the uploaded object. */
export const startTextractJob = async (
  deps: TextractDeps,
  source: DocumentSource,
  token: string,
): Promise<TextractJob> => {
  try {
    const { JobId } = await deps.textract.send(
      new StartDocumentTextDetectionCommand({
        DocumentLocation: {
          S3Object: {
            Bucket: source.bucket,
            Name: source.key,
            ...(source.versionId && { Version: source.versionId }),
          },
        },
        ClientRequestToken: token,
      }),
    );
    if (!JobId) throw new OcrUnavailable({ reason: 'Textract started a job without a JobId' });
    return { jobId: JobId, startedAt: (deps.now?.() ?? new Date()).toISOString() };
  } catch (error) {
    throw error instanceof OcrUnavailable ? error : classify(error);
  }
};

/** Words of each line of one page as placed runs (see `PAGE`), confidence 0-1. */
const runsOfPage = (blocks: readonly Block[], byId: ReadonlyMap<string, Block>): PlacedText[] => {
  const runs: PlacedText[] = [];
  for (const line of blocks) {
    if (line.BlockType !== 'LINE') continue;
    const lineBox = line.Geometry?.BoundingBox;
    const fontSize = Math.max((lineBox?.Height ?? 0) * PAGE.height, 1);
    // Textract's boxes include descenders: the baseline sits about a fifth of the line above its bottom.
    const baseline = ((lineBox?.Top ?? 0) + (lineBox?.Height ?? 0)) * PAGE.height - fontSize / 5;
    const wordIds = line.Relationships?.filter((r) => r.Type === 'CHILD').flatMap((r) => r.Ids ?? []) ?? [];
    for (const id of wordIds) {
      const word = byId.get(id);
      const box = word?.Geometry?.BoundingBox;
      if (word?.BlockType !== 'WORD' || !word.Text || !box) continue;
      runs.push({
        text: word.Text,
        x: (box.Left ?? 0) * PAGE.width,
        y: baseline,
        width: (box.Width ?? 0) * PAGE.width,
        fontSize,
        confidence: Math.min(1, Math.max(0, (word.Confidence ?? 0) / 100)),
      });
    }
  }
  return runs;
};

/** Turns a finished job's blocks into pages, through the same line builder as every other source. */
export const pagesFromBlocks = (blocks: readonly Block[], pageCount: number): PageText[] => {
  const byId = new Map(blocks.filter((b) => b.Id).map((b) => [b.Id as string, b]));
  const pages: PageText[] = [];
  for (let page = 1; page <= pageCount; page++) {
    const onPage = blocks.filter((b) => (b.Page ?? 1) === page);
    pages.push(pageTextOf(page, runsOfPage(onPage, byId), PAGE, { ocr: true }));
  }
  return pages;
};

/**
 * Polls a job: `running` while Textract works on it, `done` with the pages once it succeeded
 * (every result page fetched), an error when it failed or has run longer than `maxJobSeconds`.
 *
 * @throws OcrFailed (Textract could not read the document), TooManyPagesForOcr, OcrTooComplex
 *   (`time`: the job outlived its bound), OcrUnavailable (transient service faults)
 */
export const pollTextractJob = async (
  deps: TextractDeps,
  job: TextractJob,
  limits: { maxPages: number; maxJobSeconds: number },
): Promise<TextractStep> => {
  const blocks: Block[] = [];
  let first: GetDocumentTextDetectionCommandOutput | undefined;
  let nextToken: string | undefined;
  try {
    do {
      const page = await deps.textract.send(
        new GetDocumentTextDetectionCommand({ JobId: job.jobId, MaxResults: 1000, NextToken: nextToken }),
      );
      first ??= page;
      if (page.JobStatus === 'IN_PROGRESS') break;
      blocks.push(...(page.Blocks ?? []));
      nextToken = page.NextToken;
    } while (nextToken);
  } catch (error) {
    throw classify(error);
  }
  const status = first?.JobStatus;
  if (status === 'IN_PROGRESS') {
    const elapsed = ((deps.now?.() ?? new Date()).getTime() - Date.parse(job.startedAt)) / 1000;
    if (elapsed > limits.maxJobSeconds) {
      throw new OcrTooComplex({ bound: 'time', limit: limits.maxJobSeconds * 1000, pagesDone: 0 });
    }
    return { status: 'running', job };
  }
  if (status === 'FAILED' || status === undefined) {
    throw new OcrFailed({
      engine: 'Textract',
      reason: first?.StatusMessage ?? `job status ${status ?? 'unknown'}`,
    });
  }
  // SUCCEEDED, or PARTIAL_SUCCESS: the pages Textract could read are kept; extraction weighs them.
  const pageCount = first?.DocumentMetadata?.Pages ?? Math.max(1, ...blocks.map((b) => b.Page ?? 1));
  if (pageCount > limits.maxPages) throw new TooManyPagesForOcr({ pageCount, maxPages: limits.maxPages });
  return { status: 'done', pages: pagesFromBlocks(blocks, pageCount), pageCount };
};
