import { normalizeCompanyName } from '../../../shared/documents/index.js';
import type { Candidate } from '../../candidates.js';
import { documentTypeCue, labelsAtStart, OWNER_CUE, SELF_BILLING } from '../../vocabulary/index.js';
import type { FinderContext } from '../context.js';
import { cleanPartyName, isCompany, isNameConnector, POSTCODE_TOWN } from '../partyNames.js';
import type { DocLine } from '../textIndex.js';
import { hasLegalForm } from '../values.js';
import { attentionBlock } from './attention.js';
import {
  ADDRESS_SEPARATOR,
  addressee,
  addresseesNotSender,
  NOT_A_NAME,
  recipientBlock,
  returnAddress,
} from './letterAddresses.js';
import { isDetailLine, isFormLine, roleBlock, roleLabelAt } from './roleBlocks.js';

/**
 * Who issued the invoice and who receives it. The vendor is the issuer: the party a seller label
 * names (Seller, Verkäufer, Lieferant, fournisseur, leverancier, ...), the sender's return-address
 * line above a window-envelope address, the letterhead, and the company whose legal details
 * (register, managing director, VAT id, IBAN) sit beside its name. A name found in a bill-to,
 * ship-to or buyer block is the customer's and is never taken as the vendor; a ship-to block's
 * only weakly, since goods may go elsewhere than the bill.
 */

/** A line of legal or bank details: a company's name near it is the issuer's. */
const LEGAL_DETAILS =
  /\b(?:geschäftsführ\w*|handelsregister\w*|registergericht|amtsgericht|hr[ab]\s?(?:nr\.?\s*)?\d|registered\s+(?:office|in|number)|company\s+(?:no|number|reg)|capital|capital social|au capital|siret|siren|rcs|kvk|iban|bic|swift|ust-?id\w*|vat\s*(?:reg|no|id|number)|p\.?\s?iva|partita iva|nif|cif)\b/i;

/**
 * Company names in a cell, for the letterhead and the legal details; none where a customer label
 * leads, nor where an owner's cue does ("Inh. Maria Gruber e.K." under "Hotel Alpenblick": the
 * owner's registered name, not the name the business bills under).
 */
const cellNames = (text: string): string[] =>
  roleLabelAt(text, 'customer') || OWNER_CUE.test(text.trim())
    ? []
    : afterIssuerTitle(text)
        .split(ADDRESS_SEPARATOR)
        .map((s) => cleanPartyName(s))
        .filter((n): n is string => n !== undefined);

/**
 * The issuer's name after a title that says who issued it ("Invoice from Northbeam Analytics,
 * Inc.", "Receipt from Notable Labs, Inc.", as online billing services head their documents): a
 * document type or another single word, then a seller's label. Any other text is returned as it
 * is; the letterhead takes only a company's name from it.
 */
const afterIssuerTitle = (text: string): string => {
  const cue = documentTypeCue(text);
  const titled = cue !== undefined && text.slice(0, cue.start).trim() === '';
  const end = titled ? cue.end : /^\s*\p{L}+/u.exec(text)?.[0].length;
  if (end === undefined) return text;
  const rest = text.slice(end);
  const label = labelsAtStart(rest).find((m) => m.field === 'vendor');
  // After a word that names no document, a seller's label that is also a name's particle is the
  // name's ("Installatiebedrijf Van Dijk B.V.", the Dutch "van" being "from" too).
  const particle =
    !titled && label !== undefined && isNameConnector(rest.slice(label.start, label.end).trim());
  return label && !particle && rest.slice(0, label.start).trim() === '' ? rest.slice(label.end) : text;
};

/**
 * The company at the top of the first page: on its first three lines with a word on them that are
 * not form lines. A logo that OCR read as a few stray letters ("4", "g-", "an") is no line of the
 * page's text. A name with a legal form there is probably the issuer's, unless a customer block
 * names it (`addressees`: an addressee's block may start that high). Where there is none, the
 * first of those lines may still be the issuer's name alone ("Craig's Design and Landscaping
 * Services" over its street): a guess under the doubt floor that only the vendor master can
 * confirm, and that contradicts no other reading.
 */
