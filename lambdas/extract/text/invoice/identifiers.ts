import { EVIDENCE_WEIGHT, ibanChecksumValid, normalizeTaxId } from '../../../shared/documents/index.js';
import type { Candidate } from '../../candidates.js';
import { labelsIn, VAT_ID_LABEL_FIELDS } from '../../vocabulary/index.js';
import type { FinderContext } from '../context.js';
import { findLabelled, type Parsed } from '../labelled.js';
import { findAmounts } from '../parseAmount.js';
import type { DocLine } from '../textIndex.js';
import { partyBlockColumns } from './partyBlocks.js';
import { roleLabelAt } from './roleBlocks.js';

/**
 * Registration numbers and bank accounts: the vendor's VAT id and IBAN. They identify the vendor
 * (the vendor master is looked up by them) and they are exactly the values that must never be
 * read as amounts, which is why they are found by their own shapes.
 */

/**
 * An EU VAT id ("DE123456789", "FR 11 999999998", "NL123456789B01"), an Indian GSTIN or a national
 * tax number as countries print it without a country prefix: German "143/123/45678", US EIN
 * "12-3456789", Spanish NIF "B12345678" / "12345678Z", the Latin American registrations with their
 * check digits (Brazilian CNPJ "12.345.678/0001-90" and CPF, Colombian NIT "900.123.456-7",
 * Argentine CUIT "30-71234567-9", Chilean RUT "76.543.210-K"), the Hungarian adószám "12345678-2-13"
 * and Finnish Y-tunnus "2345678-9", the Polish NIP in either grouping ("526-104-82-73",
 * "526-10-48-273"), and registration numbers of 8 to 14 digits,
 * grouped or not (Italian partita IVA "12345678901", SIREN and SIRET, Belgian "0123.456.789"); a
 * prefixed id's groups may be split by spaces, dots or hyphens (Swiss UID "CHE-123.456.789").
 * An id never stops where a number goes on after a decimal mark: "VAT (7%)  EUR 38.197,08" is a
 * tax amount, whose "EU" + "R 38.197" would otherwise read as an EU VAT id.
 */
const TAX_ID =
  /^(?:([A-Z]{2})\s?((?:[0-9A-Z][\s.-]?){2,13}[0-9A-Z])|(\d{2}[A-Z]{5}\d{4}[A-Z][A-Z\d]Z[A-Z\d])|(\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}|\d{3}\.\d{3}\.\d{3}-\d{1,2}|\d{2}-\d{8}-\d|\d{1,2}\.\d{3}\.\d{3}-[\dK]|\d{2,3}\/\d{3,4}\/\d{4,5}|\d{2}-\d{7}|\d{8}-\d-\d{2}|\d{7}-\d|[A-Z]\d{7}[A-Z\d]|\d{8}[A-Z]|\d(?:[\s.]?\d){7,13})|(\d{3}-(?:\d{3}-\d{2}-\d{2}|\d{2}-\d{2}-\d{3})))(?![\p{L}\d]|[.,]\d)/u;

/**
 * Whether `text` opens with an amount in a currency, with its two decimals ("CHF 95.79", "EUR
 * 38.197,08"): a tax amount after a "VAT" label, whose code would pass for a country prefix. A
 * Swiss UID printed "CHE 123.456.789" (CHE is also a currency code) has no two decimals, so it
 * stays an id.
 */
const opensWithMoney = (text: string): boolean => {
  const first = findAmounts(text, { bare: false })[0];
  return first?.start === 0 && first.currency !== undefined && /\.\d{2}$/.test(first.amount);
};

