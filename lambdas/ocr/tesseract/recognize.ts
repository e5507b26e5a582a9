import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Worker } from 'tesseract.js';
import type { PlacedText } from '../../parse/buildLines.js';
import { ConfigurationError } from '../../shared/errors.js';
import type { PageImage } from './pageImages.js';
import { placeWords } from './wordPlacement.js';

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

/**
 * Recognises one page image and returns its words as placed runs, in pixels (`placeWords`). Lines
 * are rebuilt from these by the same `layoutLines` as text-layer runs, so columns on one row join
 * with two spaces whichever block tesseract put them in.
 */
export const recognizePage = async (worker: Worker, image: PageImage): Promise<PlacedText[]> => {
  const { data } = await worker.recognize(image.pgm as never, {}, { blocks: true, text: false });
  const lines = (data.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) => paragraph.lines),
  );
  return placeWords(lines, image.width);
};
