import type { Candidate } from '../../candidates.js';
import {
  documentTypeCue,
  type LabelField,
  labelsAtStart,
  withoutSalutation,
} from '../../vocabulary/index.js';
import { headsTable } from '../amountColumn.js';
import type { FinderContext } from '../context.js';
import { cleanPartyName } from '../partyNames.js';
import { headingsSideBySide } from '../sideHeadings.js';
import { continuesBrokenWord, type DocLine, nextContentLine } from '../textIndex.js';
import { hasLegalForm, NUMBER_MARK } from '../values.js';
import { ROLE_LABELS } from './partyBlocks.js';

/**
 * The parties that role labels name ("Seller:", "Bill to", "Käufer", "Prestador de Serviços"):
 * on the label's line, in the cell beside it, or in the block under it, where a name label
 * ("Razão Social:") may name it among the block's identifiers. Shared with the other ways
 * `parties.ts` finds the issuer: what a role label, a detail line and a form line look like.
 */

/** How much less a weak role label's party weighs: under the doubt floor, so it contradicts no bill-to. */
const WEAK_ROLE_DISCOUNT = 0.2;

/** Lines after a role label that may still hold the name (skipping "Nummer: 549910" and the like). */
const BLOCK_DEPTH = 4;

/**
 * A role label that holds a name on its own line: one followed by a colon ("Bill to:", "Kunde:"),
 * an abbreviation or a label of several words, which never start a company's name ("Spett.le
 * Ferramenta Bianchi S.p.A.", "Verkauft von Amazon EU S.à r.l."); a plain word may ("Client
 * Solutions GmbH" is a vendor's name).
 */
export const roleLabelAt = (text: string, role: 'vendor' | 'customer' | 'payee') =>
  heldLabelAt(text, ROLE_LABELS[role]);

/** A label of `fields` at the start of `text` that holds a name on its own line (see `roleLabelAt`). */
export const heldLabelAt = (text: string, fields: ReadonlySet<LabelField>) => {
  const label = labelsAtStart(text, fields)[0];
  if (!label) return undefined;
  const colon = /:/.test(text.slice(label.end, label.end + 3));
  // A label of several words ("Sold by", "Verkauft von", "Bill to") starts no company's name.
  return colon || /[.\s]/.test(label.label) ? { ...label, colon } : undefined;
};

/**
 * A line that only states a "label: value" pair or an identifier: not where a name is. The
 * identifier may follow a short label without a colon ("GLN 4333741000005", "DUNS 150483782"),
 * or with one OCR misread as a letter a column away ("Nummer  i 009420").
 */
export const isDetailLine = (line: DocLine): boolean => isDetailText(line.text);

/** A text that only states a "label: value" pair or an identifier (`isDetailLine`). */
const isDetailText = (whole: string): boolean => {
  const text = whole.trim();
  return (
    /^[\p{L}][\p{L}\d .\-/]{0,40}\s*:/u.test(text) ||
    /^\(?[A-Z]{2,5}\)?$|^\d[\d\s./-]*$/.test(text) ||
    /^[\p{L}][\p{L}.-]{0,11}(?:\s+[\p{L}][\p{L}.-]{0,5})?\s+\d[\d\s./-]{5,}$/u.test(text)
  );
};

const PARTY_NAME: ReadonlySet<LabelField> = new Set<LabelField>(['partyName']);

/** The name a name label states in a cell ("Razón social: Almacén Don Julio S.A."). */
const nameLabelled = (cell: DocLine['cells'][number] | undefined): string | undefined => {
  const label = cell && labelsAtStart(cell.text, PARTY_NAME)[0];
  return label ? cleanPartyName(cell.text.slice(label.end).replace(/^\s*:?\s*/, '')) : undefined;
};

/** Every role's labels, as `ROLE_LABELS` gives them. */
const ANY_ROLE: ReadonlySet<LabelField> = new Set(
  Object.values(ROLE_LABELS).flatMap((fields) => [...fields]),
);

/** A role label alone, or with its colon ("SHIP TO", "Lieferadresse:"): a block's heading. */
const isRoleHeading = (text: string): boolean => {
  const label = labelsAtStart(text, ANY_ROLE)[0];
  return label !== undefined && /^\s*:?\s*$/.test(text.slice(label.end));
};

/** The cell of `line` in column `ci` of the line above, or its only cell when it has fewer. */
const cellBelow = (line: DocLine, ci: number) => (line.cells.length > ci ? line.cells[ci] : line.cells[0]);

const IBAN_LABEL: ReadonlySet<LabelField> = new Set<LabelField>(['iban']);

/** The line after `line` starts with an IBAN's label: `line` names the account's holder. */
const ownsAccountBelow = (ctx: FinderContext, line: DocLine): boolean => {
  const next = nextContentLine(ctx.doc, line);
  return next !== undefined && labelsAtStart(next.cells[0]?.text ?? '', IBAN_LABEL).length > 0;
};

