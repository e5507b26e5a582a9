import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { extractText, getDocumentProxy } from 'unpdf';
import { extractPdfText } from '../lambdas/parse/pdfText.js';
import { type FixtureName, fixturePath } from '../test/fixtures/pdfFixtures.js';
import { bundleParseEntry } from '../test/parse/bundleParseEntry.js';
import { bundledOcr, guardedOcrRows, languageRows, scanSets } from './support/ocrFigures.js';
import {
  type GuardedParse,
  type MemoryRow,
  MIB,
  memory,
  pdftotextVersion,
  progress,
  throughput,
} from './support/parseFigures.js';
import { ruleErasingRows } from './support/ruleFigures.js';

/*
 * npm run bench:parse [-- --json]
 *
 * 1. Throughput, side by side on the same documents: extractPdfText in this process (warm),
 *    the guarded parsePdf from the esbuild bundle (a fresh child per document, as in the Lambda),
 *    and poppler's pdftotext when installed (apt-get install -y poppler-utils), with the share of
 *    pdftotext's words that extractPdfText recovers.
 * 2. Memory: the guarded parse, default limits, on the 300-page document and each bomb: verdict,
 *    wall time, peak RSS of the parse process (sampled every 10 ms by the guard).
 * 3. Unguarded, each in a fresh process, on the 300-page document: peak RSS (the kernel's maxRSS)
 *    of unpdf's extractText, which requests every page at once, against extractPdfText, which
 *    reads one page at a time; and of a process that only loaded pdf.js, for the baseline.
 * 4. Size of the parse bundle (minified, and gzipped as a stand-in for the Lambda zip).
 * 5. OCR: the guarded tesseract OCR (bundled, as deployed) of two 10-page scans at 200 dpi, light
 *    and dense, with one worker and with one per core, fresh children then warm ones: pages/s in
 *    total and per core, peak RSS per child and of all children, the children's CPU seconds and
 *    pages per CPU second (what a core does when nobody else uses it), next to the load average;
 *    and the
 *    language choice side by side on one page of invoice lines in the six languages: eng, deu,
 *    eng+deu+fra, all six, each cold start, ms per page and words read right; and what whitening
 *    the table rules costs beside recognising the same pages (median ms per page, share).
 *    `--ocr-only` runs this section alone.
 */

const json = process.argv.includes('--json');

/** The 1, 5 and 15 minute load averages, as `uptime` prints them. */
const loadText = (load: number[]): string => load.map((value) => value.toFixed(2)).join(' ');

type ProbeMode = 'baseline' | 'unpdfExtractText' | 'extractPdfText';

interface ProbeRow {
  document: FixtureName;
  reader: string;
  seconds: number;
  peakRssMB: number;
}

/** In a fresh process (see `probe`): read `file` one way and print the process's peak RSS. */
const runProbe = async (mode: ProbeMode, file: string): Promise<void> => {
  const bytes = new Uint8Array(await readFile(file));
  const started = performance.now();
  if (mode === 'unpdfExtractText') await extractText(await getDocumentProxy(bytes));
  else if (mode === 'extractPdfText') await extractPdfText(bytes);
  else await getDocumentProxy(new Uint8Array(0)).catch(() => undefined); // loads pdf.js only
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
};

/** Runs `runProbe` in a fresh process (this file, with the same tsx loader) and reads its figures. */
const probe = async (document: FixtureName, mode: ProbeMode, reader: string): Promise<ProbeRow> => {
  progress(`unguarded: ${reader} on ${document}`);
  const file = await fixturePath(document);
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync(process.execPath, [...process.execArgv, self, '--probe', mode, file], {
    encoding: 'utf8',
  });
  const figures = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
    ms: number;
    maxRssBytes: number;
  };
  return {
    document,
    reader,
    seconds: Math.round(figures.ms / 100) / 10,
    peakRssMB: Math.round(figures.maxRssBytes / MIB),
  };
};

