import { normalizeCompanyName } from '../../shared/documents/index.js';
import type { Candidate } from '../candidates.js';
import {
  type ContractRole,
  DEFINED_ROLE,
  NAME_ARTICLE,
  ON_BEHALF_OF,
  PARTIES_BETWEEN,
  PARTY_LINE_OPENING,
  PARTY_PREFIX,
  partiesAnd,
  ROLE_WORD,
} from '../vocabulary/contractWords.js';
import { withoutSalutation } from '../vocabulary/index.js';
import type { FinderContext } from './context.js';
import { cleanPartyName, isCompany, leadingName } from './partyNames.js';
import { fromSentence } from './prose.js';
import type { DocText } from './textIndex.js';
import { hasLegalForm } from './values.js';

/** How far before its defined role a party's name may start: French and Spanish descriptions run long. */
const REACH = 600;

/** A party's number in a list: "(1) ", or "2. " opening a line (a scan may read its dot as a comma). */
const PARTY_NUMBER = /\(\d\)\s*|(?<![^\n])[ \t]*\d[.,]\s+/g;

/** Where the last match of `re` in `text` ends, or -1. */
const lastEnd = (re: RegExp, text: string): number => {
  let end = -1;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    end = m.index + m[0].length;
    if (m[0].length === 0) re.lastIndex += 1;
  }
  return end;
};

/**
 * Where a party's description may start in the text before its defined role, latest first: after
 * the word that opens the list ("between", "zwischen", "ENTRE", "De una parte"), the previous
 * party's role, a ":" or ";", a party number ("(2)", "2."), an "and" that separates parties
 * ("), and", "\nund\n", ", ET"), and "on behalf of" (the person named before it signs for the
 * party). An "and" elsewhere may be inside a name ("Acme Research and Development Inc.",
 * "incorporated in England and Wales").
 */
const partyStarts = (before: string, previousRoleEnd: number, language?: string): number[] =>
  [
    ...new Set([
      previousRoleEnd,
      lastEnd(PARTIES_BETWEEN, before),
      lastEnd(partiesAnd(language), before),
      lastEnd(ON_BEHALF_OF, before),
      lastEnd(/[:;]\s*/g, before),
      lastEnd(PARTY_NUMBER, before),
    ]),
  ]
    .filter((b) => b >= 0)
    .sort((a, b) => b - a);

/** How many words a company's name and legal form may run to before a clause about it. */
const NAME_WORDS = 8;

/**
 * A company's name that a clause in lower case goes on from with no comma: "Serwis IT Kowalski
 * Sp. z o.o. z siedzibą w Krakowie", "Acme Ltd trading as Widgets". The longest run of words that
 * ends in a legal form before a word in lower case: a form's own lower-case words ("Sp. z o.o.",
 * "S.à r.l.") belong to it.
 */
const nameBeforeClause = (head: string): string | undefined => {
  const words = head.split(' ');
  for (let k = Math.min(words.length - 1, NAME_WORDS); k > 0; k--) {
    const name = words.slice(0, k).join(' ');
    if (/^\p{Ll}/u.test(words[k] ?? '') && hasLegalForm(name)) return name;
  }
  return undefined;
};

/**
 * A party's name from its description: up to its legal form where one ends a part of it, at a
 * comma or a line's end ("Muster IT GmbH, Hauptstraße 1" and "Muster IT GmbH⏎Hauptstraße 1" are
 * "Muster IT GmbH"; "Soluciones Norte, S.L., con CIF" is "Soluciones Norte, S.L."; "Wayne
 * Hospitality Group⏎LLC, with offices" is "Wayne Hospitality Group LLC"); else its first line
 * when that is a name alone, its words capitalised ("Gemeente Zwartewater" over its address);
 * else up to an address after a comma ("Anna Schmidt, Lindenweg 2"). Without a word that
 * introduces a company ("La société", "der Firma") or a person's courtesy title ("Herrn").
 */
const partyName = (description: string, language?: string): string | undefined => {
  const introduced = description
    .replace(/[ \t]+/g, ' ')
    .replace(/^[\s,;:–—-]+/, '')
    .replace(PARTY_PREFIX, '')
    .replace(NAME_ARTICLE, '');
  // A person is named without the courtesy title the contract gives them ("Herrn Max Hartmann").
  const text = withoutSalutation(introduced, language);
  for (const cut of text.matchAll(/[,\n]/g)) {
    const head = text.slice(0, cut.index).replace(/\s+/g, ' ').trim();
    if (hasLegalForm(head)) return cleanPartyName(head);
    const named = nameBeforeClause(head);
    if (named) return cleanPartyName(named);
  }
  const [firstLine = '', ...rest] = text.split('\n');
  if (rest.join('').trim() && !/(?<![\p{L}])\p{Ll}/u.test(firstLine)) {
    const alone = cleanPartyName(firstLine);
    if (alone) return alone;
  }
  const beforeAddress = text
    .replace(/\s+/g, ' ')
    .replace(/,\s+\p{Lu}[\p{L}.'-]*(?:\s[\p{L}.'-]+){0,3}\s\d.*$/u, '');
  return cleanPartyName(beforeAddress) ?? cleanPartyName(leadingName(beforeAddress));
};

