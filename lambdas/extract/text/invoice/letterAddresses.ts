import { normalizeCompanyName } from '../../../shared/documents/index.js';
import type { Candidate } from '../../candidates.js';
import {
  documentTypeCue,
  IDENTIFIER_LABEL_FIELDS,
  labelsAtStart,
  labelsIn,
  VAT_ID_LABEL_FIELDS,
  withoutSalutation,
} from '../../vocabulary/index.js';
import type { FinderContext } from '../context.js';
import { cleanPartyName, POSTCODE_TOWN, STREET } from '../partyNames.js';
import type { DocLine } from '../textIndex.js';
import { hasLegalForm, NUMBER_MARK_SOURCE } from '../values.js';
import { isDetailLine, isFormLine } from './roleBlocks.js';

/**
 * The addresses of a letter's first page: the sender's return address and the recipient's
 * window address, as envelopes and their windows place them. Where no label names the customer,
 * the window names it.
 */

/** Separators of a one-line address ("Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen"). */
export const ADDRESS_SEPARATOR = /\s+[●•·|–—]\s+|\s+-\s+|\s{2,}[●•·|]\s*/;
/**
 * The return address's separators, also as OCR reads a middle dot: a colon or semicolon with
 * spaces on both sides ("Anna Schmidt - Grafikdesign : Lindenweg 2 : 04109 Leipzig").
 */
const RETURN_ADDRESS_SEPARATOR = new RegExp(`${ADDRESS_SEPARATOR.source}|\\s+[:;]\\s+`);

/**
 * A number's label, its mark last ("E-Way Bill No.", "Auftrags-Nr."): a form's row whose colons
 * split it like a return address ("E-Way Bill No. : 2419 8812 3377   Place of Supply : Gujarat").
 */
const ENDS_WITH_NUMBER_MARK = new RegExp(`(?<![\\p{L}])(?:${NUMBER_MARK_SOURCE})\\.?$`, 'iu');

/** The first page's first content lines, where a letter's addresses are. */
export const letterTop = (ctx: FinderContext): DocLine[] =>
  ctx.doc.lines.filter((l) => l.page === ctx.doc.lines[0]?.page && !l.furniture).slice(0, 15);

/** A line's parts, where it is a one-line return address (a name, then a postcode and town among three parts or more). */
export const returnAddressParts = (line: DocLine): string[] | undefined => {
  const parts = line.text
    .split(RETURN_ADDRESS_SEPARATOR)
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length >= 3 && parts.slice(1).some((p) => POSTCODE_TOWN.test(p)) ? parts : undefined;
};

/** The sender's one-line return address above the recipient's window ("Name ● Street ● Town"). */
export const returnAddress = (ctx: FinderContext): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  for (const line of letterTop(ctx)) {
    const parts = returnAddressParts(line);
    if (!parts) continue;
    // The name is the cell next to the address: a logo misread by OCR may sit in a cell before it.
    const lead = (parts[0] as string).split(/\s{2,}/);
    const name = cleanPartyName(lead.filter(hasLegalForm).at(-1) ?? (lead.at(-1) as string));
    // "NIF 48765432K · C/ Colón 22 · 46004 Valencia": a sole trader's tax number before the
    // address, under the name, is no name.
    const identifier =
      name !== undefined &&
      (labelsAtStart(name, IDENTIFIER_LABEL_FIELDS).length > 0 ||
        ENDS_WITH_NUMBER_MARK.test(parts[0] as string));
    if (!name || identifier || (STREET.test(name) && !hasLegalForm(name))) continue;
    // Under a company's name with its legal form, a line whose name has none ("Énergie Rhône-Alpes
    // SA" over "Service Clients – TSA 20012 – 69901 Lyon") gives a department's address: the
    // company sends, as its letterhead says, and the department names nobody.
    if (!hasLegalForm(name) && companyAbove(ctx, line)) continue;
    found.push({ value: name, confidence: 0.7, reading: 'position', line, via: 'return-address' });
  }
  return found;
};

/** Whether a company's name with its legal form stands alone on the line right above `line`. */
const companyAbove = (ctx: FinderContext, line: DocLine): boolean => {
  const above = ctx.doc.lines[line.index - 1];
  if (!above || above.page !== line.page || above.furniture || above.cells.length !== 1) return false;
  const name = cleanPartyName(above.text);
  return name !== undefined && hasLegalForm(name);
};

/**
 * What a name is not: an address, a contact, a web address or a number. A telephone's label in the
 * languages' spellings ("Tél.", "Téléphone", "Telefon", "Teléfono", "Tlf.").
 */
export const NOT_A_NAME =
  /@|www\.|https?:|^\d|(?<!\p{L})(?:t[eé]l(?:[eé]phone|efon|[eé]fono)?|tlf|phone|fax|e-?mail)(?!\p{L})/iu;

