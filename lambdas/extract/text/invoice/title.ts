import type { Candidate } from '../../candidates.js';
import {
  documentTypeCue,
  IDENTIFIER_LABEL_FIELDS,
  type LabelField,
  labelsAtStart,
  labelsIn,
  TITLE_DATE_LINK_PATTERN,
  TITLE_ISSUER_LINK,
  TRANSLATION_SLASH,
} from '../../vocabulary/index.js';
import { endingAmount } from '../amountColumn.js';
import type { FinderContext } from '../context.js';
import { type FoundDate, findDates, TIME_OF_DAY } from '../parseDate.js';
import { cellAt, cellUnder, type DocLine, type LineCell, nextContentLine, overlap } from '../textIndex.js';
import { dateValue, NUMBER_MARK, parseId } from '../values.js';

/**
 * The title of an invoice, in any language: "Invoice INV-42", "Rechnung Nr. 471102 vom
 * 05.03.2018", "Mietrechnung Nr. 9314110911/00/M/00/N vom 01.10.2018", "Rechnung des Versicherers
 * Nr. 01.234.567.8-2018-1 vom" + the date on the next line, "Facture FA-2017-0010", "Avoir
 * AV-2017-0005", "Gutschrift (Selbst ausgestellte Rechnung) Nr. 471102". It names the kind of
 * document (a credit note or an invoice), often its number, sometimes its date.
 */

/** What a title says. */
export interface TitleCandidates {
  invoiceNumber: Candidate<string>[];
  invoiceDate: Candidate<string>[];
  kind: Candidate<'invoice' | 'credit_note'>[];
  /** A credit note's title starts a line: an invoice the document names is the one it credits. */
  creditNote: boolean;
}

