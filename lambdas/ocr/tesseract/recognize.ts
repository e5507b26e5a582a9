import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Worker } from 'tesseract.js';
import type { PlacedText } from '../../parse/buildLines.js';
import { ConfigurationError } from '../../shared/errors.js';
import type { PageImage } from './pageImages.js';

/** How tesseract is set up: the languages and the folder their traineddata is read from. */
export interface TesseractSetup {
  languages: string;
  tessdataDir: string;
}

/**
 * Checks that every language's traineddata is on disk, so that tesseract.js never falls back to
 * its default of downloading it: with `langPath` a local folder it only reads files, and a missing
 * one is a configuration fault named here rather than a network call.
 *
 * @throws ConfigurationError naming the missing files and the Debian packages that ship them
 */
export const checkTessdata = async ({ languages, tessdataDir }: TesseractSetup): Promise<void> => {
  const missing: string[] = [];
  for (const language of languages.split('+')) {
    const file = join(tessdataDir, `${language}.traineddata`);
    if (
      !(await access(file).then(
        () => true,
        () => false,
      ))
    )
      missing.push(file);
  }
  if (missing.length > 0) {
    throw new ConfigurationError(
      `OCR language data is missing: ${missing.join(', ')}. Install Debian's tesseract-ocr-<lang> packages ` +
        `(apt-get install tesseract-ocr-eng tesseract-ocr-deu ...), or point OCR_TESSDATA_DIR at a folder of ` +
        'uncompressed .traineddata files. Docket never downloads language data.',
    );
  }
};

let current: { key: string; worker: Promise<Worker> } | undefined;

/**
 * The tesseract worker for `setup`, created once per process and kept: it holds the language
 * models (tens of MB each, a second or more to load). Every path tesseract.js could fetch from is
 * pinned: `langPath` is a local folder read with `gzip: false` (Debian's files are uncompressed),
 * `cacheMethod: 'none'` (no cache read or written), and the wasm core is the one in node_modules
 * (tesseract.js requires it in Node; `corePath` only matters in browsers).
 */
export const tesseractWorker = async (setup: TesseractSetup): Promise<Worker> => {
  const key = `${setup.languages}@${setup.tessdataDir}`;
  if (current?.key !== key) {
    await checkTessdata(setup);
    const previous = current;
    // Loaded on first use, like the renderers: a Textract deployment's bundle leaves tesseract.js out.
    const { createWorker, OEM } = await import('tesseract.js');
    current = {
      key,
      worker: createWorker(setup.languages.split('+'), OEM.LSTM_ONLY, {
        langPath: setup.tessdataDir,
        cachePath: setup.tessdataDir,
        cacheMethod: 'none',
        gzip: false,
        legacyCore: false,
        legacyLang: false,
      }),
    };
    if (previous) void (await previous.worker).terminate();
  }
  return current.worker;
};

/** Ends the kept worker (tests and benches that want the process to exit). */
export const endTesseractWorker = async (): Promise<void> => {
  const worker = current?.worker;
  current = undefined;
  if (worker) await (await worker).terminate();
};

/** The y of a line's baseline under the middle of a word, in pixels. */
const baselineAt = (baseline: { x0: number; y0: number; x1: number; y1: number }, x: number): number =>
  baseline.x1 === baseline.x0
    ? baseline.y1
    : baseline.y0 + ((baseline.y1 - baseline.y0) * (x - baseline.x0)) / (baseline.x1 - baseline.x0);

type Line = {
  bbox: { x0: number; y0: number; x1: number; y1: number };
  baseline: { x0: number; y0: number; x1: number; y1: number };
};

/**
 * The page's skew as the slope of its text lines (the median of the baselines of lines wider than
 * a tenth of the page): a scan fed in 2 degrees askew has baselines that drop 3.5 px per 100.
 */
export const pageSlope = (lines: readonly Line[], pageWidth: number): number => {
  const slopes = lines
    .filter((line) => line.baseline.x1 - line.baseline.x0 > pageWidth / 10)
    .map((line) => (line.baseline.y1 - line.baseline.y0) / (line.baseline.x1 - line.baseline.x0))
    .sort((a, b) => a - b);
  return slopes[Math.floor(slopes.length / 2)] ?? 0;
};

/**
 * Recognises one page image and returns its words as placed runs, in pixels: x and width from the
 * word's box, y on its line's baseline, font size from the line's row height (ascenders and
 * descenders included, about one em) and confidence 0-1. A skewed scan is straightened first (each
 * y moved by the page's slope times its x), so that the cells of one table row share a baseline.
 * Lines are rebuilt from these by the same `layoutLines` as text-layer runs, so columns on one row
 * join with two spaces whichever block tesseract put them in.
 */
export const recognizePage = async (worker: Worker, image: PageImage): Promise<PlacedText[]> => {
  const { data } = await worker.recognize(image.pgm as never, {}, { blocks: true, text: false });
  const lines = (data.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) => paragraph.lines),
  );
  const slope = pageSlope(lines, image.width);
  const runs: PlacedText[] = [];
  for (const line of lines) {
    const fontSize = Math.max(
      line.bbox.y1 - line.bbox.y0,
      (line.rowAttributes?.rowHeight ?? 0) + (line.rowAttributes?.descenders ?? 0),
      1,
    );
    for (const word of line.words) {
      if (word.text.trim() === '') continue;
      const middle = (word.bbox.x0 + word.bbox.x1) / 2;
      runs.push({
        text: word.text,
        x: word.bbox.x0,
        y: baselineAt(line.baseline, middle) - slope * middle,
        width: word.bbox.x1 - word.bbox.x0,
        fontSize,
        confidence: Math.min(1, Math.max(0, word.confidence / 100)),
      });
    }
  }
  return runs;
};
