import type { Candidate } from '../../candidates.js';
import { type LabelField, labelsAtStart, withoutSalutation } from '../../vocabulary/index.js';
import type { FinderContext } from '../context.js';
import { cleanPartyName, POSTCODE_TOWN, STREET } from '../partyNames.js';
import {
  cellUnder,
  type DocLine,
  type LineCell,
  nextContentLine,
  previousContentLine,
} from '../textIndex.js';
import { hasLegalForm } from '../values.js';
import { heldLabelAt, roleLabelAt } from './roleBlocks.js';

/**
 * The customer an attention line is for. "Attention: Practice Manager", "z. Hd. Frau Klein",
 * "t.a.v. afdeling Ruimte" name a person or a department of the customer, never the customer
 * itself: its name stands on the line above, in the same column ("Harbourside Dental Group" over
 * "Attention: Practice Manager"). Only a company's name with its legal form on the attention line
 * ("Attn: Meridian Foods Ltd") is the customer there.
 */

const ATTENTION: ReadonlySet<LabelField> = new Set<LabelField>(['attention']);

/** The attention label that opens `text` ("Attn:", "z. Hd.", "t.a.v."), if one does. */
const attentionLabelAt = (text: string) => heldLabelAt(text, ATTENTION);

/** How many address lines may stand between the customer's name and its attention line. */
const ADDRESS_LINES = 3;

/** A street or a postcode and town: an address line, over which the name may stand. */
const isAddress = (text: string): boolean => STREET.test(text.trim()) || POSTCODE_TOWN.test(text);

/** The name a cell states, if it is one: not a label, an address, a contact or a number. */
const nameIn = (cell: LineCell, language?: string): string | undefined => {
  if (labelsAtStart(cell.text).length > 0 || /@|^\s*[\d+(]/.test(cell.text)) return undefined;
  const name = cleanPartyName(withoutSalutation(cell.text, language));
  return name && !isAddress(name) ? name : undefined;
};

/**
 * Whether `text` is a name that ends in the street its block prints under the attention line
 * (`line`): an owners' association is named after its building ("Ejerforeningen Strandvejen 12"
 * over "Att.: Formand Jens Kofoed" / "Strandvejen 12"), which reads as a street on its own.
 */
const namedAfterItsStreet = (ctx: FinderContext, text: string, line: DocLine, cell: LineCell): boolean => {
  const below = nextContentLine(ctx.doc, line);
  const street = below && cellUnder(below, cell)?.text.trim();
  const name = text.trim();
  return !!street && STREET.test(street) && name.length > street.length && name.endsWith(` ${street}`);
};

/** True when `cell` holds a customer's role label and nothing else ("Bill To", "Kunde:"). */
const isBareCustomerLabel = (cell: LineCell): boolean => {
  const label = roleLabelAt(cell.text, 'customer');
  return !!label && cell.text.slice(label.end).replace(/[\s:]/g, '') === '';
};

/**
 * The first line of the block a role label heads, where the attention line closes that block
 * ("Bill To" / "Eko Beverages Plc" / "KM 14, Lagos-Ibadan Expressway" / "Attn: …"): the block
 * opens with the name whatever form its address lines take, which no pattern knows for every
 * country (an Eircode, a Nigerian road).
 */
const blockHeadName = (ctx: FinderContext, line: DocLine, cell: LineCell) => {
  let at = line;
  let under: { line: DocLine; cell: LineCell } | undefined;
  for (let k = 0; k <= ADDRESS_LINES + 1; k++) {
    const above = previousContentLine(ctx.doc, at);
    const over = above && cellUnder(above, cell);
    if (!above || !over) return undefined;
    if (isBareCustomerLabel(over)) {
      const name = under && nameIn(under.cell, ctx.language);
      return name && under ? { name, line: under.line } : undefined;
    }
    under = { line: above, cell: over };
    at = above;
  }
  return undefined;
};

/**
 * The name over an attention line: the first line of the bill-to block it closes, on the line
 * above, or above the address the attention line closes ("Oakfield Academy" / "22 School Road" /
 * "Bath BA1 2QQ" / "Attention: Facilities").
 */
const nameAbove = (ctx: FinderContext, line: DocLine, cell: LineCell) => {
  const head = blockHeadName(ctx, line, cell);
  if (head) return head;
  let at = line;
  for (let k = 0; k <= ADDRESS_LINES; k++) {
    const above = previousContentLine(ctx.doc, at);
    const over = above && cellUnder(above, cell);
    if (!above || !over) return undefined;
    if (k === 0 && namedAfterItsStreet(ctx, over.text, line, cell)) {
      const name = cleanPartyName(over.text);
      return name ? { name, line: above } : undefined;
    }
    if (!isAddress(over.text)) {
      const name = nameIn(over, ctx.language);
      return name ? { name, line: above } : undefined;
    }
    at = above;
  }
  return undefined;
};

/** The customer an attention line names or stands under, with `confidence` as a role label's. */
export const attentionBlock = (ctx: FinderContext, confidence: number): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  for (const line of ctx.doc.lines) {
    if (line.furniture) continue;
    for (const cell of line.cells) {
      const label = attentionLabelAt(cell.text);
      if (!label) continue;
      const rest = cell.text.slice(label.end).replace(/^\s*:?\s*/, '');
      const named = rest ? cleanPartyName(withoutSalutation(rest, ctx.language)) : undefined;
      if (named && hasLegalForm(named)) {
        found.push({ value: named, confidence, line, via: 'block:customer:attention' });
        continue;
      }
      const above = nameAbove(ctx, line, cell);
      if (above) {
        found.push({
          value: above.name,
          confidence,
          line: above.line,
          via: 'block:customer:attention-above',
        });
      }
    }
  }
  return found;
};
