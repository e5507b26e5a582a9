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

/** How one axis of the page is walked: `lanes` rows (or columns) of `length` pixels. */
interface Axis {
  lanes: number;
  length: number;
  /** Index step from one lane to the next, and from one pixel to the next along a lane. */
  laneStep: number;
  step: number;
}

/**
 * Marks the dark pixels of runs at least `minLength` long along `axis`. A run is followed through
 * its lane and the two lanes beside it: a rule scanned a degree askew steps one pixel sideways
 * every 57, and one lane alone would cut it into runs shorter than a letter. Only the lane's own
 * dark pixels are marked, so a letter beside a rule loses at most the one row next to it; the
 * price is that a skewed rule's ends, a step or two too short a run with their neighbours, stay.
 */
const markLongRuns = (pixels: Uint8Array, axis: Axis, minLength: number, mask: Uint8Array): void => {
  const { lanes, length, laneStep, step } = axis;
  for (let i = 0; i < lanes; i++) {
    const base = i * laneStep;
    const before = i > 0 ? base - laneStep : -1;
    const after = i < lanes - 1 ? base + laneStep : -1;
    let start = -1;
    let lastDark = -1;
    let filled = 0;
    for (let j = 0; j <= length; j++) {
      const at = j * step;
      const dark =
        j < length &&
        ((pixels[base + at] as number) < RULE_DARKNESS ||
          (before >= 0 && (pixels[before + at] as number) < RULE_DARKNESS) ||
          (after >= 0 && (pixels[after + at] as number) < RULE_DARKNESS));
      if (dark) {
        if (start < 0) {
          start = j;
          filled = 0;
        }
        lastDark = j;
        filled += 1;
      } else if (start >= 0 && (j - lastDark > MAX_GAP || j === length)) {
        const runLength = lastDark + 1 - start;
        if (runLength >= minLength && filled >= MIN_FILL * runLength) {
          for (let k = start; k <= lastDark; k++) {
            if ((pixels[base + k * step] as number) < RULE_DARKNESS) mask[base + k * step] = 1;
          }
        }
        start = -1;
      }
    }
  }
};

/**
 * Whitens the marked pixels whose marked stack along `axis` is at most `maxThickness` long: a thin
 * rule goes, a filled bar or a block of inverted text stays.
 */
const eraseThin = (pixels: Uint8Array, mask: Uint8Array, axis: Axis, maxThickness: number): void => {
  const { lanes, length, laneStep, step } = axis;
  for (let i = 0; i < lanes; i++) {
    const base = i * laneStep;
    let start = -1;
    for (let j = 0; j <= length; j++) {
      const marked = j < length && mask[base + j * step] === 1;
      if (marked && start < 0) start = j;
      if (!marked && start >= 0) {
        if (j - start <= maxThickness) {
          for (let k = start; k < j; k++) pixels[base + k * step] = 255;
          // The rule's grey fringe (anti-aliasing, blur, JPEG) goes with it: left, it is a faint
          // dashed line that tesseract binarises into stray marks. A dark pixel there is a
          // letter's and stays.
          for (let k = Math.max(0, start - HALO); k < Math.min(length, j + HALO); k++) {
            if ((pixels[base + k * step] as number) >= RULE_DARKNESS) pixels[base + k * step] = 255;
          }
        }
        start = -1;
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
  const rows: Axis = { lanes: height, length: width, laneStep: width, step: 1 };
  const columns: Axis = { lanes: width, length: height, laneStep: 1, step: width };
  const across = new Uint8Array(width * height);
  const down = new Uint8Array(width * height);
  markLongRuns(pixels, rows, shape.minAcross, across);
  markLongRuns(pixels, columns, shape.minDown, down);
  // Thickness is measured across each run: down the columns for rules across, and back.
  eraseThin(pixels, across, columns, shape.maxThickness);
  eraseThin(pixels, down, rows, shape.maxThickness);
  return image;
};