/** A line of a letter's top that names nobody: a contact, a detail line, a label and its value. */
const namesNobody = (line: DocLine, text: string): boolean =>
  NOT_A_NAME.test(text) || isDetailLine(line) || labelsAtStart(text).length > 0;

/** The recipient's address block of a window-envelope invoice (a company alone on its line, then an address). */
export const recipientBlock = (ctx: FinderContext): Candidate<string>[] => {
  const page = letterTop(ctx).slice(0, 12);
  const found: Candidate<string>[] = [];
  page.forEach((line, i) => {
    const address = page.slice(i + 1, i + 3);
    if (i === 0 || line.cells.length !== 1 || !address.some((l) => /\d/.test(l.text))) return;
    if (/:\s*$/.test(page[i - 1]?.text ?? '')) return;
    const name = cleanPartyName(line.text);
    if (name && hasLegalForm(name) && name === line.text.trim()) {
      found.push({ value: name, confidence: 0.75, reading: 'position', line, via: 'recipient-block' });
    }
  });
  return found;
};

/** How many lines under the addressee's name its postcode and town may come ("Herrn", street, c/o). */
const ADDRESS_LINES = 4;

/** The lines at the page's top the sender's own block may take before its postcode and town. */
const SENDER_BLOCK_LINES = 4;

/**
 * A return address written with commas ("Getränke Schulte GmbH & Co. KG, Eckendorfer Str. 71,
 * 33609 Bielefeld"): a company's name that a line above prints too, then its street and its
 * postcode and town. Commas alone join any address, so only the sender's name repeated says so.
 */
const repeatsSenderWithCommas = (line: DocLine, above: readonly DocLine[]): boolean => {
  const parts = line.text.trim().split(/,\s+/);
  const name = parts[0] ?? '';
  if (parts.length < 3 || line.cells.length !== 1 || !hasLegalForm(name)) return false;
  if (!parts.slice(1).some((p) => POSTCODE_TOWN.test(p))) return false;
  const key = normalizeCompanyName(name);
  return above.some((l) => l.cells.some((c) => normalizeCompanyName(c.text) === key));
};

/**
 * Where the sender's address ends on the page's top lines: its one-line return address, or, where
 * there is none and `unlabelled` (no label names the customer), the postcode and town that close
 * the block the page opens with (its name, its street: "Papeterie du Centre SARL" / "4 place de
 * la République" / "37000 Tours"). `block` tells the second.
 */
const senderEnd = (
  top: readonly DocLine[],
  unlabelled: boolean,
): { index: number; block: boolean } | undefined => {
  const returnLine = top.findIndex(
    (l, i) => returnAddressParts(l) !== undefined || repeatsSenderWithCommas(l, top.slice(0, i)),
  );
  if (returnLine >= 0) return { index: returnLine, block: false };
  const closed = unlabelled
    ? top.slice(0, SENDER_BLOCK_LINES).findIndex((l) => POSTCODE_TOWN.test(l.text))
    : -1;
  return closed >= 0 ? { index: closed, block: true } : undefined;
};

/**
 * The addressee of a window envelope: the first name under the sender's one-line return address
 * ("Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen" over "Theodor Est", "Bahnstr. 42", "88802
 * Spielkreis"), past contact and detail lines, titles and labels, with a postcode and town under
 * it. A person or a shop has no legal form, so only that place says it is the customer: a guess
 * under the doubt floor.
 *
 * Where no label names the customer (`unlabelled`), the sender's own address block closes the
 * same way ("Papeterie du Centre SARL" / "4 place de la République" / "37000 Tours" over
 * "Cabinet Dentaire Moreau" / "12 rue Nationale" / "37000 Tours"). Without the return address's
 * line that marks the window, the name must come before the document's title (a window address
 * always does) and is a weaker guess. Where neither names one, the block over the issuer's
 * imprint may (`overImprint`).
 */
export const addressee = (ctx: FinderContext, unlabelled: boolean): Candidate<string>[] => {
  const top = letterTop(ctx);
  const sender = senderEnd(top, unlabelled);
  const found = sender ? underSender(top, sender, ctx.language) : [];
  return found.length > 0 || !unlabelled ? found : overImprint(ctx, top);
};

