import type { S3Client } from '@aws-sdk/client-s3';
import type { TextractClient } from '@aws-sdk/client-textract';
import * as z from 'zod';
import { SourceObjectMissingError } from '../ingest/errors.js';
import { detectDocumentKind } from '../parse/documentKind.js';
import { UnsupportedFileType } from '../parse/errors.js';
import type { GuardedRunStats } from '../parse/guardedChild.js';
import { readSource } from '../parse/parseStage.js';
import { artifactKey, getJsonArtifact, putJsonArtifact } from '../shared/artifacts.js';
import { ConfigurationError } from '../shared/errors.js';
import { type PageText, type PdfText, PdfTextSchema } from '../shared/pdfText.js';
import { StageInputSchema } from '../shared/stageInput.js';
import { type StageResult, StageRun } from '../shared/stageRunner.js';
import type { WorkflowStore } from '../shared/store/index.js';
import { TooManyPagesForOcr } from './errors.js';
import type { OcrSettings } from './ocrSettings.js';
import { ocrText } from './ocrText.js';
import { jobToken, pollTextractJob, startTextractJob } from './textractEngine.js';

/** The Ocr Task's input: the stage input and the Task's previous result (a running job, or parse's). */
export const OcrInputSchema = StageInputSchema.extend({
  previous: z
    .object({
      ocrStatus: z.enum(['running', 'done']).optional(),
      jobId: z.string().min(1).optional(),
      startedAt: z.string().optional(),
    })
    .loose()
    .optional(),
});
/** Input of the Ocr Task. */
export type OcrInput = z.infer<typeof OcrInputSchema>;

/** What the Ocr Task returns: done (the workflow moved on), or running with when to poll again. */
export interface OcrResult extends StageResult {
  ocrStatus: 'done' | 'running';
  jobId?: string;
  startedAt?: string;
  waitSeconds?: number;
}

/** The tesseract engine as the stage calls it (the guarded child, or a stand-in in tests). */
export type TesseractOcr = (
  job: { bytes: Uint8Array; kind: 'pdf' | 'png' | 'jpeg' | 'tiff'; pageCount: number; settings: OcrSettings },
  onStats: (stats: GuardedRunStats) => void,
) => Promise<PageText[]>;

/** What the OCR stage works with. */
export interface OcrStageDeps {
  store: WorkflowStore;
  s3: S3Client;
  bucket: string;
  settings: OcrSettings;
  /** Largest upload read (the parse limit), bytes. */
  maxBytes: number;
  /** Present when the engine is tesseract. */
  tesseract?: TesseractOcr;
  /** Present when the engine is textract. */
  textract?: TextractClient;
  now?: () => Date;
}

/** Mean of the line confidences, for the transition log (0-1, two decimals). */
const meanConfidence = (pages: readonly PageText[]): number | undefined => {
  const values = pages.flatMap((page) => page.geometry?.map((g) => g.confidence ?? 0) ?? []);
  return values.length === 0
    ? undefined
    : Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100;
};

/**
 * The OCR stage: reads a scan or image that parse left in `parsing_pdf` with `needsOcr`, writes its
 * text (origin `ocr`, line boxes, word confidences) over parse's artifact, keeping the page count
 * and XML attachments parse found, and makes the `parsed` transition to `extracting`. With
 * tesseract the work is one call; with Textract the first call starts a job and returns
 * `running`, and the state machine calls again after `waitSeconds` until the job is done.
 *
 * @throws TooManyPagesForOcr before any OCR when the scan has more pages than `maxPages`;
 *   NoTextLayer when OCR found no text on any page; the engine's errors
 */
export const ocrStage = async (deps: OcrStageDeps, input: OcrInput): Promise<OcrResult> => {
  const run = await StageRun.load('ocr', deps.store, input.workflowId, input.policy);
  if (!(await run.enter('parsing_pdf'))) return { ...run.result(true), ocrStatus: 'done' };
  const { item } = run;
  const textKey = artifactKey(item.id, 'text', item.run);
  const before = PdfTextSchema.parse(await getJsonArtifact<PdfText>(deps.s3, deps.bucket, textKey));
  if (before.pageCount > deps.settings.maxPages) {
    throw new TooManyPagesForOcr({ pageCount: before.pageCount, maxPages: deps.settings.maxPages });
  }
  if (!item.source) throw new SourceObjectMissingError('(unknown)', `(workflow ${item.id} has no source)`);

  const started = performance.now();
  let pages: PageText[];
  let stats: GuardedRunStats | undefined;
  if (deps.settings.engine === 'textract') {
    if (!deps.textract)
      throw new ConfigurationError('OCR_ENGINE is textract but the OCR stage has no Textract client.');
    const engine = { textract: deps.textract, ...(deps.now && { now: deps.now }) };
    const job =
      input.previous?.ocrStatus === 'running' && input.previous.jobId && input.previous.startedAt
        ? { jobId: input.previous.jobId, startedAt: input.previous.startedAt }
        : await startTextractJob(engine, item.source, jobToken(item.id, item.retryCount ?? 0));
    const step = await pollTextractJob(engine, job, deps.settings);
    if (step.status === 'running') {
      return { ...run.result(), ocrStatus: 'running', ...step.job, waitSeconds: deps.settings.pollSeconds };
    }
    pages = step.pages;
  } else {
    if (!deps.tesseract)
      throw new ConfigurationError('OCR_ENGINE is tesseract but the OCR stage has no tesseract runner.');
    const bytes = await readSource(deps.s3, item.source, deps.maxBytes);
    const kind = detectDocumentKind(bytes);
    // parse never hands an XML upload to OCR; one here means the source changed under the workflow.
    if (kind === 'xml')
      throw new UnsupportedFileType({ detected: 'an e-invoice XML file, which needs no OCR' });
    pages = await deps.tesseract(
      { bytes, kind, pageCount: before.pageCount, settings: deps.settings },
      (s) => {
        stats = s;
      },
    );
  }
  const text = ocrText(before, pages);
  const { pageCount } = text;
  await putJsonArtifact(deps.s3, deps.bucket, textKey, text);
  await run.apply('parsed', {
    patch: { pageCount, 'artifacts.text': textKey },
    metadata: {
      ocrEngine: deps.settings.engine,
      pages: pageCount,
      ocrMs: Math.round(performance.now() - started),
      ...(meanConfidence(pages) !== undefined && { meanConfidence: meanConfidence(pages) }),
      ...(stats && { peakRssMb: Math.round(stats.peakRssBytes / 2 ** 20) }),
    },
  });
  return { ...run.result(), ocrStatus: 'done' };
};
