import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { type DocLine, indexText, ocrConfidenceOf } from '../../lambdas/extract/text/textIndex.js';
import type { PdfText } from '../../lambdas/shared/pdfText.js';

const box = { x: 0.1, y: 0.1, width: 0.5, height: 0.02 };

/**
 * An OCR page of one line per entry: the line's words (joined with one space, cells with two, as
 * `layoutLines` joins them) and each word's confidence.
 */
const ocrPage = (...lines: [word: string, confidence: number][][][]): PdfText => ({
  pageCount: 1,
  origin: 'ocr',
  pages: [
    {
      page: 1,
      lines: lines.map((cells) => cells.map((cell) => cell.map(([word]) => word).join(' ')).join('  ')),
      geometry: lines.map((cells) => {
        const words = cells.flat().map(([text, confidence]) => ({ text, box, confidence }));
        return { box, confidence: Math.min(...words.map((word) => word.confidence)), words };
      }),
    },
  ],
});

const onlyLine = (text: PdfText): DocLine => indexText(text).lines[0] as DocLine;

describe("ocrConfidenceOf: OCR's confidence in the words that print a value", () => {
  it("takes the value's cell, not a speck of a logo read as a word at the start of the row", () => {
    // Prepare
    const line = onlyLine(
      ocrPage([
        [['HiEN', 0.21]],
        [
          ['TVA:', 0.93],
          ['FR11999999998', 0.91],
          ['-', 0.9],
          ['SIRET', 0.89],
        ],
      ]),
    );

    // Act
    const confidence = ocrConfidenceOf(line, '"FR11999999998"');

    // Assess: the cell's weakest word that is not a separator
    expect(line.ocrConfidence).toBe(0.21);
    expect(confidence).toBe(0.89);
  });

  it('finds an amount and a date in the form they are printed in', () => {
    // Prepare
    const line = onlyLine(
      ocrPage([
        [['Fällig', 0.4]],
        [['13/11/2017', 0.88]],
        [['Total', 0.3]],
        [
          ['1.234,56', 0.86],
          ['€', 0.8],
        ],
      ]),
    );

    // Act
    const amount = ocrConfidenceOf(line, '"1234.56"');
    const date = ocrConfidenceOf(line, '"2017-11-13"');

    // Assess
    expect(amount).toBe(0.8);
    expect(date).toBe(0.88);
  });

  it("leaves out a label's colon or a table's bar read apart from the value", () => {
    // Prepare
    const line = onlyLine(
      ocrPage([
        [['Rechnungswährung', 0.91]],
        [
          [':', 0.6],
          ['EUR', 0.96],
          ['|', 0.3],
        ],
      ]),
    );

    // Act
    const confidence = ocrConfidenceOf(line, '"EUR"');

    // Assess
    expect(confidence).toBe(0.96);
  });

  it("stays with a value's own weak word", () => {
    // Prepare: the table rule merged into the digits
    const line = onlyLine(
      ocrPage([
        [
          ['Total', 0.95],
          ['taxes', 0.94],
        ],
        [['46256', 0.42]],
      ]),
    );

    // Act
    const confidence = ocrConfidenceOf(line, '"46256"');

    // Assess
    expect(confidence).toBe(0.42);
  });

  it('falls back to the whole line when no one cell prints the value, or every cell does', () => {
    // Prepare: a name over two cells; an amount in two cells of one row
    const name = onlyLine(
      ocrPage([
        [
          ['Au', 0.9],
          ['bon', 0.9],
        ],
        [['moulin', 0.35]],
        [['SARL', 0.9]],
      ]),
    );
    const twice = onlyLine(ocrPage([[['81,90', 0.95]], [['16,38', 0.5]], [['81,90', 0.6]]]));

    // Act
    const split = ocrConfidenceOf(name, '"Au bon moulin SARL"');
    const repeated = ocrConfidenceOf(twice, '"81.90"');

    // Assess: the whole line's weakest word; the weaker of the two cells that print it
    expect(split).toBe(0.35);
    expect(repeated).toBe(0.6);
  });

  it('is undefined for a text layer', () => {
    // Prepare
    const line = onlyLine({ pageCount: 1, pages: [{ page: 1, lines: ['Total  671,15 €'] }] });

    // Act
    const confidence = ocrConfidenceOf(line, '"671.15"');

    // Assess
    expect(confidence).toBeUndefined();
  });

  it("scales a field's confidence by its own words, not by the other column of its row", async () => {
    // Prepare: the total's row also holds a smudge of the other column
    const text = ocrPage(
      [
        [
          ['Invoice', 0.95],
          ['INV-2291', 0.95],
        ],
      ],
      [
        [
          ['Date:', 0.95],
          ['2024-03-05', 0.95],
        ],
      ],
      [
        [
          ['Total', 0.95],
          ['due:', 0.95],
          ['1,250.00', 0.95],
        ],
        [['~ie', 0.2]],
      ],
    );

    // Act
    const extraction = await new HeuristicExtractor().extract(text);

    // Assess
    const total = (
      extraction.fields as Record<string, { value: unknown; evidence: { kind: string; weight: number }[] }>
    ).total;
    expect(total?.value).toBe('1250.00');
    expect(total?.evidence.find((e) => e.kind === 'ocr')?.weight).toBe(1);
  });
});