/** The party of a numbered list an unquoted role names: the words after its number, up to the first in lower case. */
const listedParty = (before: string): { boundary: number; name: string } | undefined => {
  const boundary = lastEnd(PARTY_NUMBER, before);
  const name =
    boundary < 0 ? undefined : cleanPartyName(leadingName(before.slice(boundary).replace(/\s+/g, ' ')));
  return name ? { boundary, name } : undefined;
};

/**
 * The party a line names when an unquoted role in parentheses ends it, as German and Dutch
 * contracts list their parties without numbers: "Immobilien Schulte GmbH, Königstraße 40, 70173
 * Stuttgart (Vermieter)" under "zwischen". Only a company's name counts: "(Tenant)" after words
 * of a clause names nobody.
 */
const lineParty = (
  before: string,
  after: string,
  language?: string,
): { boundary: number; name: string } | undefined => {
  if (!/^[\s,;.]*(?:\n|$)/.test(after)) return undefined;
  const boundary = before.lastIndexOf('\n') + 1;
  const name = partyName(before.slice(boundary).replace(PARTY_LINE_OPENING, ''), language);
  return name && isCompany(name) ? { boundary, name } : undefined;
};

/** Where each line of `before` starts, the last first. */
const lineStarts = (before: string): number[] =>
  [...before.matchAll(/\n[ \t]*(?=\S)/g)].map((m) => m.index + m[0].length).reverse();

/**
 * The party described before a defined role: the latest start that gives a company's name (a
 * later start may cut the description short: "…, y CIF B-46000001 (en lo sucesivo, el
 * "Proveedor")"); else a line of the description that starts with one (the company a person
 * signs for, when a scan garbled "en nombre y representación de" before it); else the latest
 * start that gives any name.
 */
const describedParty = (
  before: string,
  previousRoleEnd: number,
  language?: string,
): { boundary: number; name: string } | undefined => {
  const named = (starts: number[]) =>
    starts.flatMap((boundary) => {
      const name = partyName(before.slice(boundary), language);
      return name ? [{ boundary, name }] : [];
    });
  const fromStarts = named(partyStarts(before, previousRoleEnd, language));
  const company = (found: { boundary: number; name: string }[]) => found.find((n) => isCompany(n.name));
  return company(fromStarts) ?? company(named(lineStarts(before))) ?? fromStarts[0];
};

/**
 * An unquoted role after a defined-as word names the party only right after it ("nachfolgend
 * Auftragnehmer genannt"), or after the comma or colon that follows the word and at most an
 * article ("en adelante, el prestador", "en endavant: el client"); not after a clause
 * ("hereinafter, and the Customer shall").
 */
const closeEnough = (filler: string): boolean => {
  const afterMark = /^\s*[,:]/.exec(filler);
  const words = filler
    .slice(afterMark?.[0].length ?? 0)
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return afterMark ? words.length <= 1 : !filler.includes(',') && words.length <= 3;
};

/**
 * Where the last defined term in quotes and brackets between `from` and `to` ends ('("Vertex")',
 * '(the "Provider")'): a party described after it is another than the one it defined.
 */
