import type { Candidate } from '../candidates.js';
import {
  LABEL_FIELDS,
  type LabelField,
  labelsAtStart,
  labelsIn,
  MONEY_LABEL_FIELDS,
} from '../vocabulary/index.js';
import { endingAmount, headsTable } from './amountColumn.js';
// The value parsers (`values.ts`) and this module both speak of a `Parsed` value: it lives apart so
// that neither imports the other for it.
import type { Parsed } from './parsed.js';
import { headingsSideBySide } from './sideHeadings.js';
import { stackedValueLine } from './stackedLabels.js';
import {
  cellUnder,
  continuesBrokenWord,
  type DocLine,
  type DocText,
  type LineCell,
  nextContentLine,
} from './textIndex.js';
import { statesPaymentTerms } from './values.js';

export type { Parsed };

/**
 * The text before a label is a sentence: two lower-case words, or a word and a lower-case one
 * right before the label ("Rectifica la factura Nº …", "Bezug auf Rechnung …"), perhaps with
 * one-letter words between them ("Rectifica a la factura nº …", "Retifica a fatura n.º …").
 */
const PROSE =
  /(?<!\p{L})\p{Ll}{2,}\s.*(?<!\p{L})\p{Ll}{2,}\s|\p{L}{2,}\s(?:\p{Ll}\s)*(?<!\p{L})\p{Ll}{2,}\s+$|\p{L}{2,}\s(?:\p{Ll}\s)+$/u;

/** How much less a label inside a sentence weighs than one that starts a field. */
const PROSE_DISCOUNT = 0.3;

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
  /** Confidence of a weak label (a vocabulary's `weak` list); default: `confidence` - 0.2. */
  weakConfidence?: number;
  /**
   * The label may follow its clause's number ("1. Project Start Date: July 7, 2025", "2.1 End
   * Date:"), as a contract numbers its clauses. Only for a `string` of labels.
   */
  numbered?: boolean;
}

/** A clause's number before its label: "1.", "2.1", "3)", "(a)", "Art. 2 –", "§ 3". */
const CLAUSE_NUMBER =
  '(?:(?:\\d{1,2}(?:\\.\\d{1,2}){0,2}\\.?|\\d{1,2}\\)|\\(\\w\\)|(?:art\\.|§)\\s*\\d{1,3}\\.?(?:\\s*[-–—])?)\\s+)?';

/** A cell of two labels joined by a slash: "Nummer/Datum", "Invoice No. / Date". */
const PAIRED_LABELS = /^(\p{L}[^/]{0,30}?)\s*\/\s*(\p{L}[^/]{0,30})$/u;

/** A label found in a cell: where it ends, and whether it is a weak one. */
interface FoundLabel {
  start: number;
  end: number;
  weak: boolean;
}

/** A second label after a slash: one the vocabularies know, or words up to a colon. */
const SLASH = /^\s*[/&]\s*/;
const WORDS_TO_COLON = /^\p{L}[\p{L} .-]{0,30}(?=:)/u;

/**
 * Where a label ends that shares its value with a second one after a slash ("Rechnungsdatum /
 * Lieferdatum: 12.04.2024", "Invoice date/Tax point 05/03/2024"): after the second, where the
 * value starts. `end` is where the first label ends.
 */
const sharedLabelEnd = (text: string, end: number): number => {
  const slash = SLASH.exec(text.slice(end));
  if (!slash) return end;
  const rest = text.slice(end + slash[0].length);
  const second = labelsAtStart(rest)[0]?.end ?? WORDS_TO_COLON.exec(rest)?.[0].length;
  return second === undefined ? end : end + slash[0].length + second;
};

/**
 * Finds labels in a cell: at its start, or (`midCell`) inside it. A `string` is a regular
 * expression source of label alternatives (matched with the `i` and `u` flags, so it may use
 * `\p{L}`, as `labelSource` does); a `LabelField` uses every vocabulary's labels for
 * that field, longest label first across all fields (so "Total HT" is never the gross total).
 */