/** The party named by a role label: on the label's own line, or in the block under it. */
export const roleBlock = (
  ctx: FinderContext,
  role: 'vendor' | 'customer' | 'payee',
  strongConfidence: number,
): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  const lines = ctx.doc.lines;
  for (const line of lines) {
    if (line.furniture) continue;
    line.cells.forEach((cell, ci) => {
      const label = labelsAtStart(cell.text, ROLE_LABELS[role])[0];
      // Checked only where a role label stands: a table's heading names no party.
      if (!label || continuesBrokenWord(ctx.doc, line, ci) || headsTable(ctx.doc, line)) return;
      // A transfer form's recipient over its account ("Empfänger: Stadtwerke Lindau GmbH" over
      // "IBAN: DE44 …") is whom the money goes to: the issuer, not the billed party.
      if (role === 'customer' && ownsAccountBelow(ctx, line)) return;
      // A weak role label names a party that is probably, not surely, this one: goods go to a
      // ship-to address ("Lieferadresse", "Ship to") that need not be the buyer's, which a
      // bill-to or buyer label names.
      const confidence =
        label.strength === 'strong' ? strongConfidence : strongConfidence - WEAK_ROLE_DISCOUNT;
      // A note in brackets after the label says the same again: "Cedente/prestatore (fornitore)".
      const rest = cell.text
        .slice(label.end)
        .replace(/^\s*[:#]?\s*/, '')
        .replace(/^\([^()]*\)\s*:?$/, '');
      // "Bill to:" ends in a colon or stands alone; "Client services" is not a role label.
      const held = rest ? roleLabelAt(cell.text, role) : undefined;
      if (rest && !held) return;
      // "BILL TO SHIP TO" (two headings whose gap a text layer lost): the other block's label
      // names no party; the names are under both.
      const headingAfter = rest !== '' && isRoleHeading(rest);
      const here = rest && !headingAfter ? cleanPartyName(withoutSalutation(rest, ctx.language)) : undefined;
      // "t.a.v. de administratie": an abbreviation followed by no name names nobody here.
      if (rest && !here && !held?.colon && !headingAfter) return;
      if (here) {
        found.push({ value: here, confidence, line, via: `block:${role}:same-line` });
        return;
      }
      // "Supplier:    Atlas Industrial Supply Co." - the name in the next column.
      const next = line.cells[ci + 1];
      const titleBeside = next && titleCell(next.text) ? next : undefined;
      const beside =
        !rest &&
        next &&
        labelsAtStart(next.text).length === 0 &&
        !titleBeside &&
        !headingsSideBySide(ctx.doc, line, cell, next, { headingWord: true })
          ? cleanPartyName(withoutSalutation(next.text, ctx.language))
          : undefined;
      if (beside) {
        found.push({ value: beside, confidence, line, via: `block:${role}:next-cell` });
        return;
      }
      for (let i = line.index + 1; i < lines.length && i <= line.index + BLOCK_DEPTH; i++) {
        const below = lines[i] as DocLine;
        if (below.page !== line.page) break;
        if (below.furniture) continue;
        // "Nome/Razão Social: Tecnologia Paulista Ltda": a form's block labels its party's name.
        const named = nameLabelled(cellBelow(below, ci));
        if (named) {
          found.push({ value: named, confidence, line: below, via: `block:${role}:name-label` });
          break;
        }
        const target = cellBelow(below, ci);
        // A label in a column of its own ("Date: June 5   Bill to:") heads the cells under it:
        // the invoice's details beside them on the left are another block's.
        const ownColumn = ci > 0 && below.cells.length > ci;
        if (ownColumn ? isDetailText(target?.text ?? '') : isDetailLine(below)) continue;
        // A form's label ("Rechnungsnummer   DE4A") starts the next block: this one named nobody.
        if (!ownColumn && isFormLine(below)) break;
        // A table header or row is not an address block. Beside a title ("Kupac:    RAČUN br.
        // 148/P1/1"), the cells from the title's column on are the document's details' block.
        const own = titleBeside ? below.cells.filter((c) => c.start < titleBeside.start - 1) : below.cells;
        if (own.length >= 3 && own.length > line.cells.length) break;
        const person = target && withoutSalutation(target.text, ctx.language);
        // "Herrn" alone: the name is on the next line.
        if (person !== undefined && person.trim() === '') continue;
        const name = person && cleanPartyName(person);
        if (!name) break;
        // A trade name over the legal name ("MVM Musterhafter" / "Versicherungsverein Musterstadt
        // a.G."): the line with the legal form names the party.
        // Read in the label's column: the cell beside it on the next line is another block's.
        const after = lines[i + 1];
        const afterCell = after && after.page === line.page ? cellBelow(after, ci) : undefined;
        const legal = !hasLegalForm(name) && afterCell ? cleanPartyName(afterCell.text) : undefined;
        if (legal && hasLegalForm(legal) && after) {
          found.push({
            value: legal,
            confidence: confidence - 0.05,
            line: after,
            via: `block:${role}:below`,
          });
        } else
          found.push({ value: name, confidence: confidence - 0.05, line: below, via: `block:${role}:below` });
        break;
      }
    });
  }
  return found;
};

/**
 * A line of a form, not of a letterhead: its first cell is a label ("Invoice number", "Date of
 * issue:", "Invoice # 1037"), or it is only the document's title ("INVOICE", "Tax Invoice"). A
 * label word that other words follow starts a name ("Client Solutions GmbH").
 */
export const isFormLine = (line: DocLine): boolean => {
  const first = line.cells[0]?.text ?? '';
  const label = labelsAtStart(first)[0];
  if (label && /^\s*(?:$|[:#]|\d)/.test(first.slice(label.end))) return true;
  return line.cells.length === 1 && titleCell(first) === 'alone';
};

/**
 * How a cell is the document's title: alone ("INVOICE", "Tax Invoice", "FATTURA") or with its
 * number ("RAČUN br. 148/P1/1", "Invoice # 1047"). Beside a role label ("Spett.le    FATTURA")
 * either names no party.
 */
const titleCell = (text: string): 'alone' | 'numbered' | undefined => {
  const cue = documentTypeCue(text);
  if (!cue) return undefined;
  if (text.trim().length <= cue.end - cue.start + 2) return 'alone';
  if (text.slice(0, cue.start).trim() !== '') return undefined;
  const rest = text.slice(cue.end).trimStart();
  return /^\d/.test(rest) || (NUMBER_MARK.test(rest) && /\d/.test(rest)) ? 'numbered' : undefined;
};