const definedTermEnd = (flat: string, from: number, to: number): number | undefined => {
  const term = [...flat.slice(from, to).matchAll(/["”»]\s*\)/g)].at(-1);
  return term ? from + term.index + term[0].length : undefined;
};

/**
 * Parties introduced with a defined role in running text, in any language with a vocabulary:
 * `between Acme Corp., with offices at ... ("Provider"), and Globex Inc. ("Customer")`,
 * `zwischen Muster IT GmbH, ... – nachfolgend „Auftragnehmer“ genannt – und ...`,
 * `La société Alpha Conseil SAS, ..., ci-après dénommée « le Prestataire »`, or listed with an
 * unquoted role: `(1) BRIGHT SOFTWARE LIMITED incorporated ... (Supplier).`
 */
const findDefinedParties = (ctx: FinderContext, role: ContractRole): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  const { flat } = ctx.doc;
  let previousEnd = 0;
  DEFINED_ROLE.lastIndex = 0;
  for (let m = DEFINED_ROLE.exec(flat); m; m = DEFINED_ROLE.exec(flat)) {
    const g = m.groups ?? {};
    const roleText = (g.role1 ?? g.role2 ?? g.role3 ?? '').replace(/\s+/g, ' ').trim();
    const start = m.index;
    const roleEnd = m.index + m[0].length;
    const quoted = g.open !== undefined || g.open2 !== undefined;
    const filler = g.definedAs ? m[0].slice(g.definedAs.length, m[0].indexOf(g.role2 ?? '')) : '';
    const isRole = ROLE_WORD[role].test(roleText) && (quoted || !g.definedAs || closeEnough(filler));
    const reach = Math.max(0, start - REACH, previousEnd);
    const ownEnd = previousEnd;
    previousEnd = roleEnd;
    if (!isRole) continue;
    // Another party's short name ends its description ('Vertex Cloud Operations, Inc., … ("Vertex");
    // and (2) Granite State Credit Union, … ("Customer")'): the role's party is described after it,
    // whether or not a company's legal form stands before it. Where nothing after it names one,
    // the quotes were the party's own ('Acme Ltd (formerly "Acme Widgets") ("Supplier")').
    const afterShortName = definedTermEnd(flat, reach, start);
    const pick = (from: number) => {
      const before = flat.slice(from, start);
      // An unquoted role in parentheses names a party of a numbered list only: its name follows the number.
      const party =
        g.role3 !== undefined
          ? (listedParty(before) ?? lineParty(before, flat.slice(roleEnd, roleEnd + 80), ctx.language))
          : describedParty(before, from === ownEnd && ownEnd > 0 ? 0 : -1, ctx.language);
      return party && { ...party, boundary: from + party.boundary };
    };
    const picked = (afterShortName !== undefined && pick(afterShortName)) || pick(reach);
    if (!picked) continue;
    const { boundary, name } = picked;
    found.push(
      fromSentence(
        ctx.doc,
        { start: boundary },
        { value: name, certainty: hasLegalForm(name) ? 1 : 0.9 },
        0.92,
        'prose:defined-party',
      ),
    );
  }
  return found;
};

/** Defined parties already read, per document and role: the role's finder and `otherParty` both ask. */
const DEFINED = new WeakMap<DocText, Map<ContractRole, Candidate<string>[]>>();

/**
 * Parties introduced with a defined role in running text, in any language with a vocabulary (see
 * `findDefinedParties`), read once per document and role.
 */
export const definedParties = (ctx: FinderContext, role: ContractRole): Candidate<string>[] => {
  const byRole = DEFINED.get(ctx.doc) ?? new Map<ContractRole, Candidate<string>[]>();
  DEFINED.set(ctx.doc, byRole);
  const found = byRole.get(role) ?? findDefinedParties(ctx, role);
  byRole.set(role, found);
  return found;
};

/** A short name in quotes and parentheses after a party's description: `("Cloudnine")`, `(“ABC”)`. */
const SHORT_NAME =
  /\(\s*(?:the\s+)?["“„«]\s*(\p{Lu}[\p{L}\p{N}&.-]*(?:\s\p{Lu}[\p{L}\p{N}&.-]*){0,2})\s*["”“»]\s*\)/gu;

/** Whether `short` shortens `name`: its first words ("Cloudnine" of "Cloudnine Software, Inc.") or their initials ("ABC"). */
const shortens = (short: string, name: string): boolean => {
  const words = name.split(/[\s,]+/).filter(Boolean);
  const parts = short.split(/\s+/);
  if (parts.every((p, i) => words[i]?.toLowerCase() === p.toLowerCase())) return true;
  const initials = words.map((w) => w[0] ?? '').join('');
  return short.length >= 2 && /^\p{Lu}+$/u.test(short) && initials.toUpperCase().startsWith(short);
};

/**
 * Parties given a short name of their own instead of a role (`Cloudnine Software, Inc., a Delaware
 * corporation ("Cloudnine")`), or a term no vocabulary lists as a role (`Brightwater Staffing Inc.,
 * a Delaware corporation ("Staffing Company")`): either says nothing of the party's role. A term
 * that shortens no name counts only after a company with its legal form, so that a defined
 * "Premises" or "Effective Date" names no party.
 */
const shortNamedParties = (ctx: FinderContext): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  const { flat } = ctx.doc;
  for (const m of flat.matchAll(SHORT_NAME)) {
    // The description starts after the term that defined the party before it ('("Provider") and').
    const reach = Math.max(0, m.index - REACH);
    const from = definedTermEnd(flat, reach, m.index) ?? reach;
    const picked = describedParty(flat.slice(from, m.index), -1, ctx.language);
    if (!picked) continue;
    const short = shortens(m[1] ?? '', picked.name);
    if (!short && !isCompany(picked.name)) continue;
    found.push(
      fromSentence(
        ctx.doc,
        { start: from + picked.boundary },
        { value: picked.name, certainty: short ? 1 : 0.9 },
        0.85,
        'prose:other-party',
      ),
    );
  }
  return found;
};

/**
 * The party of a two-party contract whose role is not stated, where the other's is: in `between
 * Cloudnine Software, Inc. ("Cloudnine") and Harbor Freight Logistics LLC ("Customer")` the
 * provider is Cloudnine. Only where one party has the other role and exactly one other party is
 * named.
 */
export const otherParty = (ctx: FinderContext, role: ContractRole): Candidate<string>[] => {
  if (definedParties(ctx, role).length > 0) return [];
  const other = role === 'provider' ? 'customer' : 'provider';
  const known = new Set(definedParties(ctx, other).map((c) => normalizeCompanyName(c.value)));
  if (known.size !== 1) return [];
  const rest = shortNamedParties(ctx).filter((c) => !known.has(normalizeCompanyName(c.value)));
  return new Set(rest.map((c) => normalizeCompanyName(c.value))).size === 1 ? rest : [];
};