const letterhead = (ctx: FinderContext, addressees: ReadonlySet<string>): Candidate<string>[] => {
  // A letterhead printed on every page is a running header too: on the first page's top lines it
  // still names the issuer.
  const top = ctx.doc.lines
    .filter(
      (l) =>
        l.page === ctx.doc.lines[0]?.page &&
        (!l.furniture || l.line <= 2) &&
        /\p{L}{3}/u.test(l.text) &&
        !isFormLine(l),
    )
    .slice(0, 3);
  for (const line of top) {
    const names = line.cells.flatMap((c) => cellNames(c.text));
    // The addressee's block may start within those lines ("Spett.le" over "Studio Rossi S.r.l.").
    // A legal form needs a name before it: a table's "Lp." (Polish "No.") is no limited partnership.
    const name = names.find((n) => isCompany(n) && !addressees.has(normalizeCompanyName(n)));
    if (name) return [{ value: name, confidence: 0.6, reading: 'position', line, via: 'letterhead' }];
  }
  const first = top[0]?.furniture ? undefined : top[0];
  const cell = first?.cells[0]?.text.trim();
  const plain = cell && !NOT_A_NAME.test(cell) && !POSTCODE_TOWN.test(cell) ? plainName(cell) : undefined;
  const named: Candidate<string>[] =
    first && plain && !isDetailLine(first) && !documentTypeCue(plain)
      ? [{ value: plain, confidence: 0.5, reading: 'position', line: first, via: 'letterhead:plain' }]
      : [];
  return [...named, ...runningHeader(ctx)];
};

/**
 * A cell that is a name and nothing else, or a name with what its bearer does after a dash
 * ("Camille Martin - Développeuse web", "Jan de Vries | Fotografie"), as sole traders head
 * their page.
 */
const plainName = (cell: string): string | undefined => {
  if (cleanPartyName(cell) === cell) return cell;
  const head = /^(.+?)\s[-–|]\s/.exec(cell)?.[1]?.trim();
  return head && cleanPartyName(head) === head ? head : undefined;
};

/** A running header that names the issuer before the document type ("Orion Inc. - Invoice 42"). */
const runningHeader = (ctx: FinderContext): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  for (const line of ctx.doc.lines.filter((l) => l.furniture)) {
    const cue = documentTypeCue(line.text);
    const before = cue && /^(.+?)\s+-\s+$/.exec(line.text.slice(0, cue.start));
    const name = before?.[1] && cleanPartyName(before[1]);
    if (name) found.push({ value: name, confidence: 0.7, reading: 'position', line, via: 'running-header' });
  }
  return found;
};

/** A company name next to legal or bank details (a footer, an imprint). */
const legalDetails = (ctx: FinderContext): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  const lines = ctx.doc.lines;
  for (const line of lines) {
    if (!LEGAL_DETAILS.test(line.text)) continue;
    for (let i = Math.max(0, line.index - 3); i <= Math.min(lines.length - 1, line.index + 3); i++) {
      const near = lines[i] as DocLine;
      if (near.page !== line.page) continue;
      for (const name of near.cells.flatMap((c) => cellNames(c.text))) {
        if (hasLegalForm(name)) {
          found.push({
            value: name,
            confidence: 0.55,
            reading: 'position',
            line: near,
            via: 'legal-details',
          });
        }
      }
    }
  }
  return found;
};

/** How sure a payee label makes its party the vendor: under the letterhead's 0.6. */
const PAYEE_CONFIDENCE = 0.58;

/**
 * "Make cheques payable to X", "Please make payment to X": who is paid, in prose. As with a payee
 * label, that is the issuer unless the invoice was assigned to a factor or the sentence names the
 * bank ("make payment to DBS Bank, Account No. ..."): a guess under the letterhead's company.
 */
const payeeProse = (ctx: FinderContext): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  const re =
    /\b(?:make\s+(?:payment|checks?|cheques?)\s+(?:payable\s+)?to|payable\s+to|remit\s+(?:payment\s+)?to)\s+/i;
  for (const line of ctx.doc.lines) {
    const m = re.exec(line.text);
    const name = m && cleanPartyName(line.text.slice(m.index + m[0].length));
    if (name)
      found.push({
        value: name,
        confidence: PAYEE_CONFIDENCE,
        reading: 'position',
        line,
        via: 'prose:payable-to',
      });
  }
  return found;
};

/** Customer-side names: what a buyer, bill-to or ship-to label names (for excluding them as vendor). */
const customerNames = (customers: readonly Candidate<string>[]): Set<string> =>
  new Set(
    customers.filter((c) => c.via.startsWith('block:customer')).map((c) => normalizeCompanyName(c.value)),
  );