const labelFinder = (labels: string | LabelField, { midCell, numbered }: LabelOptions) => {
  if (isLabelField(labels)) {
    const only = new Set([labels]);
    return {
      atStart: (text: string): FoundLabel | undefined => {
        const m = labelsAtStart(text, only)[0];
        if (!m) return undefined;
        const end = sharedLabelEnd(text, m.end);
        // "Document No.": a label's abbreviation dot may follow what the vocabulary wrote.
        const sep = /^\.?\s*[:#]?\s*/.exec(text.slice(end))?.[0] ?? '';
        return { start: m.start, end: end + sep.length, weak: m.strength === 'weak' };
      },
      inside: (text: string): FoundLabel[] =>
        labelsIn(text, only).flatMap((m) => {
          const sep = (midCell === 'loose' ? /^\.?\s*[:#]?\s*/ : /^\.?\s*[:#]\s*/).exec(
            text.slice(m.end),
          )?.[0];
          return sep === undefined
            ? []
            : [{ start: m.start, end: m.end + sep.length, weak: m.strength === 'weak' }];
        }),
    };
  }
  const atStart = new RegExp(
    `^${numbered ? CLAUSE_NUMBER : ''}(?:${labels})(?![\\p{L}\\p{N}_])\\s*[:#]?\\s*`,
    'iu',
  );
  const inside = new RegExp(
    `(?<![\\p{L}\\p{N}_])(?:${labels})${midCell === 'loose' ? '(?![\\p{L}\\p{N}_])\\s*[:#]?' : '\\s*[:#]'}\\s*`,
    'giu',
  );
  return {
    atStart: (text: string): FoundLabel | undefined => {
      const m = atStart.exec(text);
      return m ? { start: 0, end: m[0].length, weak: false } : undefined;
    },
    inside: (text: string): FoundLabel[] => {
      inside.lastIndex = 0;
      const found: FoundLabel[] = [];
      for (let m = inside.exec(text); m; m = inside.exec(text)) {
        found.push({ start: m.index, end: m.index + m[0].length, weak: false });
      }
      return found;
    },
  };
};

const LABEL_FIELD_NAMES: ReadonlySet<string> = new Set(LABEL_FIELDS);

const isLabelField = (labels: string | LabelField): labels is LabelField => LABEL_FIELD_NAMES.has(labels);

/**
 * A cell that is a label and nothing more ("Invoice #", "Due Date", "Terms:"), of a field that is
 * not money: an item table's header ("Date  Description  Qty  Total") names one such field at most.
 */
const isWholeLabel = (text: string): boolean => {
  const m = labelsAtStart(text)[0];
  return m !== undefined && !MONEY_LABEL_FIELDS.has(m.field) && /^\.?\s*[:#]?\s*$/.test(text.slice(m.end));
};

/**
 * A row of column headings whose values are on the line below ("Invoice #   Date   Due Date
 * Terms" over "SB-4471   04/22/2024   05/22/2024   Net 30"): two or more cells are labels and
 * nothing else, and no cell holds a digit, so none is a value. A heading the vocabularies do not
 * know ("Ship Via", "Rep") may stand among them.
 */
const isHeadingRow = (line: DocLine): boolean =>
  !/\d/.test(line.text) && line.cells.filter((c) => isWholeLabel(c.text)).length >= 2;

/**
 * Finds values written after a label: "Invoice Date: 5 March 2025" in one cell, "Invoice Date"
 * and the value in the next cell of a table row, or (with `below`) the value under the label.
 * `labels` is a regular expression source for the label alternatives (case-insensitive, Unicode).
 */
export const findLabelled = <V>(
  doc: DocText,
  labels: string | LabelField,
  parse: ValueParser<V>,
  options: LabelOptions = {},
): Candidate<V>[] => {
  const base = options.confidence ?? 0.95;
  const weakBase = options.weakConfidence ?? base - 0.2;
  const via = options.via ?? 'label';
  const finder = labelFinder(labels, options);
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
  /** The value of a label that starts a cell: in the cell, in the next cell or (`below`) under it. */
  const readAfterStart = (m: FoundLabel, text: string, ci: number, line: DocLine): void => {
    const strength = m.weak ? weakBase : base;
    const rest = text.slice(m.end).trim();
    const here = rest ? parse(rest, line) : undefined;
    if (here) {
      add(here, strength, line, 'same-cell');
      return;
    }
    // A weak label is a generic word ("Date", "Datum"); followed in its cell by words that are not
    // its value, it is the start of another label ("Date d'échéance", "Datum Lieferung", or one
    // OCR garbled), and the value beside it is that label's.
    if (m.weak && /\p{L}{2}/u.test(rest)) return;
    // A next cell that is itself a label ("From:   To:", "Bill To:   Due Date: ...") is not this
    // label's value: the value is then under the label.
    // A colon standing alone between label and value ("USt.-Id.-Nr.  :  DE123456789") is neither.
    const next = /^[:#]$/.test(line.cells[ci + 1]?.text ?? '') ? line.cells[ci + 2] : line.cells[ci + 1];
    const nextIsLabel = next !== undefined && /^[\p{L}][\p{L}\d .#/-]{0,30}:|:\s*$/u.test(next.text);
    /** The value in the cell under the label's, on the next line that is not furniture. */
    const readUnder = (drop: number, how: string): void => {
      // Labels stacked over stacked values: the value is this label's own among them, or none.
      const stacked = stackedValueLine(doc, line);
      if (stacked) add(parse(stacked.text.trim(), stacked), strength - drop, stacked, 'stacked');
      if (stacked !== undefined) return;
      const below = nextContentLine(doc, line);
      const under = below && cellUnder(below, line.cells[ci] as LineCell);
      if (below && under) add(parse(under.text, below), strength - drop, below, how);
    };
    if (!rest && isHeadingRow(line)) {
      // A generic word ("Date") heading a table's column over rows that end in amounts is a row's.
      if (!(m.weak && headsTable(doc, line))) readUnder(0.07, 'under-heading');
      return;
    }
    // Not a generic word ("DATE   ACTIVITY"), which heads an item table's columns.
    if (!rest && !m.weak && next && headingsSideBySide(doc, line, line.cells[ci] as LineCell, next)) {
      readUnder(0.07, 'under-heading');
      return;
    }
    if (next && !nextIsLabel) {
      // "Rechnungswährung  : EUR": a colon set apart from its label starts the next cell.
      const beside = parse(next.text.replace(/^[:#]\s*/, ''), line);
      if (beside || rest) {
        add(beside, strength - 0.02, line, 'next-cell');
        return;
      }
      // "Invoice Date   Kiwi Web Studio Ltd" over "2 Apr 2024": a form's columns side by side; a
      // label alone in its cell whose neighbour is no value has its value under it. Not a generic
      // word ("Date"), which heads an item table's column as well.
      if (!m.weak) readUnder(0.1, 'under-label');
      return;
    }
    // "88 Congress Ave   Due Date" over "Austin, TX 78701   06/02/2024": a label that ends its
    // line, in a form's column, has its value under it too.
    // A generic word alone on its line over a value alone on the next ("Datum" over "19.04.2025"):
    // a form stacked in one column. In a row of headings it would head a table's column.
    const stacked = line.cells.length === 1 && nextContentLine(doc, line)?.cells.length === 1;
    if (!rest && !next && (!m.weak || stacked) && !options.below) {
      readUnder(0.1, 'under-label');
      return;
    }
    if (options.below && !rest && (!next || nextIsLabel)) {
      const below = nextContentLine(doc, line);
      const target = below && (below.cells.length > ci ? below.cells[ci] : below.cells[0]);
      if (below && target) add(parse(target.text, below), strength - 0.07, below, 'below');
    }
  };
  /**
   * Two labels joined by a slash over two values joined by one ("Nummer/Datum   9000012345 /
   * 03.05.2025", "Invoice No./Date   4711 / 03.05.2025"), as ERP forms print them: each label's
   * value is its part. True where the cell is such a pair.
   */
  const readPaired = (cell: LineCell, ci: number, line: DocLine): boolean => {
    const heads = PAIRED_LABELS.exec(cell.text);
    const values = heads ? line.cells[ci + 1]?.text.split(/\s+\/\s+/) : undefined;
    if (!heads || values?.length !== 2) return false;
    [heads[1], heads[2]].forEach((head, i) => {
      const m = head === undefined ? undefined : finder.atStart(head);
      if (m && head !== undefined && /^\W*$/u.test(head.slice(m.end)))
        add(parse(values[i] as string, line), (m.weak ? weakBase : base) - 0.02, line, 'paired-cell');
    });
    return true;
  };
  for (const line of doc.lines) {
    if (line.furniture && !options.furniture) continue;
    // A row that ends in an amount counts another document in a sum ("Less: Invoice No. 2025-1102
    // dated 10/04/2025   (1,000.00)"): a label inside a cell before the amount names that one.
    const sumRow = options.midCell && line.cells.length > 1 && endingAmount(line) !== undefined;
    line.cells.forEach((cell, ci) => {
      if (readPaired(cell, ci, line)) return;
      const m = continuesBrokenWord(doc, line, ci) ? undefined : finder.atStart(cell.text);
      if (m) readAfterStart(m, cell.text, ci, line);
      if (!options.midCell || (sumRow && ci < line.cells.length - 1)) return;
      // Labels further in the cell too, also after one at its start: a cell may list several
      // registration numbers ("SIRET 123 456 789 00012 - N° TVA FR12..."), and the first label
      // may hold no value or a weaker one.
      for (const inside of finder.inside(cell.text)) {
        if (inside.start === 0 || (m && inside.start < m.end)) continue;
        // A generic word right after another ("Order Date:", "Delivery Date:") ends that label.
        if (inside.weak && /\p{L}\.?\s+$/u.test(cell.text.slice(0, inside.start))) continue;
        const strength = inside.weak ? weakBase : base;
        // A label without a colon inside a sentence ("Bei Schriftwechsel bitte Ihre Kundennummer
        // 35040727 und Belegnummer 2018092011804 angeben") refers to a number, as prose does; it
        // is not a form's field, and weighs no more than the doubt floor.
        // So does one after payment terms in its sentence, colon or not ("Payment due within 30
        // days of invoice date: 19 June 2025"): it names the day the terms count from, and the
        // date after it may be the one they end on.
        const before = cell.text.slice(0, inside.start);
        const inProse =
          PROSE.test(before) &&
          (!/[:#]/.test(cell.text.slice(inside.start, inside.end)) || statesPaymentTerms(before));
        const value = parse(cell.text.slice(inside.end).trim(), line);
        add(value, strength - (inProse ? PROSE_DISCOUNT : 0.05), line, inProse ? 'in-prose' : 'mid-cell');
      }
    });
  }
  return found;
};
