import { readdir, readFile, symlink } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { generateCorpus } from '../../cli/samples/corpus.js';
import { resolveOcrSettings } from '../../lambdas/ocr/ocrSettings.js';
import { endTesseractWorker } from '../../lambdas/ocr/tesseract/recognize.js';
import {
  type OcrRunStats,
  type ocrWithTesseract,
  recognizeDocument,
} from '../../lambdas/ocr/tesseract/tesseractEngine.js';
import { fixtureBytes } from '../../test/fixtures/pdfFixtures.js';
import { imagePdf, type ScannedPage, scanPdf } from '../../test/fixtures/scans.js';
import { recall } from './recall.js';

/*
 * The OCR figures of bench:parse: the guarded tesseract OCR of 10-page scans with one worker and
 * with one per core (pages/s in total and per core, peak RSS per child and in all, cold and warm),
 * and the language choice measured side by side: one model, two, or all six at once, on the same
 * pages of invoice text in the six languages.
 */

const MIB = 1024 * 1024;

/** Invoice lines in each language Docket reads, diacritics included (WinAnsi, so Helvetica draws them). */
const LINES = [
  'Rechnung Nr. 2024-117 vom 5. März 2024  Bruttosumme  529,87 EUR',
  'Lieferant GmbH, Lieferantenstraße 20, 80333 München, USt-IdNr. DE123456789',
  'Facture n° FA-2017-0010 du 13 décembre 2017  Total TTC  671,15 €',
  'Échéance : 30 jours, règlement par virement, pénalités de retard 3 %',
  'Factuur 2024/0042  Totaal te betalen  1.234,56 EUR  Vervaldatum 12-04-2024',
  'Factura n.º 381/2024  Importe total  2.480,00 €  Fecha de emisión 03/05/2024',
  'Fattura n. 57 del 18/06/2024  Totale documento  € 915,30  Partita IVA IT01234567890',
  'Invoice number INV-2024-0042  Total due  236.80 EUR  Payment terms 30 days net',
];

/** A page of those lines, twice (16 lines), rendered as a 150 dpi scan. */
const multilingualScan = async (): Promise<{ scan: ScannedPage; words: string[] }> => {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([595, 842]);
  const all = [...LINES, ...LINES];
  for (const [i, line] of all.entries()) page.drawText(line, { x: 40, y: 790 - i * 40, size: 10, font });
  const [scan] = await scanPdf(await document.save());
  if (!scan) throw new Error('no page');
  return { scan, words: all.join(' ').split(/\s+/) };
};

/** One language configuration, measured. */
export interface LanguageRow {
  languages: string;
  workerStartMs: number;
  msPerPage: number;
  wordsReadPercent: number;
  diacriticWordsReadPercent: number;
}

/** Tesseract with each language set on the same multilingual page: start, time per page, words read right. */
export const languageRows = async (runs: number): Promise<LanguageRow[]> => {
  const { scan, words } = await multilingualScan();
  const accented = words.filter((w) => /[^\x20-\x7e]/.test(w));
  const rows: LanguageRow[] = [];
  for (const languages of ['eng', 'deu', 'eng+deu+fra', 'eng+deu+fra+nld+spa+ita']) {
    const settings = resolveOcrSettings({ engine: 'tesseract', languages });
    const job = { bytes: scan.bytes, kind: 'png' as const, pageCount: 1, settings };
    await endTesseractWorker();
    const started = performance.now();
    const pages = await recognizeDocument(job); // cold: loads the models, then one page
    const cold = performance.now() - started;
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const t = performance.now();
      await recognizeDocument(job);
      times.push(performance.now() - t);
    }
    const warm = times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;
    const read = pages
      .flatMap((p) => p.lines)
      .join(' ')
      .split(/\s+/);
    rows.push({
      languages,
      workerStartMs: Math.round(cold - warm),
      msPerPage: Math.round(warm),
      wordsReadPercent: Math.round(recall(read, words) * 1000) / 10,
      diacriticWordsReadPercent: Math.round(recall(read, accented) * 1000) / 10,
    });
  }
  await endTesseractWorker();
  return rows;
};

/** The bundle's file name, by which its children are found in /proc. */
const OCR_ENGINE_FILE = 'docket-ocr-engine.mjs';

/** The OCR engine as the Lambda and `npm start` run it: an esbuild bundle, its child forked on it. */
export interface BundledOcr {
  ocrWithTesseract: typeof ocrWithTesseract;
  drainGuardedChildren: () => void;
}

/**
 * Bundles the tesseract engine the way the OCR Lambda and the CLI bundle ship it (esbuild, ESM,
 * the engine packages left as imports) into `dir`, and loads it. The guarded child is then forked
 * on that JavaScript file with plain node, as in production: forked on the TypeScript source it
 * would run under the tsx loader, which compiles pdf.js in every child (about 3 s and 300 MB).
 */
export const bundledOcr = async (dir: string): Promise<BundledOcr> => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  // The bundle's package imports resolve from its folder, as they do next to the Lambda's bundle.
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'));
  const file = join(dir, OCR_ENGINE_FILE);
  await build({
    stdin: {
      contents:
        "export { ocrWithTesseract } from './lambdas/ocr/tesseract/tesseractEngine.ts';\n" +
        "export { drainGuardedChildren } from './lambdas/parse/guardedChild.ts';\n",
      resolveDir: root,
      loader: 'ts',
    },
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    logLevel: 'silent',
    external: ['tesseract.js', '@napi-rs/canvas', 'pdfjs-dist'],
  });
  return (await import(pathToFileURL(file).href)) as BundledOcr;
};