/** Reads a tax id at the start of a label's value. */
export const parseTaxId = (printed: string): Parsed<string> | undefined => {
  const text = printed.trim();
  if (opensWithMoney(text)) return undefined;
  const m = TAX_ID.exec(text);
  if (!m) return undefined;
  // A word after the id is not part of it: the "MVA" of "NO 123 456 789 MVA", the "MWST" of a
  // Swiss UID; an id's own groups always hold a digit.
  const national = m[2]?.replace(/(?:\s+[A-Z]+)+$/, '');
  // Separators go; a national number keeps its own ("12-3456789", "143/123/45678"), but for the
  // Polish NIP (group 5), whose two groupings ("526-104-82-73", "526-10-48-273") are one number.
  const value = m[1]
    ? `${m[1]}${national}`.replace(/[\s.-]/g, '')
    : m[5]
      ? m[5].replace(/-/g, '')
      : (m[3] ?? m[4] ?? '').replace(/[\s.]/g, '');
  if (!/\d{4}/.test(value.replace(/\D/g, '')) || value.length < 5) return undefined;
  // A Norwegian organisation number followed by "MVA" is, by law, the business's VAT registration
  // ("Org.nr 998 877 665 MVA"), the same id as "NO 998 877 665 MVA".
  if (!m[1] && /^\d{9}$/.test(value) && /^\s*MVA\b/.test(text.slice(m[0].length)))
    return { value: `NO${value}` };
  return { value };
};

/** An IBAN as printed, in groups of four or not. */
const IBAN = /\b([A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,4})?)\b/;

/**
 * Reads an IBAN (spaces removed) whose check digits hold. An IBAN whose length is a multiple of
 * four (Spanish, Belgian, Austrian) leaves its last group full, so the pattern's short final group
 * also takes a word that follows ("... 1332 BIC"): without that word, the check digits say whether
 * the rest is the IBAN.
 */
export const parseIban = (text: string): Parsed<string> | undefined => {
  const printed = IBAN.exec(text)?.[1];
  if (!printed) return undefined;
  for (const reading of [printed, printed.replace(/\s[A-Z]{1,4}$/, '')]) {
    const value = reading.replace(/\s+/g, '');
    if (ibanChecksumValid(value)) return { value };
  }
  return undefined;
};

/**
 * The vendor's VAT or tax id: what a VAT-id label names (a customer's VAT label is a label of its
 * own, and a VAT id in the customer's block is the customer's). A weak label names another
 * registration (KvK, SIRET, Steuernummer, codice fiscale): its number stands in when no VAT id is
 * printed, but below the doubt floor, because printed beside a VAT id it is a second identifier,
 * not a second reading of the same one.
 */
export const vatIdCandidates = (ctx: FinderContext): Candidate<string>[] => {
  const customerBlocks = partyBlockColumns(ctx, 'customer');
  const vendorBlocks = partyBlockColumns(ctx, 'vendor');
  return findLabelled(ctx.doc, 'vatId', parseTaxId, {
    confidence: 0.8,
    weakConfidence: 0.5,
    midCell: 'loose',
    furniture: true,
    via: 'label:vat-id',
  })
    .map((c) => {
      const customer = customerBlocks.get(c.line.index);
      const vendor = vendorBlocks.get(c.line.index);
      if (customer !== undefined && vendor !== undefined) return besideBlocks(c, vendor, customer);
      if (inBlock(c.line, customer)) return customersId(c);
      if (inBlock(c.line, vendor)) return sellersId(c);
      const party = labelLineParty(c.line);
      return party === 'customer' ? customersId(c) : party === 'vendor' ? sellersId(c) : c;
    })
    .map((c, _, all) => ({ ...c, value: prefixedTwin(c.value, all) ?? c.value }));
};

/**
 * The VAT id among `all` that is `value`'s registration with its country prefix: the Croatian
 * OIB "36127415562" is "HR36127415562", the Slovenian davčna številka "12345679" is
 * "SI12345679", the Hungarian adószám "12345678-2-13" is "HU12345678" (its first eight digits).
 * Printed side by side they are one registration twice, not two that contradict each other.
 */
const prefixedTwin = (value: string, all: readonly Candidate<string>[]): string | undefined => {
  if (/^[A-Z]{2}/.test(value)) return undefined;
  const digits = value.replace(/\D/g, '');
  const hungarian = /^\d{8}-\d-\d{2}$/.test(value);
  return all.find((c) => {
    const national = /^[A-Z]{2}(\d+)$/.exec(c.value)?.[1];
    return national !== undefined && (national === digits || (hungarian && digits.slice(0, 8) === national));
  })?.value;
};

