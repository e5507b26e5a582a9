import type { PlacedText } from '../../parse/buildLines.js';

/** A box or a baseline in pixels: (x0, y0) to (x1, y1). */
interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What `placeWords` reads of a tesseract line: the shape tesseract.js returns with `blocks`. */
export interface RecognizedLine {
  bbox: Segment;
  baseline: Segment;
  rowAttributes?: { rowHeight?: number; descenders?: number };
  words: readonly { text: string; confidence: number; bbox: Segment }[];
}

/**
 * How far below or above its line's baseline a word's box may end, as a share of the word's own
 * height, and still sit on that baseline: a descender (g, p, y, a comma) reaches about a quarter
 * of a word's height below it. A word further off is on another row.
 */
export const OFF_BASELINE_SHARE = 0.35;

/** The y of a baseline under x, in pixels. */
const baselineAt = (baseline: Segment, x: number): number =>
  baseline.x1 === baseline.x0
    ? baseline.y1
    : baseline.y0 + ((baseline.y1 - baseline.y0) * (x - baseline.x0)) / (baseline.x1 - baseline.x0);

/**
 * The page's skew as the slope of its text lines (the median of the baselines of lines wider than
 * a tenth of the page): a scan fed in 2 degrees askew has baselines that drop 3.5 px per 100.
 */
export const pageSlope = (lines: readonly Pick<RecognizedLine, 'baseline'>[], pageWidth: number): number => {
  const slopes = lines
    .filter((line) => line.baseline.x1 - line.baseline.x0 > pageWidth / 10)
    .map((line) => (line.baseline.y1 - line.baseline.y0) / (line.baseline.x1 - line.baseline.x0))
    .sort((a, b) => a - b);
  return slopes[Math.floor(slopes.length / 2)] ?? 0;
};

/**
 * A line's em: tesseract's row height with its descenders. Its box is only the fallback when
 * tesseract gives no row: a box also spans any word tesseract misplaced in the line, and an em
 * twice too large makes `layoutLines` join the rows above and below into this one.
 */
const lineEm = (line: RecognizedLine): number => {
  const row = (line.rowAttributes?.rowHeight ?? 0) + (line.rowAttributes?.descenders ?? 0);
  return row > 0 ? row : Math.max(line.bbox.y1 - line.bbox.y0, 1);
};

type Word = RecognizedLine['words'][number];

/**
 * Whether a word's box ends on `line`'s baseline: within `OFF_BASELINE_SHARE` of its height from
 * the baseline's lowest point under the word. On a skewed line the box is taller by the baseline's
 * drop along the word, and ends that much lower at one end: a long word measured against the
 * baseline under its middle would seem off its own line and on the next.
 */
const endsOn = (word: Word, line: RecognizedLine): boolean => {
  const left = baselineAt(line.baseline, word.bbox.x0);
  const right = baselineAt(line.baseline, word.bbox.x1);
  const height = Math.max(word.bbox.y1 - word.bbox.y0 - Math.abs(right - left), 1);
  return Math.abs(word.bbox.y1 - Math.max(left, right)) <= OFF_BASELINE_SHARE * height;
};

/**
 * The baseline a word sits on, in pixels. Tesseract sometimes puts into one line the words of two
 * rows, as with two address blocks side by side a half row apart; on that line's baseline they
 * would read as one line, their words interleaved ("Ma35 ruejolie..."). So a word whose box does
 * not end on its own line's baseline takes the baseline of another line it ends on; failing
 * that, its own box's bottom if the box lies wholly above its line's row, or if its middle is
 * below the baseline (letters stand on a baseline, and no descender reaches below it further
 * than they rise above it: such a word is a row further down); otherwise (a smudge or a logo
 * read as letters, overlapping the row) its line's baseline still.
 */
const baselineOf = (word: Word, line: RecognizedLine, lines: readonly RecognizedLine[]): number => {
  const middle = (word.bbox.x0 + word.bbox.x1) / 2;
  const own = baselineAt(line.baseline, middle);
  if (endsOn(word, line)) return own;
  const other = lines.find((candidate) => candidate !== line && endsOn(word, candidate));
  if (other) return baselineAt(other.baseline, middle);
  // A box wholly below the baseline has its middle below it too.
  const aboveRow = word.bbox.y1 <= own - lineEm(line);
  const belowBaseline = (word.bbox.y0 + word.bbox.y1) / 2 > own;
  return aboveRow || belowBaseline ? word.bbox.y1 : own;
};

/**
 * Tesseract's words as placed runs, in pixels: x and width from the word's box, y on the baseline
 * it sits on (`baselineOf`), font size its line's em, confidence 0-1. A skewed scan is
 * straightened (each y moved by the page's slope times its x), so that the cells of one table row
 * share a baseline.
 */
export const placeWords = (lines: readonly RecognizedLine[], pageWidth: number): PlacedText[] => {
  const slope = pageSlope(lines, pageWidth);
  const runs: PlacedText[] = [];
  for (const line of lines) {
    const em = lineEm(line);
    for (const word of line.words) {
      if (word.text.trim() === '') continue;
      const middle = (word.bbox.x0 + word.bbox.x1) / 2;
      runs.push({
        text: word.text,
        x: word.bbox.x0,
        y: baselineOf(word, line, lines) - slope * middle,
        width: word.bbox.x1 - word.bbox.x0,
        fontSize: em,
        confidence: Math.min(1, Math.max(0, word.confidence / 100)),
      });
    }
  }
  return runs;
};
