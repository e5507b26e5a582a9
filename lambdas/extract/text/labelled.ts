import type { Candidate } from '../candidates.js';
import type { DocLine, DocText } from './textIndex.js';

/** A parsed value and, when the text reads two ways, the other readings. */
export interface Parsed<V> {
  value: V;
  alternatives?: V[];
  /** Multiplies the finder's confidence (below 1 when the text was hard to read). */
  certainty?: number;
}

/** Reads a value from the text that follows a label. */
export type ValueParser<V> = (text: string, line: DocLine) => Parsed<V> | undefined;

/** How to look for a labelled value. */
export interface LabelOptions {
  /** Confidence of a value in the label's own cell or the next cell. */
  confidence?: number;
  /** Also read the value from the line below the label (forms with the value under the label). */
  below?: boolean;
  /**
   * Also find the label inside a cell, not only at its start: `colon` needs "Label:" (any value
   * reader), `loose` does not (for strict readers such as identifiers: "Agreement - Ref. X").
   */
  midCell?: 'colon' | 'loose';
  /** Search running headers and footers too. */
  furniture?: boolean;
  /** Name for `Candidate.via`. */
  via?: string;
}

const nextContentLine = (doc: DocText, line: DocLine): DocLine | undefined => {
  for (let i = line.index + 1; i < doc.lines.length && i <= line.index + 3; i++) {
    const next = doc.lines[i] as DocLine;
    if (!next.furniture) return next.page === line.page ? next : undefined;
  }
  return undefined;
};

/**
 * Finds values written after a label: "Invoice Date: 5 March 2025" in one cell, "Invoice Date"
 * and the value in the next cell of a table row, or (with `below`) the value under the label.
 * `labels` is a regular expression source for the label alternatives (case-insensitive).
 */
export const findLabelled = <V>(
  doc: DocText,
  labels: string,
  parse: ValueParser<V>,
  options: LabelOptions = {},
): Candidate<V>[] => {
  const base = options.confidence ?? 0.95;
  const via = options.via ?? 'label';
  const atStart = new RegExp(`^(?:${labels})(?![\\w])\\s*[:#]?\\s*`, 'i');
  const inside = new RegExp(
    `(?<![\\w])(?:${labels})${options.midCell === 'loose' ? '(?![\\w])\\s*[:#]?' : '\\s*[:#]'}\\s*`,
    'gi',
  );
  const found: Candidate<V>[] = [];
  const add = (parsed: Parsed<V> | undefined, confidence: number, line: DocLine, how: string) => {
    if (!parsed) return;
    found.push({
      value: parsed.value,
      confidence: confidence * (parsed.certainty ?? 1),
      line,
      ...(parsed.alternatives?.length ? { alternatives: parsed.alternatives } : {}),
      via: `${via}:${how}`,
    });
  };
  for (const line of doc.lines) {
    if (line.furniture && !options.furniture) continue;
    line.cells.forEach((cell, ci) => {
      const m = atStart.exec(cell.text);
      if (m) {
        const rest = cell.text.slice(m[0].length).trim();
        const here = rest ? parse(rest, line) : undefined;
        if (here) {
          add(here, base, line, 'same-cell');
          return;
        }
        // A next cell that is itself a label ("From:   To:", "Bill To:   Due Date: ...") is not this
        // label's value: the value is then under the label.
        const next = line.cells[ci + 1];
        const nextIsLabel = next !== undefined && /^[A-Za-z][\w .#/-]{0,30}:|:\s*$/.test(next.text);
        if (next && !nextIsLabel) {
          add(parse(next.text, line), base - 0.02, line, 'next-cell');
          return;
        }
        if (options.below && !rest && (!next || nextIsLabel)) {
          const below = nextContentLine(doc, line);
          const target = below && (below.cells.length > ci ? below.cells[ci] : below.cells[0]);
          if (below && target) add(parse(target.text, below), base - 0.07, below, 'below');
        }
        return;
      }
      if (!options.midCell) return;
      inside.lastIndex = 0;
      for (let mm = inside.exec(cell.text); mm; mm = inside.exec(cell.text)) {
        if (mm.index === 0) continue;
        add(parse(cell.text.slice(mm.index + mm[0].length).trim(), line), base - 0.05, line, 'mid-cell');
      }
    });
  }
  return found;
};
