import { describe, expect, it } from 'vitest';
import type { PageImage } from '../../lambdas/ocr/tesseract/pageImages.js';
import { eraseRules } from '../../lambdas/ocr/tesseract/ruleLines.js';

/** A white A4 page at 200 dpi as the renderer hands it to OCR: PGM header, then one byte a pixel. */
const blankPage = (width = 1654, height = 2339): PageImage => {
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const pgm = new Uint8Array(header.length + width * height).fill(255);
  pgm.set(header);
  return { page: 1, width, height, pgm };
};

const pixelsOf = (image: PageImage) => image.pgm.subarray(image.pgm.length - image.width * image.height);

/** Paints the box [x0, x1) x [y0, y1) with `value` (0 black). */
const paint = (image: PageImage, x0: number, y0: number, x1: number, y1: number, value = 0): void => {
  const pixels = pixelsOf(image);
  for (let y = y0; y < y1; y++) pixels.fill(value, y * image.width + x0, y * image.width + x1);
};

/** Dark pixels in the box [x0, x1) x [y0, y1). */
const darkIn = (image: PageImage, x0: number, y0: number, x1: number, y1: number): number => {
  const pixels = pixelsOf(image);
  let dark = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) if ((pixels[y * image.width + x] as number) < 128) dark++;
  return dark;
};

describe('eraseRules: table rules whitened before OCR, letters kept', () => {
  it('erases thin rules across and down the page', () => {
    // Prepare: a table's rule across (2 px, 1,200 long) and a column rule down (2 px, 400 long)
    const image = blankPage();
    paint(image, 200, 500, 1400, 502);
    paint(image, 700, 300, 702, 700);

    // Act
    eraseRules(image);

    // Assess
    expect(darkIn(image, 0, 0, image.width, image.height)).toBe(0);
  });

  it('erases a rule scanned a degree askew, with holes in it', () => {
    // Prepare: 1 px thick, one pixel lower every 57 (no row holds a run as long as a rule), a 2 px
    // hole every 40
    const image = blankPage();
    for (let x = 200; x < 1400; x++) {
      if (x % 40 < 2) continue;
      const y = 500 + Math.floor((x - 200) / 57);
      paint(image, x, y, x + 1, y + 1);
    }

    // Act
    eraseRules(image);

    // Assess: all but its ends, where fewer than three steps are too short a run to tell from a
    // letter's (the first step; the last two, the last being 3 px long)
    expect(darkIn(image, 200 + 57, 0, 1400 - 2 * 57, image.height)).toBe(0);
  });

  it('keeps a filled bar, as under a header of white letters', () => {
    // Prepare: 30 px thick, 1,200 long
    const image = blankPage();
    paint(image, 200, 500, 1400, 530);

    // Act
    eraseRules(image);

    // Assess
    expect(darkIn(image, 200, 500, 1400, 530)).toBe(1200 * 30);
  });

  it("keeps the strokes of letters, a 24 pt title's and dotted leaders", () => {
    // Prepare: a body-text stem (3 x 22) and bar (18 x 3); a 24 pt title's stem (7 x 48) and
    // bar (40 x 7); a leader of 3 px dots, 6 px apart, 600 px long; the feet of a long word in a
    // serif face, 9 px each, 2 px apart, 300 px along its baseline
    const image = blankPage();
    for (let x = 200; x < 500; x += 11) paint(image, x, 400, x + 9, 402);
    paint(image, 100, 100, 103, 122);
    paint(image, 100, 100, 118, 103);
    paint(image, 300, 100, 307, 148);
    paint(image, 300, 100, 340, 107);
    for (let x = 200; x < 800; x += 9) paint(image, x, 300, x + 3, 303);
    const before = darkIn(image, 0, 0, image.width, image.height);

    // Act
    eraseRules(image);

    // Assess
    expect(darkIn(image, 0, 0, image.width, image.height)).toBe(before);
  });

  it('leaves the parts of a letter above and below a rule that crosses it', () => {
    // Prepare: a stem from 480 to 520 crossed by a 2 px rule at 500
    const image = blankPage();
    paint(image, 400, 480, 403, 520);
    paint(image, 200, 500, 1400, 502);

    // Act
    eraseRules(image);

    // Assess: the stem loses the rule's rows and one row either side, nothing more
    expect(darkIn(image, 400, 480, 403, 499)).toBe(3 * 19);
    expect(darkIn(image, 400, 499, 403, 503)).toBe(0);
    expect(darkIn(image, 400, 503, 403, 520)).toBe(3 * 17);
    expect(darkIn(image, 0, 500, image.width, 502)).toBe(0);
  });
});
