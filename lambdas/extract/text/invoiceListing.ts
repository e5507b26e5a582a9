import { documentTypeCue, type LabelField, labelsAtStart } from '../vocabulary/index.js';
import { findDates } from './parseDate.js';
import { cellUnder, type DocLine, type DocText } from './textIndex.js';

const INVOICE_NUMBER: ReadonlySet<LabelField> = new Set(['invoiceNumber']);

/**
 * A document number in a cell of its own: one token of three characters or more with a digit
 * ("INV-88102", "2025/118"); not an item table's position ("1", "2", "12") under "No" or "№".
 */
const DOCUMENT_NUMBER = /^[\p{L}\d][\p{L}\d/._-]{2,29}$/u;

/** An amount, which a misaligned column may put under the number's heading ("1,240.00"). */
const AMOUNT = /^-?\d{1,3}(?:[.,' ]\d{3})*[.,]\d{2}$/;

/** How far below its headings a listing is read: a statement's page of rows. */
const ROWS_READ = 40;

/** A row of column headings ("Date   Invoice #   Amount"): three cells or more, none with a digit. */
export const isHeadings = (line: DocLine): boolean =>
  line.cells.length >= 3 && line.cells.every((c) => !/\d/.test(c.text));

/**
 * The heading cell that is an invoice-number label and nothing else ("Invoice #", "Rechnungsnr."),
 * with a word in it: a bare mark ("№", "No") heads an item table's positions.
 */
const numberHeading = (line: DocLine) =>
  line.cells.find((cell) => {
    const label = labelsAtStart(cell.text, INVOICE_NUMBER)[0];
    return (
      label !== undefined &&
      /\p{L}{3}/u.test(cell.text.slice(0, label.end)) &&
      /^[\s:.]*$/.test(cell.text.slice(label.end))
    );
  });

const documentNumber = (text: string | undefined): string | undefined => {
  const value = text?.trim();
  if (!value || !/\d/.test(value) || !DOCUMENT_NUMBER.test(value) || AMOUNT.test(value)) return undefined;
  return findDates(value).length > 0 ? undefined : value;
};

/** Rows that call themselves an invoice in a cell of their own ("SI-40881   Invoice   1,240.00"), with the number beside it. */
const invoiceRows = (doc: DocText): string[] => {
  const listed = new Set<string>();
  for (const line of doc.lines) {
    if (line.furniture || line.cells.length < 3) continue;
    const typed = line.cells.findIndex((c) => isInvoiceWord(c.text));
    if (typed < 0) continue;
    const number = line.cells.map((c, i) => (i === typed ? undefined : documentNumber(c.text))).find(Boolean);
    if (number) listed.add(number);
  }
  return [...listed];
};

/** A cell that is the word "Invoice" (in any language) and nothing else. */
const isInvoiceWord = (text: string): boolean => {
  const cue = documentTypeCue(text);
  return cue?.kind === 'invoice' && cue.start === 0 && text.slice(cue.end).trim() === '';
};

/**
 * The invoice numbers a document lists, when it lists two or more different ones: under an
 * invoice-number column heading ("Invoice #" over INV-88102, INV-88311, INV-88540), or in rows
 * that each say "Invoice" beside their number. An invoice has one number and prints it once per
 * heading; a statement of account, a reminder or a remittance advice lists the invoices it is
 * about, whatever its title says ("STATEMENT" is also how utilities title their bills). Empty when
 * the document lists none.
 */
export const listedInvoices = (doc: DocText): string[] => {
  const rows = invoiceRows(doc);
  if (rows.length >= 2) return rows;
  for (const line of doc.lines) {
    if (line.furniture || !isHeadings(line)) continue;
    const heading = numberHeading(line);
    if (!heading) continue;
    const listed = new Set<string>();
    for (const below of doc.lines.slice(line.index + 1, line.index + 1 + ROWS_READ)) {
      if (below.page !== line.page || isHeadings(below)) break;
      const number = documentNumber(cellUnder(below, heading)?.text);
      if (number) listed.add(number);
    }
    if (listed.size >= 2) return [...listed];
  }
  return [];
};