/** The first name under the sender's address (`addressee`). */
const underSender = (
  top: readonly DocLine[],
  sender: { index: number; block: boolean },
  language: string | undefined,
): Candidate<string>[] => {
  for (const [i, line] of top.entries()) {
    if (i <= sender.index) continue;
    const text = line.cells[0]?.text.trim() ?? '';
    if (sender.block && documentTypeCue(text)) return [];
    // A second one-line address under the first ("Rosenheimer Straße 145 · 81671 München · Tel."
    // under the letterhead's name, then the return address) is the sender's, not the window's.
    if (namesNobody(line, text) || isFormLine(line) || documentTypeCue(text) || returnAddressParts(line))
      continue;
    const person = withoutSalutation(text, language).trim();
    if (person === '') continue;
    const name = cleanPartyName(person);
    const below = top.slice(i + 1, i + 1 + ADDRESS_LINES);
    if (!name || STREET.test(name) || !below.some((l) => POSTCODE_TOWN.test(l.text))) return [];
    const confidence = sender.block ? 0.65 : 0.7;
    return [
      {
        value: name,
        confidence,
        reading: 'position',
        line,
        via: sender.block ? 'addressee:under-sender' : 'addressee',
      },
    ];
  }
  return [];
};

/** Lines between a name and its postcode and town that are no street: a c/o, a PO box. */
const POSTAL_LINE = /^(?:c\/o|box|postbox|postboks|postfach|p\.?\s?o\.?\s?box|apartado|casella postale)\b/i;

/** How many lines an imprint may take around its VAT id's: its name and address, its register, its bank. */
const IMPRINT_REACH = 2;

/**
 * The issuer's imprints: each line with a VAT id's label and the lines around it on its page,
 * one text, where one of them prints a postcode and town ("Heizung Kremer GmbH · Aachener Str.
 * 200 · 50931 Köln" over "Geschäftsführer: … · USt-IdNr.: DE278912345").
 */
const imprintsOf = (ctx: FinderContext): string[] =>
  ctx.doc.lines
    .filter((l) => labelsIn(l.text, VAT_ID_LABEL_FIELDS).length > 0)
    .map((l) =>
      ctx.doc.lines
        .slice(Math.max(0, l.index - IMPRINT_REACH), l.index + IMPRINT_REACH + 1)
        .filter((near) => near.page === l.page),
    )
    .filter((near) => near.some((n) => POSTCODE_TOWN.test(n.text)))
    .map((near) => near.map((n) => n.text).join('\n'));

/**
 * The addressee's block at the top of a page whose issuer prints its own address only in its
 * imprint, the line with its VAT id ("Holzbau Gruber · Inh. Josef Gruber · Innstraße 5 · 6020
 * Innsbruck · UID ATU12345678"), as Nordic and Austrian letters do: the first name over a street
 * or PO box and a postcode and town, before the title, whose street the imprint does not print
 * ("Familie Steiner" / "Bergweg 14" / "6020 Innsbruck"). A sender's own block ("Müller
 * Elektrotechnik" / "Max Müller" / "Hauptstr. 1") is the one the imprint repeats. A guess.
 */
const overImprint = (ctx: FinderContext, top: readonly DocLine[]): Candidate<string>[] => {
  const imprints = imprintsOf(ctx);
  if (imprints.length === 0) return [];
  for (const [i, line] of top.entries()) {
    const text = line.cells[0]?.text.trim() ?? '';
    if (documentTypeCue(text) || isFormLine(line)) return [];
    if (namesNobody(line, text)) continue;
    const name = cleanPartyName(withoutSalutation(text, ctx.language).trim());
    const below = top.slice(i + 1, i + 1 + ADDRESS_LINES);
    const closes = below.findIndex((l) => POSTCODE_TOWN.test(l.text));
    const address = below.slice(0, Math.max(closes, 0)).map((l) => l.text.trim());
    if (!name || STREET.test(name) || closes < 1) continue;
    if (!address.every((a) => STREET.test(a) || POSTAL_LINE.test(a))) continue;
    if (imprints.some((imprint) => address.some((a) => imprint.includes(a)))) return [];
    return [{ value: name, confidence: 0.65, reading: 'position', line, via: 'addressee:over-imprint' }];
  }
  return [];
};

/**
 * Addressees whose place says they are not the issuer a letterhead or legal-details guess would
 * make them: a company's window address under the sender's own address block ("Sanne de Wit
 * Vertalingen" / "Oude Gracht 88, 3511 AT Utrecht" over "Uitgeverij Noorderlicht B.V." /
 * "Herestraat 12"), where a postcode and town above it close another party's block; and the
 * block at the top of a page whose imprint prints another address (`overImprint`).
 */
export const addresseesNotSender = (ctx: FinderContext, customers: readonly Candidate<string>[]): string[] =>
  customers
    .filter(
      (c) =>
        c.via === 'addressee:over-imprint' ||
        (c.via === 'recipient-block' &&
          ctx.doc.lines
            .slice(0, c.line.index)
            .some((l) => l.page === c.line.page && !l.furniture && POSTCODE_TOWN.test(l.text))),
    )
    .map((c) => normalizeCompanyName(c.value));
