import type { PageImage } from './pageImages.js';

/** A pixel darker than this (0 black, 255 white) can belong to a rule. */
export const RULE_DARKNESS = 140;

/**
 * The rules of a page, in pixels: a line at least `minLength` long and at most `maxThickness`
 * thick (a 300th of the page's shorter side, 6 px at 200 dpi: the stem of a bold letter that long
 * is thicker). Across, a twelfth of the page's width (0.7 inch on A4, 138 px at 200 dpi): the
 * feet of a word in a serif face join into runs as long as the word (75 px in a 12 pt heading at
 * 150 dpi), while a table's rules run across its columns; a rule askew by a degree still shows
 * runs of 171 px through three neighbouring rows. Down, a 40th of its height (58 px): longer
 * than the strokes of any letter under about 30 pt, shorter than the rules between the columns of
 * even a one-row table.
 */
const ruleShape = (width: number, height: number) => ({
  minAcross: Math.max(20, Math.round(width / 12)),
  minDown: Math.max(20, Math.round(height / 40)),
  maxThickness: Math.max(2, Math.round(Math.min(width, height) / 300)),
});

/**
 * Light pixels a run may cross and go on: a scanned rule has holes (noise, JPEG). Two pixels, less
 * than the space between two letters of body text at 150 dpi.
 */
const MAX_GAP = 2;

/** Pixels either side of an erased rule whose grey is taken to be the rule's fringe. */
const HALO = 2;

/**
 * The share of a run's length that must be dark: a scanned rule is whole but for a few holes
 * (97% and more on a JPEG-compressed, noisy scan), while the feet of serif letters, bridged over
 * the gaps between them, leave more of it light.
 */
const MIN_FILL = 0.9;

/** A dark run found along one axis: its lane (row or column) and its extent along the lane. */
interface Run {
  lane: number;
  start: number;
  end: number;
}

/**
 * The rules' runs across the page (lanes are rows) or down it (lanes are columns): dark runs at
 * least `minLength` long and `MIN_FILL` dark, which go on across up to `MAX_GAP` light pixels. A
 * run is followed through its lane and the two lanes beside it: a rule scanned a degree askew
 * steps one pixel sideways every 57, and one lane alone would cut it into runs shorter than a
 * letter. Both directions walk the pixels row by row, in memory order, with each lane's open run
 * kept in typed arrays: a page is 4 million pixels, nearly all of them light and in no run.
 */
const longRuns = (
  dark: Uint8Array,
  darkInRow: Uint32Array,
  width: number,
  height: number,
  across: boolean,
  minLength: number,
): Run[] => {
  const runs: Run[] = [];
  const lanes = across ? height : width;
  const start = new Int32Array(lanes).fill(-1);
  const lastDark = new Int32Array(lanes);
  const filled = new Int32Array(lanes);
  const close = (lane: number) => {
    const from = start[lane] as number;
    const length = (lastDark[lane] as number) + 1 - from;
    if (length >= minLength && (filled[lane] as number) >= MIN_FILL * length) {
      runs.push({ lane, start: from, end: from + length });
    }
    start[lane] = -1;
    open -= 1;
  };
  let open = 0;
  for (let y = 0; y < height; y++) {
    // A row with nothing dark near it starts no run, and ends none that is not already over.
    const near =
      (darkInRow[y] as number) +
      (across
        ? (y > 0 ? (darkInRow[y - 1] as number) : 0) + (y < height - 1 ? (darkInRow[y + 1] as number) : 0)
        : 0);
    if (near === 0 && (across || open === 0)) continue;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const lane = across ? y : x;
      const j = across ? x : y;
      const lit =
        dark[row + x] === 1 ||
        (across
          ? (y > 0 && dark[row - width + x] === 1) || (y < height - 1 && dark[row + width + x] === 1)
          : (x > 0 && dark[row + x - 1] === 1) || (x < width - 1 && dark[row + x + 1] === 1));
      if (lit) {
        if ((start[lane] as number) < 0) {
          start[lane] = j;
          filled[lane] = 0;
          open += 1;
        }
        lastDark[lane] = j;
        filled[lane] = (filled[lane] as number) + 1;
      } else if ((start[lane] as number) >= 0 && j - (lastDark[lane] as number) > MAX_GAP) {
        close(lane);
      }
    }
    if (across && (start[y] as number) >= 0) close(y);
  }
  if (!across) for (let x = 0; x < width; x++) if ((start[x] as number) >= 0) close(x);
  return runs;
};

