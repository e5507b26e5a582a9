import {
  type LabelField,
  labelsAtStart,
  MONEY_LABEL_FIELDS,
  VAT_ID_LABEL_FIELDS,
} from '../../vocabulary/index.js';
import type { FinderContext } from '../context.js';

/**
 * Where each party's block is: the lines under a seller's or a customer's role label, and the
 * column they are in. What a block states (a VAT id, a number) is its party's.
 */

/** The labels that open each party's block. */
export const ROLE_LABELS: Record<'vendor' | 'customer' | 'payee', ReadonlySet<LabelField>> = {
  vendor: new Set<LabelField>(['vendor']),
  customer: new Set<LabelField>(['customer']),
  payee: new Set<LabelField>(['payee']),
};

/** How many lines a party's block may run under its role label. */
const BLOCK_LINES = 8;

/** A cell that opens a party's block: a role label alone, or with its colon ("Käufer:", "BILL TO"). */
const opensBlock = (text: string, role: 'vendor' | 'customer'): boolean => {
  const label = labelsAtStart(text, ROLE_LABELS[role])[0];
  return label !== undefined && /^\s*(?::.*)?$/.test(text.slice(label.end));
};

/**
 * The lines of a party's blocks (the seller's; the customer's bill-to, buyer and ship-to), each
 * with the column its label starts at: up to eight lines under the label, until the other party's
 * label opens its block, a table begins or a totals line comes. What these lines state in that
 * column (a VAT id, a number) is that party's.
 */
export const partyBlockColumns = (
  ctx: FinderContext,
  role: 'vendor' | 'customer',
): ReadonlyMap<number, number> => {
  const other = role === 'vendor' ? 'customer' : 'vendor';
  const columns = new Map<number, number>();
  let open: { column: number; until: number; page: number } | undefined;
  for (const line of ctx.doc.lines) {
    if (line.furniture) continue;
    // Both labels on one line ("From    Bill to", "Emisor    Receptor") open two blocks side by
    // side, each in its own column; the other party's label alone closes this party's block.
    const label = line.cells.find((c) => opensBlock(c.text, role));
    if (label) {
      open = { column: label.start, until: line.index + BLOCK_LINES, page: line.page };
      continue;
    }
    if (line.cells.some((c) => opensBlock(c.text, other))) {
      open = undefined;
      continue;
    }
    // The heading of another block ("Steuerbevollmächtigter des Verkäufers:", "Zahlungsbedingungen:").
    if (line.cells.length === 1 && /^[^\d]+:$/.test(line.text.trim())) {
      open = undefined;
      continue;
    }
    // A totals line ("Subtotal  £1,000.00") ends it too: a block names and numbers a party, and
    // an item table of two columns has no more cells than an address.
    // Not a VAT id's line, though: "TVA : FR11987654321" starts with the tax's word as well.
    if (
      line.cells.some(
        (c) =>
          labelsAtStart(c.text, MONEY_LABEL_FIELDS).length > 0 &&
          labelsAtStart(c.text, VAT_ID_LABEL_FIELDS).length === 0,
      )
    ) {
      open = undefined;
      continue;
    }
    // A table's header or row ends the block: four cells or more, since a block's own lines may
    // hold three ("Globale Nummer:  4000001987658  (GTIN)").
    if (open && line.page === open.page && line.index <= open.until && line.cells.length < 4)
      columns.set(line.index, open.column);
    else open = undefined;
  }
  return columns;
};
