import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobToken, pollTextractJob, startTextractJob } from '../../lambdas/ocr/textractEngine.js';
import { PdfTextSchema } from '../../lambdas/shared/pdfText.js';
import { invoiceBlocks, startTextractStandIn, type TextractStandIn } from './support/textractStandIn.js';

let standIn: TextractStandIn;
const source = { bucket: 'docket-docs', key: 'incoming/acme/scan.pdf', versionId: 'v1' };
const limits = { maxPages: 20, maxJobSeconds: 900 };
const at = (iso: string) => () => new Date(iso);

beforeAll(async () => {
  standIn = await startTextractStandIn();
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => {
  standIn.calls.length = 0;
  standIn.answers.clear();
});

describe('the Textract engine against a stand-in of the Textract API (no local Textract exists)', () => {
  it('starts text detection on the S3 object version with an idempotency token per attempt', async () => {
    // Prepare
    standIn.answers.set('StartDocumentTextDetection', [{ body: { JobId: 'job-1' } }]);
    const deps = { textract: standIn.client, now: at('2024-05-01T10:00:00Z') };

    // Act
    const job = await startTextractJob(deps, source, jobToken('wf-1', 0));

    // Assess
    expect(job).toEqual({ jobId: 'job-1', startedAt: '2024-05-01T10:00:00.000Z' });
    expect(standIn.calls).toEqual([
      {
        operation: 'StartDocumentTextDetection',
        input: {
          DocumentLocation: {
            S3Object: { Bucket: 'docket-docs', Name: 'incoming/acme/scan.pdf', Version: 'v1' },
          },
          ClientRequestToken: jobToken('wf-1', 0),
        },
      },
    ]);
    expect(jobToken('wf-1', 0)).toMatch(/^[a-f0-9]{64}$/);
    expect(jobToken('wf-1', 1)).not.toBe(jobToken('wf-1', 0));
  });

  it('reports a running job as running, until it has run longer than its bound', async () => {
    // Prepare
    standIn.answers.set('GetDocumentTextDetection', [
      { body: { JobStatus: 'IN_PROGRESS' } },
      { body: { JobStatus: 'IN_PROGRESS' } },
    ]);
    const job = { jobId: 'job-1', startedAt: '2024-05-01T10:00:00.000Z' };

    // Act
    const early = await pollTextractJob(
      { textract: standIn.client, now: at('2024-05-01T10:00:30Z') },
      job,
      limits,
    );
    const late = await pollTextractJob(
      { textract: standIn.client, now: at('2024-05-01T10:15:01Z') },
      job,
      limits,
    ).catch((error: unknown) => error as Error);

    // Assess
    expect(early).toEqual({ status: 'running', job });
    expect(late).toMatchObject({
      name: 'OcrTooComplex',
      retryable: false,
      facts: { bound: 'time', limit: 900_000 },
    });
  });

  it('turns a finished job, fetched page by page of results, into the text artifact’s pages', async () => {
    // Prepare: the blocks come in two result pages joined by NextToken
    const blocks = invoiceBlocks();
    standIn.answers.set('GetDocumentTextDetection', [
      {
        body: {
          JobStatus: 'SUCCEEDED',
          DocumentMetadata: { Pages: 2 },
          Blocks: blocks.slice(0, 7),
          NextToken: 't2',
        },
      },
      { body: { JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 2 }, Blocks: blocks.slice(7) } },
    ]);

    // Act
    const step = await pollTextractJob(
      { textract: standIn.client },
      { jobId: 'job-1', startedAt: '2024-05-01T10:00:00Z' },
      limits,
    );

    // Assess: the row split into two LINE blocks reads as one line with its cells two spaces apart
    expect(step.status).toBe('done');
    if (step.status !== 'done') return;
    expect(step.pages.map((page) => page.lines)).toEqual([
      ['Rechnung Nr. 471102', 'Trennblätter  198,00'],
      ['Bruttosumme  529,87'],
    ]);
    const row = step.pages[0]?.geometry?.[1];
    expect(row?.confidence).toBeCloseTo(0.713, 3);
    expect(row?.words?.map((w) => [w.text, w.confidence])).toEqual([
      ['Trennblätter', 0.962],
      ['198,00', 0.713],
    ]);
    expect(row?.box.x).toBeCloseTo(0.1, 3);
    expect(standIn.calls.map((c) => c.input.NextToken)).toEqual([undefined, 't2']);
    expect(PdfTextSchema.safeParse({ pageCount: 2, pages: step.pages, origin: 'ocr' }).success).toBe(true);
  });

  it('fails permanently when Textract could not read the document, transiently when it is throttled', async () => {
    // Prepare
    standIn.answers.set('GetDocumentTextDetection', [
      { body: { JobStatus: 'FAILED', StatusMessage: 'Request has unsupported document format' } },
      { error: 'ProvisionedThroughputExceededException', message: 'slow down' },
    ]);
    const job = { jobId: 'job-1', startedAt: '2024-05-01T10:00:00Z' };

    // Act
    const failure = () =>
      pollTextractJob({ textract: standIn.client }, job, limits).then(
        () => new Error('expected a failure'),
        (e: unknown) => e as Error,
      );
    const failed = await failure();
    const throttled = await failure();

    // Assess
    expect(failed).toMatchObject({ name: 'OcrFailed', retryable: false });
    expect(failed.message).toMatch(/Textract.*unsupported document format/);
    expect(throttled).toMatchObject({ name: 'OcrUnavailable', retryable: true });
  });

  it('refuses a job whose document has more pages than OCR reads', async () => {
    // Prepare
    standIn.answers.set('GetDocumentTextDetection', [
      { body: { JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: 21 }, Blocks: [] } },
    ]);

    // Act
    const error = await pollTextractJob(
      { textract: standIn.client },
      { jobId: 'j', startedAt: '2024-05-01T10:00:00Z' },
      limits,
    ).catch((e: unknown) => e as Error);

    // Assess
    expect(error).toMatchObject({ name: 'TooManyPagesForOcr', facts: { pageCount: 21, maxPages: 20 } });
  });
});
