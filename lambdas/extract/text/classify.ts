import type { DocType } from '../../shared/documents/index.js';
import {
  BARE_CONTRACT_WORD,
  CONTRACT_SIGNALS,
  CONTRACT_TITLE,
  DEFINED_ROLE,
  roleLabelOf,
} from '../vocabulary/contractWords.js';
import {
  documentTypeCue,
  type LabelField,
  labelsAtStart,
  otherDocumentCue,
  TITLE_DATE_LINK_PATTERN,
} from '../vocabulary/index.js';
import { isHeadings, listedInvoices } from './invoiceListing.js';
import { findDates } from './parseDate.js';
import { type DocLine, type DocText, nextContentLine, previousContentLine } from './textIndex.js';
import { NUMBER_MARK_SOURCE, unmarkedCode } from './values.js';

/** The classifier's answer. */
export interface Classification {
  docType: DocType;
  /** 0-1. */
  confidence: number;
  /** Signal weights per type, for the record and for tests. */
  scores: Record<DocType, number>;
}

/** A document of no type Docket reads: none has any signal, or its title says it is no invoice. */
export interface Unrecognised {
  docType: 'unclassified';
  /** The title that names what the document is instead ("Quotation", "Lieferschein"). */
  titled?: string;
  /** The invoices it lists, as a statement or a reminder does ("INV-88102", "INV-88311"). */
  listsInvoices?: string[];
}

interface Signal {
  re: RegExp;
  weight: number;
  /** Counted once (a title), or once per occurrence up to `cap`. */
  cap: number;
}

