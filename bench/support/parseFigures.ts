import { spawnSync } from 'node:child_process';
import type { ParseRunStats, parsePdf } from '../../lambdas/parse/parsePdf.js';
import { extractPdfText } from '../../lambdas/parse/pdfText.js';
import type { PdfText } from '../../lambdas/shared/pdfText.js';
import { type FixtureName, fixtureBytes, fixturePath } from '../../test/fixtures/pdfFixtures.js';
import { recall } from './recall.js';
import { median } from './stats.js';

/*
 * The text-layer figures of bench:parse: throughput of extractPdfText, the guarded parse and
 * poppler's pdftotext side by side on the same documents, and the guarded parse's verdict, time
 * and peak RSS on the large document and the bombs.
 */

export const MIB = 1024 * 1024;
const RSS_GOAL_BYTES = 512 * MIB;
const TIME_GOAL_MS = 60_000;
/** A line of progress on stderr, so stdout stays the report (or its JSON). */
export const progress = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const timeIt = async (action: () => Promise<unknown> | unknown): Promise<number> => {
  const started = performance.now();
  await action();
  return performance.now() - started;
};

const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '');

/** The installed pdftotext's version, if there is one. */
export const pdftotextVersion = (): string | undefined => {
  const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  return probe.error ? undefined : /pdftotext version (\S+)/.exec(probe.stderr)?.[1];
};

const pdftotext = (file: string): string => {
  const result = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], {
    encoding: 'utf8',
    maxBuffer: 256 * MIB,
  });
  if (result.status !== 0) throw new Error(`pdftotext failed on ${file}: ${result.stderr}`);
  return result.stdout;
};

const flatten = (text: PdfText): string => text.pages.flatMap((page) => page.lines).join('\n');

/** Throughput of the three readers on one document, medians of `runs`. */
export interface ThroughputRow {
  document: FixtureName;
  pages: number;
  runs: number;
  extractMs: number;
  extractPagesPerSecond: number;
  guardedMs: number;
  guardedPagesPerSecond: number;
  pdftotextMs: number | null;
  pdftotextPagesPerSecond: number | null;
  wordsRecoveredPercent: number | null;
}

/** One guarded parse at the default limits: its verdict, time and peak RSS. */
export interface MemoryRow {
  document: FixtureName;
  verdict: string;
  seconds: number;
  peakRssMB: number;
  meetsGoal: boolean;
}

/** The guarded parse, as the bundle exports it. */
export type GuardedParse = typeof parsePdf;

/** Section 1 on one document: extractPdfText, the guarded parse and pdftotext, side by side. */
export const throughput = async (
  document: FixtureName,
  runs: number,
  guarded: GuardedParse,
  hasPdftotext: boolean,
): Promise<ThroughputRow> => {
  progress(`throughput: ${document} (${runs} runs each)`);
  const file = await fixturePath(document);
  const bytes = await fixtureBytes(document);
  const text = await extractPdfText(bytes); // also warms pdf.js up
  const pages = text.pageCount;
  const extract: number[] = [];
  const guard: number[] = [];
  const poppler: number[] = [];
  for (let run = 0; run < runs; run++) {
    extract.push(await timeIt(() => extractPdfText(bytes)));
    guard.push(await timeIt(() => guarded(bytes)));
    if (hasPdftotext) poppler.push(await timeIt(() => pdftotext(file)));
  }
  const perSecond = (ms: number): number => Math.round((pages / ms) * 1000);
  const popplerMs = hasPdftotext ? median(poppler) : null;
  return {
    document,
    pages,
    runs,
    extractMs: Math.round(median(extract)),
    extractPagesPerSecond: perSecond(median(extract)),
    guardedMs: Math.round(median(guard)),
    guardedPagesPerSecond: perSecond(median(guard)),
    pdftotextMs: popplerMs === null ? null : Math.round(popplerMs),
    pdftotextPagesPerSecond: popplerMs === null ? null : perSecond(popplerMs),
    wordsRecoveredPercent: hasPdftotext
      ? Math.round(recall(words(flatten(text)), words(pdftotext(file))) * 1000) / 10
      : null,
  };
};

/** Section 2 on one document: the guarded parse at the default limits. */
export const memory = async (document: FixtureName, guarded: GuardedParse): Promise<MemoryRow> => {
  progress(`memory: ${document}`);
  const bytes = await fixtureBytes(document);
  let stats: ParseRunStats | undefined;
  const verdict = await guarded(bytes, {}, { onStats: (run) => (stats = run) }).then(
    (text) => `text (${text.pageCount} pages)`,
    (error: unknown) => (error as Error).name,
  );
  const peak = stats?.peakRssBytes ?? Number.NaN;
  const ms = stats?.durationMs ?? Number.NaN;
  return {
    document,
    verdict,
    seconds: Math.round(ms / 100) / 10,
    peakRssMB: Math.round(peak / MIB),
    // The goal: at most 512 MB (as sampled), and a verdict (text or permanent error) within 60 s.
    meetsGoal: peak <= RSS_GOAL_BYTES && ms < TIME_GOAL_MS && verdict !== 'ParseWorkerFailed',
  };
};
