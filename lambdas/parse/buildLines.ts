/**
 * One run of text placed on a page, in device space: origin at the top-left corner of the page as
 * displayed (rotation applied), y growing downwards, units of PDF points.
 */
export interface PlacedText {
  text: string;
  /** Left edge of the run. */
  x: number;
  /** Baseline of the run. */
  y: number;
  /** Advance width of the run. */
  width: number;
  /** Font height (em size) of the run. */
  fontSize: number;
  /** 0-1, OCR only: how sure the engine is of this word. */
  confidence?: number;
}

/** One rebuilt line: its text, the runs it was joined from (left to right) and its extent. */
export interface LaidOutLine {
  text: string;
  runs: PlacedText[];
  /** Left edge of the first run, right edge of the furthest run. */
  left: number;
  right: number;
  /** One em above the highest baseline, and a fifth of an em below the lowest (descenders). */
  top: number;
  bottom: number;
}

/**
 * Runs whose baselines differ by at most this many ems share a line: enough for superscripts and
 * for table cells set a point or two apart, less than the distance between two lines.
 */
export const BASELINE_TOLERANCE_EM = 0.5;
/** Runs closer than this many ems are one word (kerning or a font change inside a word). */
export const WORD_GAP_EM = 0.1;
/**
 * Runs at least this many ems apart are in different columns and are joined with two spaces.
 * pdf.js itself starts a new run at gaps over 0.6 em; justified text rarely stretches a space
 * beyond 1 em, table columns are further apart.
 */
export const COLUMN_GAP_EM = 1;

interface Line {
  y: number;
  fontSize: number;
  runs: PlacedText[];
}

/** Groups runs into lines by baseline, top to bottom (runs come sorted by baseline). */
const groupByBaseline = (runs: readonly PlacedText[]): Line[] => {
  const lines: Line[] = [];
  for (const run of runs) {
    const line = lines.at(-1);
    // Compare with the line's first baseline, not its last run, so a line cannot drift downwards.
    if (line && Math.abs(run.y - line.y) <= BASELINE_TOLERANCE_EM * Math.max(line.fontSize, run.fontSize)) {
      line.runs.push(run);
      line.fontSize = Math.max(line.fontSize, run.fontSize);
    } else {
      lines.push({ y: run.y, fontSize: run.fontSize, runs: [run] });
    }
  }
  return lines;
};

/** The separator between two neighbouring runs on a line, from the gap between them. */
const separator = (previousEnd: number, previous: PlacedText, next: PlacedText): string => {
  const em = Math.max(previous.fontSize, next.fontSize);
  const gap = next.x - previousEnd;
  if (gap >= COLUMN_GAP_EM * em) return '  ';
  if (gap > WORD_GAP_EM * em) return ' ';
  return '';
};

/** Joins the runs of one line left to right; returns the text and the runs it kept. */
const joinRuns = (runs: PlacedText[]): { text: string; kept: PlacedText[] } => {
  const sorted = [...runs].sort((a, b) => a.x - b.x);
  const [first, ...rest] = sorted;
  if (first === undefined) return { text: '', kept: [] };
  let text = first.text;
  let previous = first;
  let end = first.x + first.width;
  const kept = [first];
  for (const run of rest) {
    // Fake bold draws the same run twice, a hair apart: keep one copy.
    if (run.text === previous.text && Math.abs(run.x - previous.x) < WORD_GAP_EM * run.fontSize) continue;
    const gap = separator(end, previous, run);
    if (gap === '  ') {
      text = `${text.trimEnd()}  ${run.text.trimStart()}`;
    } else if (gap === ' ' && !/\s$/.test(text) && !/^\s/.test(run.text)) {
      text = `${text} ${run.text}`;
    } else {
      text += run.text;
    }
    previous = run;
    end = Math.max(end, run.x + run.width);
    kept.push(run);
  }
  return { text: text.trim(), kept };
};

/**
 * Rebuilds the lines of one page from its text runs, with where each line sits: runs are grouped
 * by baseline (tolerance relative to font height), lines ordered top to bottom, runs within a line
 * left to right and joined with nothing (same word), one space, or two spaces where the gap is as
 * wide as a table column. Readers downstream split cells on runs of two or more spaces. Blank runs
 * are ignored; the gaps they stood for are measured from positions instead. Text-layer runs and
 * OCR words go through this same function, so a table row reads the same from either.
 */
export const layoutLines = (runs: readonly PlacedText[]): LaidOutLine[] => {
  const visible = runs
    .filter((run) => run.text.trim() !== '')
    .sort((a, b) => (a.y === b.y ? a.x - b.x : a.y - b.y));
  const lines: LaidOutLine[] = [];
  for (const line of groupByBaseline(visible)) {
    const { text, kept } = joinRuns(line.runs);
    if (text === '') continue;
    lines.push({
      text,
      runs: kept,
      left: Math.min(...kept.map((r) => r.x)),
      right: Math.max(...kept.map((r) => r.x + r.width)),
      top: Math.min(...kept.map((r) => r.y - r.fontSize)),
      bottom: Math.max(...kept.map((r) => r.y + r.fontSize / 5)),
    });
  }
  return lines;
};

/** The text of `layoutLines`, line by line. */
export const buildLines = (runs: readonly PlacedText[]): string[] =>
  layoutLines(runs).map((line) => line.text);