const SIGNALS: Readonly<Record<DocType, readonly Signal[]>> = {
  invoice: [
    // A title: "INVOICE" at the start of a line or alone in a column of the letterhead.
    { re: /(?:^|\s{2})(?:tax\s+)?invoice(?=\s{2}|\s*$)|^(?:tax\s+)?invoice\b/gim, weight: 4, cap: 1 },
    { re: /\b(?:bill|document)\s*(?:no\.?|number|#)/gi, weight: 2, cap: 1 },
    { re: /\b(?:grand\s+)?total\b/gi, weight: 1, cap: 2 },
    { re: /\b(?:vat|sales\s+tax|gst)\b/gi, weight: 1, cap: 1 },
    { re: /^(?:\S+\s{2,})?(?:description|item)\s{2,}.*(?:amount|total)\s*$/gim, weight: 2, cap: 1 },
    // As a label ("Invoice No.", "Invoice Date" starting a line or a column); contracts say "invoice date" in prose.
    { re: /(?:^|\s{2})invoice\s*(?:no\.?|number|#|date)/gim, weight: 3, cap: 2 },
    { re: /\b(?:bill(?:ed)?|invoice|sold)\s+to\b/gi, weight: 2, cap: 1 },
    { re: /\b(?:amount|balance|total)\s+due\b/gi, weight: 2, cap: 1 },
    { re: /\bsub-?\s?total\b/gi, weight: 2, cap: 1 },
    { re: /\b(?:qty|quantity|unit price|rate)\b/gi, weight: 1, cap: 2 },
    { re: /\bdue date\b/gi, weight: 1, cap: 1 },
  ],
  contract: [
    { re: /\b(?:agreement|contract)\b/gi, weight: 0.5, cap: 8 },
    { re: /\bby and between\b|\bis made between\b|\bentered into\b/gi, weight: 4, cap: 1 },
    { re: /\bwhereas\b|\bin witness whereof\b/gi, weight: 2, cap: 2 },
    {
      re: /\bgoverned by\b|\b(?:governing|applicable)\s+law\b|\bconstrued\s+(?:under|in accordance)\b/gi,
      weight: 2,
      cap: 1,
    },
    { re: /\bbetween\b[^.]{0,300}?\band\b[^.]{0,300}?\((?:the\s+|hereinafter[^)]*)?"/gi, weight: 2, cap: 1 },
    { re: /\bterminat\w*|\brenew\w*/gi, weight: 1, cap: 2 },
    // Numbered clause headings: "1. Term."
    { re: /^\d{1,2}\.\s+[A-Z][a-z]+(?:\s+[A-Za-z]+){0,3}\.\s/gm, weight: 1, cap: 3 },
    { re: /\bthe parties\b|\beither party\b/gi, weight: 1, cap: 3 },
    { re: /\beffective date\b|\bcommencement date\b/gi, weight: 1.5, cap: 1 },
    { re: /^(?:[A-Z ]+\s)?(?:AGREEMENT|CONTRACT)\b/gm, weight: 3, cap: 1 },
  ],
};

/** Text looked at: the first pages say what a document is; the rest repeats it. */
const HEAD_CHARS = 12_000;

/** Labels that only an invoice carries, in any language with a vocabulary. */
const INVOICE_LABELS: ReadonlySet<LabelField> = new Set<LabelField>([
  'invoiceNumber',
  'invoiceDate',
  'dueDate',
  'subtotal',
  'tax',
  'total',
  'amountDue',
  'vatId',
  'iban',
]);

/** A cell that holds a title and nothing else ("SERVICE INVOICE" in a page's corner, "Faktura"). */
const isTitleCell = (cell: { text: string }): boolean => {
  const cue = documentTypeCue(cell.text);
  return (
    cue !== undefined && cell.text.slice(0, cue.start).trim() === '' && cell.text.slice(cue.end).trim() === ''
  );
};

/** An ordinal before a title ("3. Abschlagsrechnung"). */
const ORDINAL = /^\s*\d{1,2}\.\s+/;

/**
 * Invoice signals of every language: a title word at the start of a line or alone in a cell
 * ("Rechnung", "Facture", "Factuur", "Fattura", "Factura", "Gutschrift", "Avoir", "SERVICE
 * INVOICE" in a page's corner), and the distinct invoice fields that labels name. English has its
 * own, older signals below as well.
 */
const vocabularySignals = (doc: DocText): number => {
  let title = 0;
  const fields = new Set<LabelField>();
  for (const line of doc.lines.slice(0, 400)) {
    if (line.furniture) continue;
    // An ordinal may number the title: "3. Abschlagsrechnung", "2. Teilrechnung".
    const first = (line.cells[0]?.text ?? '').replace(ORDINAL, '');
    if (documentTypeCue(first)?.start === 0 || line.cells.some(isTitleCell)) title = 4;
    for (const cell of line.cells)
      for (const m of labelsAtStart(cell.text, INVOICE_LABELS)) fields.add(m.field);
  }
  return title + Math.min(6, fields.size);
};

/** Lines from the top of the first page where a document's title stands. */
const TITLE_LINES = 15;

/** The top of the first page, where a document's title stands: its first lines that `keep` keeps. */
export const topLines = (doc: DocText, keep: (line: DocLine) => boolean): DocLine[] =>
  doc.lines.filter((l) => l.page === doc.lines[0]?.page && keep(l)).slice(0, TITLE_LINES);

/** A number a title ends with, after a mark: " Nr. GM-2024-03", " N. 18/2024", " (No. SLA-88120)". */
const TITLE_NUMBER = new RegExp(
  `\\s\\(?(?:${NUMBER_MARK_SOURCE}|n)\\.?\\s*[A-Z0-9][\\w/.-]*\\d[\\w/.-]*\\)?$`,
  'iu',
);

/**
 * A contract's title: a short cell of words without digits or a colon whose first or last word
 * is a contract word ("Dienstleistungsvertrag", "CONTRAT DE PRESTATION DE SERVICES", "Services
 * Agreement"), with or without its number after a mark ("Gewerbemietvertrag Nr. GM-2024-03").
 * "Vertragsnummer: 42" is a label, and so is the bare word with a number ("Contract No. 7",
 * which an invoice prints to name the contract it bills).
 */
const isContractTitle = (cell: string): boolean => {
  const numbered = TITLE_NUMBER.exec(cell);
  // Or a code with no mark after the title's last word ("SECURITY SERVICES AGREEMENT Q-8812",
  // "Huoltosopimus 2025-07"): the title is still one, whatever the code numbers.
  const lastSpace = cell.trimEnd().lastIndexOf(' ');
  const last = cell.slice(lastSpace);
  const coded =
    !numbered && lastSpace > 0 && (unmarkedCode(last) || /^\s\d{1,6}[-/]\d{1,6}$/.test(last.trimEnd()))
      ? lastSpace
      : undefined;
  const text = numbered ? cell.slice(0, numbered.index) : cell.slice(0, coded);
  if (numbered && BARE_CONTRACT_WORD.test(text)) return false;
  const words = text.trim().split(/\s+/);
  if (words.length > 8 || /[\d:;,.!?]/.test(text)) return false;
  const title = CONTRACT_TITLE.exec(text);
  if (!title) return false;
  return (
    title.index === text.length - text.trimStart().length ||
    text.slice(title.index + title[0].length).trim() === ''
  );
};

/** An invoice's party labels: a role word that is one of them ("Customer:", "Supplier:") says nothing of a contract. */
const PARTY_LABELS: ReadonlySet<LabelField> = new Set<LabelField>([
  'vendor',
  'customer',
  'payee',
  'partyName',
]);

/**
 * The roles a contract's form gives its parties as labels, when it labels both sides with roles
 * no invoice labels a party with ("Lessor:" and "Lessee:", "Vermieter:" and "Mieter:"); none
 * where one side alone is, or a role is an invoice's party label too ("Customer:", "Supplier:").
 */
const labelledRoles = (doc: DocText): string[] => {
  const found = new Map<string, string>();
  for (const line of topLines(doc, (l) => !l.furniture)) {
    const cell = line.cells[0]?.text ?? '';
    const label = roleLabelOf(cell);
    if (label && labelsAtStart(cell, PARTY_LABELS).length === 0) found.set(label.role, label.word);
  }
  return found.size === 2 ? [...found.values()] : [];
};

/**
 * Contract signals of every language: a title (3), each party given a defined role in quotes or
 * after a defined-as word, or as a label on both sides (2 each, two at most: „Auftragnehmer“, «
 * le Client », "Lessor:" and "Lessee:"), and phrases only contracts use ("Vertragsparteien", "les
 * parties", "tacite reconduction"; 1 each, three at most). English has its own, older signals in
 * `SIGNALS` as well.
 */
const contractVocabularySignals = (doc: DocText, head: string): number => {
  const title = topLines(doc, (l) => !l.furniture).some((l) => l.cells.some((c) => isContractTitle(c.text)))
    ? 3
    : 0;
  const roles = new Set<string>(labelledRoles(doc));
  for (const m of head.matchAll(DEFINED_ROLE)) {
    const g = m.groups ?? {};
    if (g.role1 ?? (g.role2 && (g.open2 || g.definedAs))) roles.add((g.role1 ?? g.role2 ?? '').toLowerCase());
  }
  return title + 2 * Math.min(2, roles.size) + Math.min(3, head.match(CONTRACT_SIGNALS)?.length ?? 0);
};

/** A date joined to the end of a title ("del 05/07/2024", "vom 02.07.2024"), in any language. */
const TITLE_DATE = new RegExp(`\\s+${TITLE_DATE_LINK_PATTERN}(?:\\s*:)?\\s+(\\S.*)$`, 'iu');

/** `rest` without the date a link joins to its end ("n. 12/2024 del 05/07/2024" -> "n. 12/2024"). */
const undated = (rest: string): string => {
  const m = TITLE_DATE.exec(rest);
  const date = m?.[1] === undefined ? undefined : findDates(m[1])[0];
  return m && date?.start === 0 && m[1]?.slice(date.end).trim() === '' ? rest.slice(0, m.index) : rest;
};

/**
 * Whether what follows a type word in its cell makes the cell a title: nothing, or the
 * document's number ("Angebot Nr. 2024-77", "DEVIS N° D-2024-031", "Estimate #1042"), with or
 * without its date ("FATTURA PROFORMA n. 12/2024 del 05/07/2024"). A colon makes it a label of
 * some other document's number ("Purchase Order: 4500012345" on an invoice), a hyphen part of one
 * ("Lieferschein-Nr. 5531"), and words a sentence.
 */
const titleRest = (text: string): boolean => {
  const rest = undated(text);
  return (
    rest.trim() === '' || (rest.length <= 30 && !rest.includes(':') && /^\s+\S*\s?\S*\d\S*$/u.test(rest))
  );
};

/**
 * Whether a type word with a value beside it ("Lieferschein    LS250588 vom 04.06.2025") is a row
 * of a form: a line next to it holds a label and its value in the same column ("Kundennummer
 * D-20871"). The word names the delivery note the invoice refers to, not the document.
 */
const formRow = (doc: DocText, line: DocLine, cell: DocLine['cells'][number]): boolean =>
  line.cells.length >= 2 &&
  [previousContentLine(doc, line), nextContentLine(doc, line)].some(
    (near) =>
      near !== undefined &&
      near.cells.length >= 2 &&
      near.cells.some((c) => c.start === cell.start && labelsAtStart(c.text).length > 0),
  );

/**
 * The title that says the document is no invoice (a quotation, an order, a delivery note, a
 * statement, a reminder, a pro forma), when the top of its first page has one before any invoice
 * or credit note title: such documents carry an invoice's fields, and booking one as an invoice
 * pays what nobody owes. An invoice's title may say more ("Mietrechnung Nr. 93141 vom
 * 01.10.2018"); a title of another document is its word alone or with its number, in a cell of
 * its own ("Bestellung" followed by ": B123" in the next cell is a label). "1. Mahnung" counts.
 */
const nonInvoiceTitle = (doc: DocText): string | undefined => {
  for (const line of topLines(doc, (l) => !isHeadings(l))) {
    for (const [i, cell] of line.cells.entries()) {
      // "1. Mahnung": a reminder's count; "WZ - Wydanie zewnętrzne": the document kind's code.
      const text = cell.text.replace(/^(?:\d{1,2}\.|\p{Lu}{1,4}\s+[-–—])\s*/u, '');
      const cue = otherDocumentCue(text);
      const labelled = line.cells[i + 1]?.text.trimStart().startsWith(':') ?? false;
      if (cue?.start === 0 && !labelled && !formRow(doc, line, cell) && titleRest(text.slice(cue.end)))
        return cue.word;
      const invoice = cue ? undefined : documentTypeCue(text);
      if (invoice?.start === 0 && /^(?:$|[\s:(])/.test(text.slice(invoice.end))) return undefined;
    }
  }
  return undefined;
};

/**
 * Whether a title at the top names the document an invoice or a credit note ("Schlussrechnung",
 * "INVOICE"): then invoices it lists are those it settles (a final invoice deducting its partial
 * ones). A title stands on a line of one or two cells; a row of a statement saying "Invoice" has more.
 */
const invoiceTitled = (doc: DocText): boolean =>
  topLines(doc, (l) => l.cells.length <= 2).some((line) =>
    line.cells.some((c) => documentTypeCue(c.text)?.start === 0),
  );

/** How many listed invoice numbers the record keeps: enough for a reviewer to recognise them. */
const MAX_LISTED = 10;

/**
 * Scores contract and invoice signals (titles, "by and between", "Bill To", "Subtotal", ...)
 * over the start of the document. Confidence grows with the margin between the two scores.
 * Unrecognised when neither type has any signal at all, or when what reads as an invoice is
 * titled as another kind of document or lists several invoices.
 */
export const classify = (doc: DocText): Classification | Unrecognised => {
  const head = doc.lines
    .filter((l) => !l.furniture)
    .map((l) => l.text)
    .join('\n')
    .slice(0, HEAD_CHARS);
  const score = (type: DocType) =>
    SIGNALS[type].reduce((sum, s) => sum + s.weight * Math.min(s.cap, head.match(s.re)?.length ?? 0), 0);
  // The English regex signals and the vocabularies overlap on English documents: take the larger.
  const scores = {
    contract: Math.max(score('contract'), contractVocabularySignals(doc, head)),
    invoice: Math.max(score('invoice'), vocabularySignals(doc)),
  };
  const [top, other] =
    scores.invoice > scores.contract
      ? (['invoice', 'contract'] as const)
      : (['contract', 'invoice'] as const);
  if (scores[top] < 2) return { docType: 'unclassified' };
  const titled = top === 'invoice' ? nonInvoiceTitle(doc) : undefined;
  if (titled) return { docType: 'unclassified', titled };
  const listed = top === 'invoice' && !invoiceTitled(doc) ? listedInvoices(doc) : [];
  if (listed.length > 0) return { docType: 'unclassified', listsInvoices: listed.slice(0, MAX_LISTED) };
  const margin = (scores[top] - scores[other]) / (scores[top] + scores[other] + 2);
  return { docType: top, confidence: Math.round(Math.min(0.99, 0.5 + 0.55 * margin) * 100) / 100, scores };
};
