import { resolveOcrSettings } from '../../lambdas/ocr/ocrSettings.js';
import { pdfPageImages } from '../../lambdas/ocr/tesseract/pageImages.js';
import { endTesseractWorker, recognizePage, tesseractWorker } from '../../lambdas/ocr/tesseract/recognize.js';
import { eraseRules } from '../../lambdas/ocr/tesseract/ruleLines.js';
import { median } from './stats.js';

/** What whitening the rules costs on one scan set, beside recognising the same pages. */
export interface RuleErasingRow {
  document: string;
  pages: number;
  /** Median over the pages, ms. */
  eraseMsPerPage: number;
  recogniseMsPerPage: number;
  /** Erasing as a share of erasing + recognising, percent. */
  sharePercent: number;
}

/**
 * Each page of each set rendered at 200 dpi, then timed twice in this process, side by side:
 * `eraseRules` on it, and tesseract (all six languages, warm) recognising the erased page. The
 * ratio is what the rule erasing adds to a page's OCR.
 */
export const ruleErasingRows = async (
  sets: readonly { name: string; pdf: Uint8Array; pages: number }[],
): Promise<RuleErasingRow[]> => {
  const worker = await tesseractWorker(resolveOcrSettings({ engine: 'tesseract' }));
  const rows: RuleErasingRow[] = [];
  for (const set of sets) {
    const erase: number[] = [];
    const recognise: number[] = [];
    const pageNumbers = Array.from({ length: set.pages }, (_, i) => i + 1);
    for await (const image of pdfPageImages(set.pdf, 200, pageNumbers)) {
      const t0 = performance.now();
      eraseRules(image);
      const t1 = performance.now();
      await recognizePage(worker, image);
      erase.push(t1 - t0);
      recognise.push(performance.now() - t1);
    }
    const eraseMs = median(erase);
    const recogniseMs = median(recognise);
    rows.push({
      document: set.name,
      pages: set.pages,
      eraseMsPerPage: Math.round(eraseMs),
      recogniseMsPerPage: Math.round(recogniseMs),
      sharePercent: Math.round((eraseMs / (eraseMs + recogniseMs)) * 1000) / 10,
    });
  }
  await endTesseractWorker();
  return rows;
};
