import type { LineGeometry, PageBox, PageText, PageWord } from '../shared/pdfText.js';
import { type LaidOutLine, layoutLines, type PlacedText } from './buildLines.js';

/** The size of a page (or image) in the units of its runs' positions. */
export interface PageSize {
  width: number;
  height: number;
}

const clamp = (value: number): number => Math.min(1, Math.max(0, value));
const round = (value: number): number => Math.round(value * 10_000) / 10_000;

/** A box in run units as fractions of the page, clipped to the page. */
const toPageBox = (left: number, top: number, right: number, bottom: number, size: PageSize): PageBox => {
  const x = clamp(left / size.width);
  const y = clamp(top / size.height);
  return {
    x: round(x),
    y: round(y),
    width: round(clamp(right / size.width) - x),
    height: round(clamp(bottom / size.height) - y),
  };
};

/**
 * How sure OCR is of a line: its least sure word. A line is as good as its weakest word for the
 * values read from it (one misread digit makes a wrong amount), so a mean would hide exactly the
 * misreading that matters.
 */
export const lineConfidence = (words: readonly { confidence: number }[]): number =>
  words.length === 0 ? 0 : Math.min(...words.map((word) => word.confidence));

const wordsOf = (line: LaidOutLine, size: PageSize): PageWord[] =>
  line.runs.map((run) => ({
    text: run.text,
    box: toPageBox(run.x, run.y - run.fontSize, run.x + run.width, run.y + run.fontSize / 5, size),
    confidence: round(run.confidence ?? 0),
  }));

/**
 * The text of one page with a box per line, from its runs (text-layer items or OCR words) through
 * `layoutLines`. With `ocr`, each line also carries its words with their boxes and confidences,
 * and its own confidence (`lineConfidence`: the weakest word).
 */
export const pageTextOf = (
  page: number,
  runs: readonly PlacedText[],
  size: PageSize,
  options: { ocr?: boolean } = {},
): PageText => {
  const lines = layoutLines(runs);
  const geometry: LineGeometry[] = lines.map((line) => {
    const box = toPageBox(line.left, line.top, line.right, line.bottom, size);
    if (!options.ocr) return { box };
    const words = wordsOf(line, size);
    return { box, confidence: lineConfidence(words), words };
  });
  return { page, lines: lines.map((line) => line.text), geometry };
};
