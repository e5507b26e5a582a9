import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import type { TextSource } from './api.js';
import type { Piece } from './valueBox.js';

/** A line of a page's text: its text, its box in PDF units [x1, y1, x2, y2], and its items'. */
export interface TextLine {
  text: string;
  box: [number, number, number, number];
  /** The pdf.js items of the line, left to right, each with its box: where a value sits in it. */
  pieces: Piece[];
}

/**
 * Groups pdf.js text items into lines by baseline, top to bottom, left to right: the same reading
 * the parse stage numbers its lines by, so a field's `source` can be found again on the page.
 */
export const groupLines = (items: readonly TextItem[]): TextLine[] => {
  const rows: { y: number; items: TextItem[] }[] = [];
  for (const item of items) {
    if (item.str.trim() === '') continue;
    const y = item.transform[5] ?? 0;
    const tolerance = Math.max(2, (item.height || 10) * 0.4);
    const row = rows.find((r) => Math.abs(r.y - y) <= tolerance);
    if (row) row.items.push(item);
    else rows.push({ y, items: [item] });
  }
  return rows
    .sort((a, b) => b.y - a.y)
    .map((row) => {
      const sorted = row.items.sort((a, b) => (a.transform[4] ?? 0) - (b.transform[4] ?? 0));
      const x1 = Math.min(...sorted.map((i) => i.transform[4] ?? 0));
      const x2 = Math.max(...sorted.map((i) => (i.transform[4] ?? 0) + i.width));
      const height = Math.max(
        ...sorted.map((i) => i.height || Math.hypot(i.transform[2] ?? 0, i.transform[3] ?? 0)),
      );
      const baseline = Math.min(...sorted.map((i) => i.transform[5] ?? 0));
      const bottom = baseline - height * 0.25;
      const top = baseline + height;
      return {
        text: sorted.map((i) => i.str).join(' '),
        box: [x1, bottom, x2, top] as [number, number, number, number],
        pieces: sorted.map((i) => ({
          text: i.str,
          box: [i.transform[4] ?? 0, bottom, (i.transform[4] ?? 0) + i.width, top] as Piece['box'],
        })),
      };
    });
};

const squash = (text: string) => text.toLowerCase().replace(/\s+/g, '');

const bigrams = (text: string): Map<string, number> => {
  const counts = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
};

/** Dice similarity of two strings' character pairs, 0-1. */
export const similarity = (a: string, b: string): number => {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const left = bigrams(a);
  let shared = 0;
  for (const [pair, count] of bigrams(b)) shared += Math.min(count, left.get(pair) ?? 0);
  return (2 * shared) / (a.length - 1 + b.length - 1);
};

/**
 * The line a field was read from: the most similar text (spacing ignored), the line number
 * breaking ties; `undefined` when nothing on the page resembles it.
 */
export const bestLine = (lines: readonly TextLine[], source: TextSource): TextLine | undefined => {
  const wanted = squash(source.text);
  let best: { line: TextLine; score: number } | undefined;
  lines.forEach((line, index) => {
    const text = squash(line.text);
    let score = similarity(text, wanted);
    if (text.includes(wanted) || wanted.includes(text)) {
      score = Math.max(
        score,
        0.6 + 0.4 * (Math.min(text.length, wanted.length) / Math.max(text.length, wanted.length, 1)),
      );
    }
    if (index === source.line - 1) score += 0.05;
    if (!best || score > best.score) best = { line, score };
  });
  return best && best.score >= 0.5 ? best.line : undefined;
};
