import { describe, expect, it } from 'vitest';
import { placeWords } from '../../lambdas/ocr/tesseract/wordPlacement.js';
import { layoutLines } from '../../lambdas/parse/buildLines.js';
import { OCR_FIXTURE_PAGE_WIDTH, ocrLine, ocrWord } from './support/ocrLines.js';

const texts = (lines: ReturnType<typeof ocrLine>[]) =>
  layoutLines(placeWords(lines, OCR_FIXTURE_PAGE_WIDTH)).map((line) => line.text);

describe('placeWords: tesseract words on the baselines they sit on', () => {
  it('keeps two rows apart when tesseract put the words of the second into the first line', () => {
    // Prepare: the first line (baseline 415) also holds "35 rue", whose boxes end at 447, where
    // the second line's baseline is; its box spans both rows (tesseract's merged address block)
    const lines = [
      ocrLine(
        415,
        [
          ocrWord('Ma', 104, 395, 415),
          ocrWord('jolie', 150, 395, 421),
          ocrWord('35', 104, 427, 447),
          ocrWord('rue', 140, 432, 447),
        ],
        {
          bbox: { y0: 372, y1: 452 },
        },
      ),
      ocrLine(447, [ocrWord('de', 190, 427, 447), ocrWord('la', 230, 427, 447)]),
    ];

    // Act
    const read = texts(lines);

    // Assess
    expect(read).toEqual(['Ma jolie', '35 rue de la']);
  });

  it('takes a word wholly below its line, with no line of its own, at its own box', () => {
    // Prepare
    const lines = [ocrLine(415, [ocrWord('Ma', 104, 395, 415), ocrWord('Lyon', 104, 460, 480)])];

    // Act
    const read = texts(lines);

    // Assess
    expect(read).toEqual(['Ma', 'Lyon']);
  });

  it('takes a word standing below its line baseline, with no line of its own, at its own box', () => {
    // Prepare: two address blocks side by side, the left one half a row lower (as read from a
    // real scan). Tesseract's second line has the right block's baseline (433); the left block's
    // "42 rue du stade" ends at 447, on no line's baseline, its box overlapping the row
    const lines = [
      ocrLine(
        415,
        [ocrWord('Hôtel', 104, 395, 415), ocrWord('Saint', 176, 395, 415), ocrWord('Denis', 248, 395, 415)],
        { rowAttributes: { rowHeight: 42, descenders: 8 } },
      ),
      ocrLine(
        433,
        [
          ocrWord('42', 103, 427, 447),
          ocrWord('rue', 143, 432, 447),
          ocrWord('du', 189, 427, 447),
          ocrWord('stade', 228, 427, 447),
          ocrWord('Stéphanie', 908, 411, 439),
          ocrWord('Hoarau', 1054, 411, 433),
        ],
        { rowAttributes: { rowHeight: 28, descenders: 6 } },
      ),
    ];

    // Act
    const read = texts(lines);

    // Assess: the left block's rows stay apart (the right block, half a row higher, joins the first)
    expect(read).toContain('42 rue du stade');
    expect(read[0]).toMatch(/^Hôtel Saint Denis {2}/);
  });

  it('leaves on its line a word whose box overlaps the row, as a logo read as letters does', () => {
    // Prepare: "QS" from a picture ends 17 px under the baseline, past a descender's reach, yet its box overlaps the row
    const lines = [
      ocrLine(108, [ocrWord('QS', 20, 88, 125), ocrWord('Au', 116, 92, 108), ocrWord('bon', 150, 92, 108)]),
    ];

    // Act
    const read = texts(lines);

    // Assess
    expect(read).toEqual(['QS  Au bon']);
  });

  it('keeps a long word on its skewed line, though its box ends nearer the next line under its middle', () => {
    // Prepare: a scan two degrees askew (baselines drop 3.5 px per 100); the 427 px word's box
    // ends 10 px under its baseline's low end, 17 under its middle, 13 above the next baseline
    const label = {
      text: 'Käufer/Leistungsempfänger:',
      confidence: 90,
      bbox: { x0: 140, y0: 1098, x1: 567, y1: 1145 },
    };
    const lines = [
      ocrLine(0, [label], { baseline: { x0: 140, y0: 1120, x1: 567, y1: 1135 } }),
      ocrLine(0, [ocrWord('Nummer', 141, 1134, 1154), ocrWord('GE2020211', 300, 1143, 1166)], {
        baseline: { x0: 141, y0: 1151, x1: 552, y1: 1166 },
      }),
    ];

    // Act
    const read = texts(lines);

    // Assess
    expect(read).toEqual(['Käufer/Leistungsempfänger:', 'Nummer  GE2020211']);
  });

  it("sizes a word by its line's row height, not by a box that spans two rows", () => {
    // Prepare
    const line = ocrLine(415, [ocrWord('Ma', 104, 395, 415)], {
      bbox: { y0: 372, y1: 452 },
      rowAttributes: { rowHeight: 27, descenders: 7 },
    });

    // Act
    const [placed] = placeWords([line], OCR_FIXTURE_PAGE_WIDTH);

    // Assess
    expect(placed?.fontSize).toBe(34);
  });
});