/** A one- or two-digit number standing alone ("n. 31 del", "Nr. 7"). */
const SHORT_NUMBER = /^([1-9]\d?)(?=$|\s|[,;)])/;
/** A number shaped like a date, standing alone ("12/06/2024"). */
const DATE_SHAPED_NUMBER = /^(\d{1,3}\/\d{1,2}\/\d{2,4})(?=$|\s|[,;)])/;
/** A parenthesis right after the title word: "Gutschrift (Selbst ausgestellte Rechnung) Nr. 1". */
const PARENTHESIS = /^\s*\([^)]{0,60}\)/u;
/** One word between the title word and its number mark: "des", "Versicherers", "of". */
const QUALIFIER = /^\s+[\p{L}.'’-]+/u;
/** A capital letter alone after the title word: the invoice's class ("FACTURA A", as Argentina's AFIP prints it). */
const CLASS_LETTER = /^\s+\p{Lu}$/u;
/** Most qualifying words between the title word and its number mark. */
const MAX_QUALIFIERS = 3;
/** Lines from the top of a page where a title may stand. */
const TITLE_LINES = 25;

/**
 * Where the number may start after the title word, nearest first: right after it, then after a
 * parenthesis and each of up to three words that name the issuer ("Rechnung des Versicherers
 * Nr.") or a class letter ("FACTURA A Nº"). Every length is tried: the number mark decides which
 * one reads. Words that start with anything but an issuer link ("Beitragsrechnung zur
 * Kraftfahrtversicherung Nr.", "Invoice for policy No.") name what the number belongs to, so
 * they are never skipped.
 */
const skipsAfter = (after: string): number[] => {
  const skips = [0];
  let at = PARENTHESIS.exec(after)?.[0].length ?? 0;
  if (at > 0) skips.push(at);
  for (let word = 0; word < MAX_QUALIFIERS; word++) {
    const next = QUALIFIER.exec(after.slice(at));
    if (!next || (word === 0 && !TITLE_ISSUER_LINK.test(next[0].trim()) && !CLASS_LETTER.test(next[0])))
      break;
    at += next[0].length;
    skips.push(at);
  }
  return skips;
};

/** One to three words in capitals and nothing else: a heading's words, not a sentence's. */
const CAPITALISED_WORDS = /^(?:\s+[\p{Lu}'’-]+){1,3}\s*$/u;

/**
 * Whether a title, `title` from its title word (`length` long) to its cell's or line's end, stands
 * alone: nothing after the word, or a qualifier in capitals after a word in capitals ("FACTURE DE
 * RÉGULARISATION", "INVOICE FOR SERVICES"), unless word and qualifier are a label ("INVOICE TO",
 * "RECHNUNG AN").
 */
const titleAlone = (title: string, length: number): boolean => {
  const rest = title.slice(length);
  return (
    rest.trim() === '' ||
    (CAPITALISED_WORDS.test(rest) &&
      !/\p{Ll}/u.test(title.slice(0, length)) &&
      labelsAtStart(title).length === 0)
  );
};

/** Identifiers whose label, between the title word and a number, makes that number not the invoice's. */
const OTHER_NUMBERS: ReadonlySet<LabelField> = new Set(
  [...IDENTIFIER_LABEL_FIELDS].filter((field) => field !== 'invoiceNumber'),
);

/**
 * The number after a title word: where it ends, and whether a mark stands before it (`marked`: a
 * colon or a number mark) or a number mark does (`numberMark`: "Nr.", "No.", "#").
 */
const numberAfter = (
  after: string,
): { id: string; end: number; marked: boolean; numberMark: boolean } | undefined => {
  for (const skip of skipsAfter(after)) {
    const rest = after.slice(skip).replace(/^\s+/, '');
    // "Invoice: 10442": right after the title word, a colon marks its number as "No." does.
    const mark = NUMBER_MARK.exec(rest)?.[0] ?? (skip === 0 ? /^:\s*/.exec(rest)?.[0] : undefined) ?? '';
    // Without a number mark the number must follow the title word directly ("Facture FA-2017-0010").
    if (skip > 0 && !mark) continue;
    const start = after.length - rest.length + mark.length;
    // "Rechnung des Kunden Nr. 4711": the words and mark label another number, not this one's.
    if (skip > 0 && labelsIn(after.slice(0, start), OTHER_NUMBERS).length > 0) continue;
    const tail = rest.slice(mark.length);
    // A small business numbers its invoices from 1: "Fattura n. 31 del 11/04/2024", "Rechnung Nr. 7".
    // Two digits are a number only after a mark that says so.
    // After a mark that says "number", a number shaped like a date is the number: Polish invoices
    // number theirs per month ("FAKTURA nr 12/06/2024").
    const numberMark = mark !== '' && !mark.startsWith(':');
    const id =
      parseId(tail)?.value ??
      (numberMark ? (DATE_SHAPED_NUMBER.exec(tail)?.[1] ?? SHORT_NUMBER.exec(tail)?.[1]) : undefined);
    if (!id) continue;
    return { id, end: start + tail.indexOf(id) + id.length, marked: mark !== '', numberMark };
  }
  return undefined;
};

/** A word that joins a title to its date ("vom", "du", "del", "dated"), any language. */
const TITLE_DATE_LINK = new RegExp(`^\\s*${TITLE_DATE_LINK_PATTERN}\\s*:?\\s*`, 'iu');

/** The invoice date's label: "Invoice Date" starts with a title word and goes on with a link word. */
const DATE_LABEL: ReadonlySet<LabelField> = new Set<LabelField>(['invoiceDate']);

/** Nothing, or the time of day a till prints after its date ("20.05.2025 12:41", "14:03:27"). */
const CLOCK_TIME = new RegExp(`^\\s*(?:${TIME_OF_DAY}\\s*)?$`);

/**
 * The date a title without a number is joined to, alone on its line or before another cell:
 * "Facture du 12 juin 2024", "Rechnung vom 03.06.2024", "Invoice dated 5 June 2024". Not the
 * date an invoice date's label gives ("Invoice Date  Jul 8, 2026"): that line is no title.
 */
const linkedDate = (ctx: FinderContext, title: string, after: string) => {
  if (labelsAtStart(title, DATE_LABEL)[0]?.start === 0) return undefined;
  const link = TITLE_DATE_LINK.exec(after);
  const rest = link ? after.slice(link[0].length) : '';
  const date = link ? findDates(rest, ctx.order, ctx.language)[0] : undefined;
  return date?.start === 0 && /^(?:\s*$|\s{2,})/.test(rest.slice(date.end)) ? date : undefined;
};

/** The date joined to the title's number: "vom 05.03.2018" on the same line or starting the next. */
const dateAfter = (ctx: FinderContext, tail: string, next: DocLine | undefined) => {
  // On the title's line a separator joins them too: "Invoice SS-2291 · 19 June 2024".
  // A slash between spaces too ("№ 0000001234 / 15.04.2025 г."): in a number it has none.
  const here = TITLE_DATE_LINK.exec(tail) ?? /^\s*(?:[·•|,–—-]|\/(?=\s))\s*(?=\d|\p{L}{3})/u.exec(tail);
  const sameLine = here ? tail.slice(here[0].length) : undefined;
  const nextLine = here && sameLine?.trim() === '' ? next?.text : !here ? nextLinkLine(next) : undefined;
  for (const [text, onNextLine] of [
    [sameLine, false],
    [nextLine, true],
  ] as const) {
    if (!text) continue;
    const date = findDates(text, ctx.order, ctx.language)[0];
    if (date && date.start === 0) return { date, onNextLine };
  }
  // Or alone in the title line's last cell: "Invoice 7731          5 June 2024".
  const cell = !here ? /^\s{2,}(?=\d|\p{L}{3})/u.exec(tail) : null;
  const rest = cell ? tail.slice(cell[0].length) : '';
  const alone = cell ? findDates(rest, ctx.order, ctx.language)[0] : undefined;
  if (alone?.start === 0 && CLOCK_TIME.test(rest.slice(alone.end))) return { date: alone, onNextLine: false };
  return undefined;
};

const nextLinkLine = (next: DocLine | undefined): string | undefined => {
  const m = next && TITLE_DATE_LINK.exec(next.text);
  return m && next ? next.text.slice(m[0].length) : undefined;
};

/** The title's candidates: on the first lines of each page, the document-type word and what follows it. */
export const titleCandidates = (ctx: FinderContext): TitleCandidates => {
  const titles = titleLines(ctx);
  const creditNote = titles.some((t) => t.atStart && t.cue.kind === 'creditNote');
  // A title that starts a line with its own number ("FACTURA RECTIFICATIVA Nº R-2024-004") names
  // the document; an invoice with a number inside another line is one it refers to ("Rectifica la
  // factura Nº 2024-0377 de fecha 05/06/2024").
  const numbered = titles.find((t) => t.atStart && t.number);
  const out: TitleCandidates = { invoiceNumber: [], invoiceDate: [], kind: [], creditNote };
  for (const { line, cue, atStart, after, number, linked } of titles) {
    // "CREDIT NOTE … Relates to invoice: INV-311": on a document titled a credit note, an invoice
    // named inside a line is the one it credits, which does not make the document an invoice.
    if (creditNote && !atStart && cue.kind === 'invoice') continue;
    if (numbered && !atStart && line !== numbered.line) continue;
    const confidence = atStart ? 0.8 : 0.7;
    out.kind.push({
      value: cue.kind === 'creditNote' ? 'credit_note' : 'invoice',
      confidence,
      reading: 'position',
      line,
      via: `title:${cue.word}`,
    });
    if (!number) {
      const under = atStart ? numberUnder(ctx, line, cue) : undefined;
      if (under) {
        out.invoiceNumber.push({
          value: under.value,
          line: under.line,
          confidence: 0.75,
          via: `title:${cue.word}:under`,
        });
        // "№ 0000001240 от 05.05.2025 г." under "КРЕДИТНО ИЗВЕСТИЕ": the number's date, as on a title line.
        const dated = dateAfter(ctx, under.tail, ctx.doc.lines[under.line.index + 1]);
        if (dated && !dated.onNextLine) out.invoiceDate.push(titleDate(dated.date, under.line));
      }
      if (linked) out.invoiceDate.push(titleDate(linked, line));
      continue;
    }
    // "Rechnung Nr. 471102" is "Invoice No. 471102": a label in all but name.
    out.invoiceNumber.push({
      value: number.id,
      confidence: number.marked ? 0.85 : 0.75,
      line,
      via: `title:${cue.word}${number.marked ? ':marked' : ''}`,
    });
    const next = ctx.doc.lines[line.index + 1];
    const dated = dateAfter(ctx, after.slice(number.end), next);
    // The line that prints the date: "Invoice No: 5531" over "Date: 12/04/2024" is one date,
    // which the date's label reads too; on one line, the two readings are not two sources.
    if (dated) out.invoiceDate.push(titleDate(dated.date, dated.onNextLine && next ? next : line));
  }
  return out;
};

/** The invoice date a title is joined to, read on `line`. */
const titleDate = (date: FoundDate, line: DocLine): Candidate<string> => {
  const parsed = dateValue(date);
  return {
    value: parsed.value,
    confidence: 0.85 * (parsed.certainty ?? 1),
    line,
    via: 'title:dated',
    ...(parsed.alternatives ? { alternatives: parsed.alternatives } : {}),
  };
};

/** A document-type word found on a line, and where. */
type TitleCue = NonNullable<ReturnType<typeof documentTypeCue>>;

/** A line that reads as a title: its document-type word, where it stands, and the number after it. */
interface TitleLine {
  line: DocLine;
  cue: TitleCue;
  atStart: boolean;
  after: string;
  number: ReturnType<typeof numberAfter>;
  /** The date a title without a number is joined to ("Facture du 12 juin 2024"). */
  linked: FoundDate | undefined;
}

/**
 * A title with its translation after a slash, as bilingual invoices print it ("FACTURE /
 * FACTUUR 2025/0312", "RECHNUNG / FACTURE"): the title runs to the translation's end, where its
 * number follows.
 */
const translatedTitle = (text: string, cue: TitleCue | undefined): TitleCue | undefined => {
  const slash = cue && TRANSLATION_SLASH.exec(text.slice(cue.end));
  if (!cue || !slash) return cue;
  const from = cue.end + slash[0].length;
  const second = documentTypeCue(text.slice(from));
  return second?.start === 0 ? { ...cue, end: from + second.end } : cue;
};

/** The first lines of each page that hold a document-type word as a title, not as a word in a sentence. */
const titleLines = (ctx: FinderContext): TitleLine[] =>
  ctx.doc.lines.flatMap((line) => {
    if (line.furniture || line.line > TITLE_LINES) return [];
    // A type word that makes no title ("BILL TO" of "BILL TO   SHIP TO   INVOICE   1047", a
    // QuickBooks header) leaves the line's later ones to try.
    for (let at = 0, tries = 0; at < line.text.length && tries < MAX_CUES_PER_LINE; tries++) {
      const found = documentTypeCue(line.text.slice(at));
      if (!found) return [];
      const cue = translatedTitle(line.text, { ...found, start: found.start + at, end: found.end + at });
      const title = cue && titleOn(ctx, line, cue);
      if (title) return [title];
      at += found.end;
    }
    return [];
  });

/** Type words tried on one line before it counts as no title's. */
const MAX_CUES_PER_LINE = 4;

/** The title `cue` makes of `line`, if it makes one. */
const titleOn = (ctx: FinderContext, line: DocLine, cue: TitleCue): TitleLine | undefined => {
  // A title word inside another number's label names that number: "Bankszámla:" (a Hungarian
  // bank account), "Arveldusarve:" (Estonian), "Žiro račun:" (Croatian).
  if (labelsIn(line.text, OTHER_NUMBERS).some((m) => m.start <= cue.start && m.end >= cue.end))
    return undefined;
  const atStart =
    line.text.slice(0, cue.start).trim() === '' || line.cells.some((c) => c.start === cue.start);
  const after = line.text.slice(cue.end);
  const number = numberAfter(after);
  // A row whose last cell, past the title's number, is an amount counts another document in a
  // sum: "abzgl. Abschlagsrechnung Nr. 2025-1102 vom 10.04.2025  -1.000,00 €", "Less: Invoice
  // 4711  (500.00)".
  const sum = endingAmount(line);
  if (sum && sum.start >= cue.end + (number?.end ?? 0)) return undefined;
  // A title word that neither starts the line nor carries a number is a word in a sentence;
  // one followed by "to"/"an"/"à" ("Invoice to", "Rechnung an") is a label. Inside a line, only
  // a number mark makes it a title ("Rectifica la factura Nº 2024-0377"): after a colon or
  // nothing, the words before it name something else ("Žiro račun: HR71…", Croatian for a bank
  // account, "Transakcijski račun SI56 0201…").
  if (!atStart && !number?.numberMark) return undefined;
  const linked = number ? undefined : linkedDate(ctx, line.text.slice(cue.start), after);
  if (
    !number &&
    !linked &&
    !titleAlone(line.text.slice(cue.start), cue.end - cue.start) &&
    !/^\s*[:.]?\s*$/.test(after) &&
    !/^\s{2,}/.test(after)
  )
    return undefined;
  return { line, cue, atStart, after, number, linked };
};

/**
 * The number under a title alone in its cell, marked as one ("INVOICE" over "# INV-000187",
 * "Rechnung" over "Nr. 2024-118"), as invoice generators stack them in a corner of the page; a
 * word alone between them ("ORIGINAL", "COPY", "ОРИГИНАЛ") is the copy's stamp. `tail` is what
 * follows the number on its line.
 */
const numberUnder = (
  ctx: FinderContext,
  line: DocLine,
  cue: TitleCue,
): { value: string; line: DocLine; tail: string } | undefined => {
  const cell = cellAt(line, cue.start);
  if (!cell || !titleAlone(cell.text.slice(cue.start - cell.start), cue.end - cue.start)) return undefined;
  let next = nextContentLine(ctx.doc, line);
  if (next && /^\p{L}+$/u.test(next.text.trim())) next = nextContentLine(ctx.doc, next);
  // A mark in a cell of its own ("N.  245/2025"): the number is the next cell's, and the title
  // may overlap the number more than the mark.
  const markAloneIn = (c: LineCell | undefined): boolean =>
    c !== undefined && NUMBER_MARK.exec(c.text)?.[0].length === c.text.length;
  const nearest = next && cellUnder(next, cell);
  const before = nearest && next ? next.cells[next.cells.indexOf(nearest) - 1] : undefined;
  const under = before && markAloneIn(before) && overlap(before, cell) > 0 ? before : nearest;
  const mark = under && NUMBER_MARK.exec(under.text)?.[0];
  const markAlone = markAloneIn(under);
  const following = markAlone && next && under ? next.cells[next.cells.indexOf(under) + 1] : undefined;
  const rest = following ? following.text : mark && under ? under.text.slice(mark.length) : '';
  const id = mark ? parseId(rest) : undefined;
  if (!id || !next || !under) return undefined;
  const end = rest.indexOf(id.value) + id.value.length;
  const restCell = following ?? under;
  return {
    value: id.value,
    line: next,
    tail: `${rest.slice(end)}${next.text.slice(restCell.start + restCell.text.length)}`,
  };
};

/** The last document-type word in `text`: the one a number after it belongs to. */
const lastCue = (text: string): TitleCue | undefined => {
  let last: TitleCue | undefined;
  for (let at = 0, cue = documentTypeCue(text); cue; cue = documentTypeCue(text.slice(at))) {
    last = cue;
    at += cue.end;
  }
  return last;
};

/**
 * The document's own numbers among its number candidates. A credit note names the invoice it
 * credits ("Relates to invoice: INV-311", "Bezug: Rechnung Nr. 4711", "Rectifica la factura n.º
 * F-311"); where it has a number of its own too (its title's, one labelled as a credit note's or
 * with no document named), a number an invoice's name labels is the credited invoice's.
 */
export const ownNumbers = (title: TitleCandidates, numbers: Candidate<string>[]): Candidate<string>[] => {
  if (!title.creditNote) return numbers;
  const own = numbers.filter((c) => {
    const at = c.line.text.indexOf(c.value);
    return lastCue(at < 0 ? c.line.text : c.line.text.slice(0, at))?.kind !== 'invoice';
  });
  return own.length > 0 ? own : numbers;
};