/** A multi-page scan the throughput is measured on. */
interface ScanSet {
  name: string;
  pdf: Uint8Array;
  pages: number;
}

/**
 * The two 10-page scans (200 dpi, image-only PDFs): the fixtures' invoice and contract twice
 * (light pages of 10 to 60 words, the issue's "0.7 s per page"), and the first pages of the
 * generated corpus (dense: about 500 words a page, as real contracts and invoices).
 */
export const scanSets = async (): Promise<ScanSet[]> => {
  const fixturePages = [
    ...(await scanPdf(await fixtureBytes('invoice'), { dpi: 200 })),
    ...(await scanPdf(await fixtureBytes('contract'), { dpi: 200 })),
  ];
  const corpusPages: ScannedPage[] = [];
  for (const document of await generateCorpus({ count: 4 })) {
    corpusPages.push(...(await scanPdf(await document.pdf(), { dpi: 200 })));
  }
  const set = (name: string, pages: ScannedPage[]) =>
    imagePdf(pages.slice(0, 10)).then((pdf) => ({ name, pdf, pages: Math.min(10, pages.length) }));
  return [
    await set('fixtures x2 (light)', [...fixturePages, ...fixturePages]),
    await set('corpus (dense)', corpusPages),
  ];
};

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`: 100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * CPU time (user + system, all threads) of each OCR child of this process, ms, from
 * `/proc/<pid>/stat`: what the children cost whatever else runs on the machine, where wall time
 * on a shared machine also counts the others. Empty where there is no `/proc`.
 */
const ocrChildCpuMs = async (): Promise<Map<number, number>> => {
  const cpu = new Map<number, number>();
  const pids = await readdir('/proc').catch(() => [] as string[]);
  for (const pid of pids.filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
      // The fields after the command name (in parentheses, which may hold spaces): state is 3rd.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid) continue;
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'latin1');
      if (!cmdline.includes(OCR_ENGINE_FILE)) continue;
      const ticks = Number(fields[11]) + Number(fields[12]);
      cpu.set(Number(pid), (ticks * 1000) / CLOCK_TICKS);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return cpu;
};

/** CPU the OCR children spent between two readings (a child new since the first started at 0). */
const cpuSpentMs = (before: Map<number, number>, after: Map<number, number>): number =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

/** One guarded OCR run of a scan set. */
export interface OcrRunRow {
  document: string;
  pages: number;
  workers: number;
  run: 'cold' | 'warm';
  seconds: number;
  pagesPerSecond: number;
  /** Pages/s divided by the cores the workers could use. */
  pagesPerSecondPerCore: number;
  /** Highest peak RSS of one child. */
  peakRssMBPerChild: number;
  /** Sum of the children's peaks (what the workers held at most together). */
  peakRssMBTotal: number;
  /** CPU seconds the children spent (render + recognise; a cold run's include loading). */
  childCpuSeconds: number;
  /** Pages per CPU second of the children: pages/s per core on a machine nobody else uses. */
  pagesPerCpuSecond: number;
}

/**
 * Guarded OCR (the OCR stage's tesseract path, bundled) of each scan set with one worker and with
 * one per core: fresh children (cold: Node, pdf.js and six language models loaded first), then
 * the same run again on the children kept warm.
 */
export const guardedOcrRows = async (engine: BundledOcr, sets: readonly ScanSet[]): Promise<OcrRunRow[]> => {
  const settings = resolveOcrSettings({ engine: 'tesseract' });
  const cores = availableParallelism();
  const rows: OcrRunRow[] = [];
  for (const set of sets) {
    for (const workers of [1, cores]) {
      engine.drainGuardedChildren();
      for (const run of ['cold', 'warm'] as const) {
        let stats: OcrRunStats | undefined;
        const job = { bytes: set.pdf, kind: 'pdf' as const, pageCount: set.pages, settings };
        const cpuBefore = await ocrChildCpuMs();
        await engine.ocrWithTesseract(job, { ...settings, workers }, (s) => {
          stats = s;
        });
        const cpuMs = cpuSpentMs(cpuBefore, await ocrChildCpuMs());
        const ms = stats?.durationMs ?? Number.NaN;
        const perSecond = (set.pages / ms) * 1000;
        const peaks = stats?.peakRssBytesPerWorker ?? [];
        rows.push({
          document: set.name,
          pages: set.pages,
          workers,
          run,
          seconds: Math.round(ms / 100) / 10,
          pagesPerSecond: Math.round(perSecond * 100) / 100,
          pagesPerSecondPerCore: Math.round((perSecond / Math.min(workers, cores)) * 100) / 100,
          peakRssMBPerChild: Math.round(Math.max(...peaks) / MIB),
          peakRssMBTotal: Math.round(peaks.reduce((a, b) => a + b, 0) / MIB),
          childCpuSeconds: Math.round(cpuMs / 100) / 10,
          pagesPerCpuSecond: Math.round((set.pages / cpuMs) * 1000 * 100) / 100,
        });
      }
    }
  }
  engine.drainGuardedChildren();
  return rows;
};