/**
 * Whitens the rules' pixels: each run's own dark pixels (so a letter beside a rule loses at most
 * the one row next to it; the price is that a skewed rule's ends, a step or two too short a run
 * with their neighbours, stay), where the stack of such pixels across the run is at most
 * `maxThickness`: a thin rule goes, a filled bar or a block of inverted text stays. The rule's
 * grey fringe goes with it (anti-aliasing, blur, JPEG): left, it is a faint dashed line that
 * tesseract binarises into stray marks. A dark pixel there is a letter's and stays.
 */
const eraseRuns = (
  pixels: Uint8Array,
  dark: Uint8Array,
  runs: readonly Run[],
  size: { width: number; height: number },
  across: boolean,
  maxThickness: number,
): void => {
  const { width, height } = size;
  const mask = new Uint8Array(width * height);
  const at = (lane: number, j: number) => (across ? lane * width + j : j * width + lane);
  for (const run of runs) {
    for (let j = run.start; j < run.end; j++) if (dark[at(run.lane, j)] === 1) mask[at(run.lane, j)] = 1;
  }
  // Across the run: down a column for a rule across the page, along a row for one down it.
  const crossLength = across ? height : width;
  const cross = (j: number, k: number) => (across ? k * width + j : j * width + k);
  for (const run of runs) {
    for (let j = run.start; j < run.end; j++) {
      // Each stack once, from its first pixel.
      if (mask[at(run.lane, j)] !== 1 || (run.lane > 0 && mask[cross(j, run.lane - 1)] === 1)) continue;
      let end = run.lane;
      while (end < crossLength && mask[cross(j, end)] === 1) end++;
      if (end - run.lane > maxThickness) continue;
      for (let k = Math.max(0, run.lane - HALO); k < Math.min(crossLength, end + HALO); k++) {
        if (k >= run.lane && k < end) pixels[cross(j, k)] = 255;
        else if ((pixels[cross(j, k)] as number) >= RULE_DARKNESS) pixels[cross(j, k)] = 255;
      }
    }
  }
};

/**
 * The page with its table rules and box borders whitened, for OCR. Tesseract reads a row of text
 * squeezed between two rules as part of a picture or drops it (a scanned invoice lost whole rows
 * of its item and tax tables), and a rule that touches digits merges into them (`46,25 €` read as
 * `46256`). A rule is a long thin run of dark pixels across or down the page (`ruleShape`); where a
 * letter's stroke crosses one, the stroke loses the rule's few pixels. Works in place on the
 * image's pixels and returns it.
 */
export const eraseRules = (image: PageImage): PageImage => {
  const { width, height } = image;
  const pixels = image.pgm.subarray(image.pgm.length - width * height);
  const shape = ruleShape(width, height);
  const dark = new Uint8Array(width * height);
  const darkInRow = new Uint32Array(height);
  for (let y = 0; y < height; y++) {
    let count = 0;
    for (let i = y * width, end = i + width; i < end; i++) {
      if ((pixels[i] as number) < RULE_DARKNESS) {
        dark[i] = 1;
        count += 1;
      }
    }
    darkInRow[y] = count;
  }
  // Both directions are found before either is erased, so a rule's crossing counts for both.
  const across = longRuns(dark, darkInRow, width, height, true, shape.minAcross);
  const down = longRuns(dark, darkInRow, width, height, false, shape.minDown);
  eraseRuns(pixels, dark, across, image, true, shape.maxThickness);
  eraseRuns(pixels, dark, down, image, false, shape.maxThickness);
  return image;
};