/** Section 5: OCR throughput, memory and the language choice. */
const ocrSection = async (): Promise<void> => {
  const dir = await mkdtemp(join(tmpdir(), 'docket-ocr-bench-'));
  try {
    progress('OCR: bundling the tesseract engine with esbuild');
    const engine = await bundledOcr(dir);
    progress('OCR: scanning the 10-page documents at 200 dpi');
    const sets = await scanSets();
    const loadBefore = loadavg();
    progress(
      `OCR: guarded tesseract, 1 worker and ${availableParallelism()} (load average ${loadText(loadBefore)})`,
    );
    const runs = await guardedOcrRows(engine, sets);
    const loadAfter = loadavg();
    progress('OCR: language sets side by side');
    const languages = await languageRows(3);
    progress('OCR: the cost of whitening table rules, beside recognition');
    const rules = await ruleErasingRows(sets);
    if (json) {
      console.log(
        JSON.stringify(
          {
            cores: availableParallelism(),
            loadAverage: { before: loadBefore, after: loadAfter },
            ocr: runs,
            ocrLanguages: languages,
            ocrRuleErasing: rules,
          },
          null,
          2,
        ),
      );
      return;
    }
    console.log(
      `\nOCR, guarded tesseract children (bundled, as the Lambda and npm start run them; render 200 dpi + recognise; all six languages); ` +
        `${availableParallelism()} cores, load average (1/5/15 min) ${loadText(loadBefore)} before, ${loadText(loadAfter)} after`,
    );
    console.table(
      runs.map((row) => ({
        document: row.document,
        pages: row.pages,
        workers: row.workers,
        run: row.run,
        seconds: row.seconds,
        'pages/s': row.pagesPerSecond,
        'pages/s per core': row.pagesPerSecondPerCore,
        'peak RSS MB per child': row.peakRssMBPerChild,
        'peak RSS MB total': row.peakRssMBTotal,
        'child CPU s': row.childCpuSeconds,
        'pages per CPU s': row.pagesPerCpuSecond,
      })),
    );
    console.log('\nOCR language sets on one 150 dpi page of invoice lines in six languages (this process)');
    console.table(
      languages.map((row) => ({
        languages: row.languages,
        'model load ms': row.workerStartMs,
        'ms per page (warm)': row.msPerPage,
        'words read %': row.wordsReadPercent,
        'words with diacritics read %': row.diacriticWordsReadPercent,
      })),
    );
    console.log(
      '\nOCR: whitening table rules (eraseRules) beside recognising the same page, median per page (this process)',
    );
    console.table(
      rules.map((row) => ({
        document: row.document,
        pages: row.pages,
        'erase ms': row.eraseMsPerPage,
        'recognise ms': row.recogniseMsPerPage,
        'erase share %': row.sharePercent,
      })),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const main = async (): Promise<void> => {
  const dir = await mkdtemp(join(tmpdir(), 'docket-parse-bench-'));
  try {
    progress('bundling the parse entry with esbuild');
    const { file } = await bundleParseEntry(dir);
    const bundleBytes = await readFile(file);
    const bundled = (await import(pathToFileURL(file).href)) as { parsePdf: GuardedParse };
    const popplerVersion = pdftotextVersion();
    if (!popplerVersion)
      progress('pdftotext not found (apt-get install -y poppler-utils): its columns stay empty');

    const throughputRows = [
      await throughput('invoice', 10, bundled.parsePdf, popplerVersion !== undefined),
      await throughput('contract', 10, bundled.parsePdf, popplerVersion !== undefined),
      await throughput('pages300', 3, bundled.parsePdf, popplerVersion !== undefined),
    ];
    const memoryRows: MemoryRow[] = [];
    for (const document of ['pages300', 'flateBomb', 'pages100k'] as const) {
      memoryRows.push(await memory(document, bundled.parsePdf));
    }
    const unguardedRows = [
      await probe('pages300', 'baseline', 'pdf.js loaded, no document'),
      await probe('pages300', 'unpdfExtractText', 'unpdf extractText (all pages at once)'),
      await probe('pages300', 'extractPdfText', 'extractPdfText (page by page)'),
    ];
    const report = {
      environment: { node: process.version, pdftotext: popplerVersion ?? null },
      bundle: {
        minifiedBytes: bundleBytes.length,
        gzipBytes: gzipSync(bundleBytes).length,
      },
      throughput: throughputRows,
      memory: memoryRows,
      unguarded: unguardedRows,
    };

    if (json) {
      console.log(JSON.stringify(report, null, 2));
      return;
    }
    console.log(
      `node ${report.environment.node}, pdftotext ${report.environment.pdftotext ?? 'not installed'}`,
    );
    console.log(
      `parse bundle: ${(report.bundle.minifiedBytes / MIB).toFixed(2)} MB minified, ` +
        `${(report.bundle.gzipBytes / MIB).toFixed(2)} MB gzipped`,
    );
    console.log('\nThroughput (median; pages/s)');
    console.table(
      throughputRows.map((row) => ({
        document: row.document,
        pages: row.pages,
        'extractPdfText p/s': row.extractPagesPerSecond,
        'guarded parsePdf p/s': row.guardedPagesPerSecond,
        'pdftotext p/s': row.pdftotextPagesPerSecond ?? '-',
        'extract ms': row.extractMs,
        'guarded ms': row.guardedMs,
        'pdftotext ms': row.pdftotextMs ?? '-',
        'words vs pdftotext %': row.wordsRecoveredPercent ?? '-',
      })),
    );
    console.log('\nGuarded parse, default limits (goal: peak RSS <= 512 MB, verdict within 60 s)');
    console.table(
      memoryRows.map((row) => ({
        document: row.document,
        verdict: row.verdict,
        seconds: row.seconds,
        'peak RSS MB': row.peakRssMB,
        'meets goal': row.meetsGoal,
      })),
    );
    console.log('\nUnguarded, fresh process each (peak RSS = kernel maxRSS, tsx included)');
    console.table(
      unguardedRows.map((row) => ({
        document: row.document,
        reader: row.reader,
        seconds: row.seconds,
        'peak RSS MB': row.peakRssMB,
      })),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const probeAt = process.argv.indexOf('--probe');
if (process.argv.includes('--ocr-only')) await ocrSection();
else if (probeAt === -1) {
  await main();
  await ocrSection();
} else await runProbe(process.argv[probeAt + 1] as ProbeMode, process.argv[probeAt + 2] ?? '');