/**
 * A name without a legal form that starts another candidate's name with one ("NORDWIND" over the
 * page, "Nordwind Segeltechnik GmbH" in the imprint): a brand or a short name of that company,
 * which the legal name names.
 */
const withLegalName = (c: Candidate<string>, all: readonly Candidate<string>[]): Candidate<string> => {
  if (hasLegalForm(c.value)) return c;
  const short = normalizeCompanyName(c.value);
  if (short.length < 4) return c;
  const legal = all.find(
    (o) => hasLegalForm(o.value) && normalizeCompanyName(o.value).startsWith(`${short} `),
  );
  return legal ? { ...c, value: legal.value, via: `${c.via}:legal-name` } : c;
};

/** True when the document carries a self-billing mention: the customer issued it. */
export const isSelfBilled = (ctx: FinderContext): boolean =>
  ctx.doc.lines.some((l) => SELF_BILLING.test(l.text));

/**
 * A self-billed invoice's parties: the customer wrote it, so the places that name an issuer
 * (return address, letterhead, legal details) name the customer, and the window (the addressee,
 * a recipient block) names the supplier, who is paid. What role labels name stays theirs.
 */
const selfBilledParties = (
  ctx: FinderContext,
): { vendor: Candidate<string>[]; customer: Candidate<string>[] } => {
  const labelledCustomer = [...roleBlock(ctx, 'customer', 0.85), ...attentionBlock(ctx, 0.85)];
  const labelledVendor = roleBlock(ctx, 'vendor', 0.85);
  const window = [...recipientBlock(ctx), ...addressee(ctx, true)];
  const issuer = [...returnAddress(ctx), ...letterhead(ctx, new Set()), ...legalDetails(ctx)];
  const names = (cs: readonly Candidate<string>[]) => new Set(cs.map((c) => normalizeCompanyName(c.value)));
  const labelledVendors = names(labelledVendor);
  const labelledCustomers = names(labelledCustomer);
  const windowNames = names(window);
  return {
    vendor: [...labelledVendor, ...window, ...payeeProse(ctx)].filter(
      (c) => !labelledCustomers.has(normalizeCompanyName(c.value)),
    ),
    customer: [...labelledCustomer, ...issuer].filter(
      (c) =>
        !labelledVendors.has(normalizeCompanyName(c.value)) &&
        (c.via.startsWith('block:') || !windowNames.has(normalizeCompanyName(c.value))),
    ),
  };
};

/** The vendor's and the customer's candidates; `selfBilled` as `isSelfBilled` tells, read once per document. */
export const partyCandidates = (
  ctx: FinderContext,
  selfBilled: boolean,
): { vendor: Candidate<string>[]; customer: Candidate<string>[] } => {
  if (selfBilled) return selfBilledParties(ctx);
  // A block that repeats the return address's company is the sender's own, wherever it stands
  // (on the right, under the window).
  const sender = returnAddress(ctx);
  const senders = new Set(sender.map((c) => normalizeCompanyName(c.value)));
  const recipients = recipientBlock(ctx).filter((c) => !senders.has(normalizeCompanyName(c.value)));
  const named = [...roleBlock(ctx, 'customer', 0.85), ...attentionBlock(ctx, 0.85), ...recipients];
  const customer = [...named, ...addressee(ctx, named.length === 0)];
  const excluded = new Set([...customerNames(customer), ...addresseesNotSender(ctx, customer)]);
  const vendor = [
    ...roleBlock(ctx, 'vendor', 0.85),
    // Who is paid ("Remit To: Triumph Business Capital") is the issuer unless the invoice was
    // assigned to a factor: a guess under the letterhead's company, which it never contradicts.
    ...roleBlock(ctx, 'payee', PAYEE_CONFIDENCE).map((c) => ({ ...c, reading: 'position' as const })),
    ...sender,
    ...letterhead(ctx, excluded),
    ...legalDetails(ctx),
    ...payeeProse(ctx),
  ]
    .filter((c) => !excluded.has(normalizeCompanyName(c.value)))
    .map((c, _, all) => withLegalName(c, all));
  const vendorNames = new Set(vendor.map((c) => normalizeCompanyName(c.value)));
  // A recipient-block guess that is in fact the sender (its name also heads the page) is not the customer.
  return {
    vendor,
    customer: customer.filter(
      (c) => c.via.startsWith('block:') || !vendorNames.has(normalizeCompanyName(c.value)),
    ),
  };
};
