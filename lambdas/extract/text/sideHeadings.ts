import { cellUnder, type DocLine, type DocText, type LineCell, nextContentLine } from './textIndex.js';
import { hasLegalForm } from './values.js';

/**
 * Headings of blocks set side by side in capitals, shared by the labelled-value finder and the
 * invoice's role blocks: under such headings each block's value stands under its own.
 */

/** Capitals only, a heading's: "BILLING CONTACT", "SHIP TO", "SERVICE LOCATION". */
const CAPITAL_HEADING = /^(?=.*\p{Lu}{2})[\p{Lu}\s&/.-]+$/u;

/**
 * A heading in mixed case beside a label ("Invoice to    Vessel", "Bill to    Site"): one word
 * with a capital, perhaps a lower-case word after it, no name's second capital.
 */
const HEADING_WORD = /^\p{Lu}\p{Ll}+(?:\s\p{Ll}+)?:?$/u;

/**
 * Whether a label's cell and the cell beside it head two blocks side by side ("CUSTOMER    BILLING
 * CONTACT" over "Bayview Home Health, LLC    Accounts Payable"): both in capitals, the neighbour
 * no company's name, and the next line, not in capitals, holding a cell under each. With
 * `headingWord`, for a role label whose value is a party's block, the neighbour may be a heading's
 * word in mixed case ("Invoice to    Vessel" over "Azure Charter Yachts Limited    M/Y Lunaria");
 * beside a field's label one such word is as likely its value ("Governing Law    Texas"). The label's
 * value is then under it, not beside it.
 */
export const headingsSideBySide = (
  doc: DocText,
  line: DocLine,
  cell: LineCell,
  next: LineCell,
  { headingWord = false }: { headingWord?: boolean } = {},
): boolean => {
  const capitals = CAPITAL_HEADING.test(cell.text.trim()) && CAPITAL_HEADING.test(next.text.trim());
  if (!capitals && !(headingWord && HEADING_WORD.test(next.text.trim()))) return false;
  if (hasLegalForm(next.text)) return false;
  const below = nextContentLine(doc, line);
  const under = below && cellUnder(below, cell);
  const besideUnder = below && cellUnder(below, next);
  // On a page in capitals throughout, capitals set no heading apart from its value.
  return (
    under !== undefined &&
    besideUnder !== undefined &&
    under !== besideUnder &&
    /\p{Ll}/u.test(below?.text ?? '')
  );
};