/** How close (in characters) a cell must start to a block's label to be in the block's column. */
const COLUMN_SLACK = 10;

/**
 * The party a role label opening the line names on it ("Cliente: Promociones Levante S.L. · CIF
 * B98765432"): what the line states is that party's. None where the other party's label is on the
 * line too.
 */
const labelLineParty = (line: DocLine): 'vendor' | 'customer' | undefined => {
  const first = line.cells[0]?.text ?? '';
  const role = (['customer', 'vendor'] as const).find((r) => roleLabelAt(first, r)?.colon);
  const other = role === 'customer' ? 'vendor' : 'customer';
  return role && !line.cells.some((c) => roleLabelAt(c.text, other)) ? role : undefined;
};

/** The line's VAT-id label stands in the column of the block that starts at `column`. */
const inBlock = (line: DocLine, column: number | undefined): boolean =>
  column !== undefined &&
  line.cells.some(
    (c) => Math.abs(c.start - column) <= COLUMN_SLACK && labelsIn(c.text, VAT_ID_LABEL_FIELDS).length > 0,
  );

/**
 * A VAT id on a line of two blocks side by side ("VAT No: GB123456789      VAT No: GB987654321"
 * under "From      Bill to") is the party's whose column its cell stands in: the block that
 * starts nearest left of it. A value whose cell is not found stays as it was read.
 */
const besideBlocks = (c: Candidate<string>, vendor: number, customer: number): Candidate<string> => {
  const id = normalizeTaxId(c.value);
  const start = c.line.cells.find((cell) => normalizeTaxId(cell.text).includes(id))?.start;
  if (start === undefined) return c;
  const [left, right] = vendor < customer ? [vendor, customer] : [customer, vendor];
  const column = start + COLUMN_SLACK >= right ? right : left;
  return column === customer ? customersId(c) : sellersId(c);
};

/**
 * A VAT id in the customer's block ("Käufer: … USt.-Id.-Nr. : DE136695976") is the customer's:
 * under the doubt floor, so it neither stands for the vendor's nor contradicts the seller's own.
 */
const customersId = (c: Candidate<string>): Candidate<string> => ({
  ...c,
  confidence: Math.min(c.confidence, CUSTOMER_BLOCK_CONFIDENCE),
  via: `${c.via}:customer-block`,
});

const CUSTOMER_BLOCK_CONFIDENCE = 0.45;

/**
 * A VAT id in the seller's block ("Verkäufer: … USt.-Id.-Nr. : DE123456789") is the one to read
 * first where another party's (a tax representative's) is printed too.
 */
const sellersId = (c: Candidate<string>): Candidate<string> => ({
  ...c,
  confidence: c.confidence + SELLER_BLOCK_BONUS,
  via: `${c.via}:seller-block`,
});

const SELLER_BLOCK_BONUS = 0.05;

/** The IBAN the invoice asks to be paid to: labelled, or printed alone; its check digits are evidence. */
export const ibanCandidates = (ctx: FinderContext): Candidate<string>[] => {
  const labelled = findLabelled(ctx.doc, 'iban', parseIban, {
    confidence: 0.8,
    midCell: 'loose',
    furniture: true,
    via: 'label:iban',
  });
  const seen = new Set(labelled.map((c) => c.line.index));
  const bare: Candidate<string>[] = [];
  for (const line of ctx.doc.lines) {
    if (seen.has(line.index)) continue;
    const parsed = parseIban(line.text);
    if (parsed)
      bare.push({ value: parsed.value, confidence: 0.55, reading: 'position', line, via: 'iban-shape' });
  }
  return [...labelled, ...bare].map((c) => ({
    ...c,
    evidence: [{ kind: 'checksum', weight: EVIDENCE_WEIGHT.checksum, detail: 'IBAN check digits hold' }],
  }));
};
