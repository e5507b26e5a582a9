import { TextractClient } from '@aws-sdk/client-textract';
import { isGuardedChild } from '../parse/guardedChild.js';
import { parseLimitsFromEnv } from '../parse/parseLimits.js';
import { createDocumentClient, createS3Client } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';
import { WorkflowStore } from '../shared/store/index.js';
import { OCR_CHILD_ENV, ocrSettingsFromEnv } from './ocrSettings.js';
import { OcrInputSchema, ocrStage, type TesseractOcr } from './ocrStage.js';

// With tesseract this bundle is also the OCR child's entry (the engine module forks the file that
// loaded it): top-level work stays declarations, and the engine is loaded only when it is the one
// configured, so a Textract deployment never loads tesseract.js, pdf.js or the canvas binary.
const observability = createObservability('ocr');
// In the OCR child, loading the engine is what serves its jobs (a bundle inlines it lazily).
if (isGuardedChild(OCR_CHILD_ENV)) void import('./tesseract/tesseractEngine.js');

const tesseractRunner = (): TesseractOcr => async (job, onStats) => {
  const { ocrWithTesseract } = await import('./tesseract/tesseractEngine.js');
  return ocrWithTesseract(job, job.settings, onStats);
};

const deps = once(() => {
  const settings = ocrSettingsFromEnv();
  return {
    store: new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }),
    s3: createS3Client(),
    bucket: requireEnv(EnvVar.bucket),
    settings,
    maxBytes: parseLimitsFromEnv().maxBytes,
    ...(settings.engine === 'textract'
      ? { textract: new TextractClient({}) }
      : { tesseract: tesseractRunner() }),
  };
});

/** ocr Lambda: scan or image in S3 -> text per page (OCR) in artifacts/{id}/text.json. */
export const handler = stageHandler(observability, OcrInputSchema, (input) => ocrStage(deps(), input));
