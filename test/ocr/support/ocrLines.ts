import type { RecognizedLine } from '../../../lambdas/ocr/tesseract/wordPlacement.js';

/** The page width the lines below are placed on: an A4 page at 200 dpi. */
export const OCR_FIXTURE_PAGE_WIDTH = 1654;

type Word = RecognizedLine['words'][number];

/** A word as tesseract gives it: its box from x0 (12 px a letter) and from y0 to y1, 90% sure. */
export const ocrWord = (text: string, x0: number, y0: number, y1: number): Word => ({
  text,
  confidence: 90,
  bbox: { x0, y0, x1: x0 + 12 * text.length, y1 },
});

/**
 * A level line as tesseract gives it, on baseline `y`: its box spans its words, its row height is
 * 20 px with 5 of descenders, unless `shape` says otherwise.
 */
export const ocrLine = (
  y: number,
  words: Word[],
  shape: {
    bbox?: { y0: number; y1: number };
    baseline?: RecognizedLine['baseline'];
    rowAttributes?: RecognizedLine['rowAttributes'];
  } = {},
): RecognizedLine => {
  const x0 = Math.min(...words.map((word) => word.bbox.x0));
  const x1 = Math.max(...words.map((word) => word.bbox.x1));
  return {
    words,
    bbox: {
      x0,
      x1,
      y0: shape.bbox?.y0 ?? Math.min(...words.map((word) => word.bbox.y0)),
      y1: shape.bbox?.y1 ?? Math.max(...words.map((word) => word.bbox.y1)),
    },
    baseline: shape.baseline ?? { x0, y0: y, x1, y1: y },
    rowAttributes: shape.rowAttributes ?? { rowHeight: 20, descenders: 5 },
  };
};
