import { PDFDocument, StandardFonts } from 'pdf-lib';
import { resolveOcrSettings } from '../../lambdas/ocr/ocrSettings.js';
import { endTesseractWorker } from '../../lambdas/ocr/tesseract/recognize.js';
import { ocrWithTesseract, recognizeDocument } from '../../lambdas/ocr/tesseract/tesseractEngine.js';
import type { GuardedRunStats } from '../../lambdas/parse/guardedChild.js';
import { fixtureBytes } from '../../test/fixtures/pdfFixtures.js';
import { imagePdf, type ScannedPage, scanPdf } from '../../test/fixtures/scans.js';
import { recall } from './recall.js';

/*
 * The OCR figures of bench:parse: the guarded tesseract OCR of rendered pages (pages/s, peak RSS),
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

/** One guarded OCR run. */
export interface OcrRunRow {
  document: string;
  pages: number;
  run: 'cold child' | 'warm child';
  seconds: number;
  pagesPerSecond: number;
  peakRssMB: number;
}

/** Guarded OCR (the OCR stage's tesseract path) of image-only PDFs made from the fixtures, cold and warm. */
export const guardedOcrRows = async (): Promise<OcrRunRow[]> => {
  const settings = resolveOcrSettings({ engine: 'tesseract' });
  const rows: OcrRunRow[] = [];
  for (const name of ['invoice', 'contract'] as const) {
    const pdf = await imagePdf(await scanPdf(await fixtureBytes(name)));
    const pageCount = name === 'invoice' ? 2 : 3;
    for (const run of ['cold child', 'warm child'] as const) {
      let stats: GuardedRunStats | undefined;
      await ocrWithTesseract({ bytes: pdf, kind: 'pdf', pageCount, settings }, settings, (s) => {
        stats = s;
      });
      const ms = stats?.durationMs ?? Number.NaN;
      rows.push({
        document: `${name} (scanned, image-only PDF)`,
        pages: pageCount,
        run,
        seconds: Math.round(ms / 100) / 10,
        pagesPerSecond: Math.round((pageCount / ms) * 1000 * 100) / 100,
        peakRssMB: Math.round((stats?.peakRssBytes ?? Number.NaN) / MIB),
      });
    }
  }
  return rows;
};
