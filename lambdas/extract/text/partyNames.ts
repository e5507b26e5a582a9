/**
 * Party names as documents print them: where a company's or a person's name ends (before an
 * address, a defined term, a label and its value, one of its numbers), and the name a party's
 * description opens with.
 */
import { hasLegalForm } from '../../shared/documents/index.js';
import {
  fold,
  type LabelField,
  labelsAtStart,
  labelsIn,
  OWNER_AFTER_NAME,
  SHARE_CAPITAL,
} from '../vocabulary/index.js';
import type { Parsed } from './parsed.js';

/** A company's name: one with a legal form and a word before it ("LLC" alone names nobody). */
export const isCompany = (name: string): boolean => hasLegalForm(name) && /\S\s+\S/.test(name);

const NAME_CONNECTORS = new Set([
  'and',
  'of',
  'the',
  'de',
  'du',
  'la',
  'le',
  'des',
  'von',
  'van',
  'der',
  'y',
  'e',
  'für',
  'et',
  'und',
  'en',
  'di',
  'del',
  'della',
  'da',
  'den',
  'het',
  // Where a shop or an inn stands, in its name: "Apotheke am Markt", "Gasthaus zur Post", "Au
  // bon coin", "Trattoria alla Rocca".
  'am',
  'im',
  'zum',
  'zur',
  'au',
  'aux',
  'al',
  'alla',
  // A sole trader's trading name after their own: "J. Whitfield t/a Whitfield Roofing".
  't/a',
]);

/** True when `word` joins a name's words ("van", "de", "of", "zur"): a particle, not a label, inside a name. */
export const isNameConnector = (word: string): boolean => NAME_CONNECTORS.has(word.toLowerCase());

/**
 * A legal form whose final dot belongs to it: "Inc.", "Ltd.", "Lda.", the Hungarian "Kft.",
 * "Zrt.", "Nyrt.", "Bt.", "Kkt.", the Turkish "Şti.", any dotted one ("S.r.l.", "V.O.F.", "a.G."),
 * and the Italian "& C." (and partners). Tested on a name's `fold`: its plain letters.
 */
const LEGAL_ABBREVIATION =
  /\b(?:inc|corp|co|ltd|lda|ltda|l\.p|k\.k|s\.a|n\.v|b\.v|plc|llc|gmbh|ag|bhd|kft|zrt|nyrt|bt|kkt|sti)\.$|(?<![\p{L}.])(?:\p{L}\.){2,}$|&\s?C\.$/iu;

/**
 * Not a legal form in brackets: South African and Indian companies' "(Pty) Ltd", "(Pvt) Ltd", the
 * German "UG (haftungsbeschränkt)".
 */
const NOT_BRACKETED_FORM = '(?!(?:Pty|PTY|Pvt|PVT|Private|Proprietary|haftungsbeschränkt)\\))';
/** A defined term in brackets after a name, to the end ("Acme Ltd (the "Supplier") …"). */
const DEFINED_TERM_AFTER = new RegExp(`\\s+\\(${NOT_BRACKETED_FORM}(?:the\\s+)?["']?[A-Z][\\w ]*["']?\\).*$`);
/** A street and its house number at the start of a text ("Ambachtsweg 22", "Marktstr. 3a", "C/ Mayor 3"). */
const STREET_FIRST = "\\p{Lu}[\\p{L}.'/-]*(?:\\s[\\p{L}.'-]+){0,3}\\s\\d{1,5}\\s?\\p{Ll}?";

/**
 * A street and its house number ("Ambachtsweg 22", "Marktstr. 3a", "C/ Mayor 3", "12 High
 * Street"), as a whole text: where a return address opens with it, the sender's name stands
 * elsewhere (the line above).
 */
export const STREET = new RegExp(`^${STREET_FIRST}$|^\\d{1,5}\\p{Ll}?\\s+\\p{L}`, 'u');

/**
 * A postcode and town, in most European and American forms; not a date's year ("17/05/2024
 * Échéance"). Swedish, Czech, Slovak and Greek postcodes are three digits and two ("402 26
 * Göteborg", "110 00 Praha 1"), not part of a longer number.
 */
export const POSTCODE_TOWN =
  /\b(?:[A-Z]{1,2}[- ]?)?(?<![\d./-])(?:\d{4,5}|\d{3} \d{2})\s+\p{Lu}[\p{L}.-]+|\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b|\b[A-Z]{2}\s+\d{5}\b/u;

/**
 * An address line without a house number, then a postcode and town after a comma: ", Place Vival,
 * 46100 Figeac", or a town and its postcode after it, six digits as India, China and Singapore
 * write them (", Satara Road, Pune 411037") or British (", Oak Lane, Reading RG4 5AA"). Not a
 * part that joins names ("Müller, Schmidt & Partner, 10115 Berlin").
 */
const UNNUMBERED_ADDRESS =
  '(?![^,]*(?:&|\\s(?:and|und|et|en|y|e|og|och|i|a)\\s))[^,\\d]{2,40},\\s+(?:(?:[A-Z]{1,2}[- ]?)?\\d{4,5}\\s+\\p{Lu}|\\p{Lu}[\\p{L}.-]+(?:\\s\\p{L}[\\p{L}.-]*)?\\s+(?:\\d{6}|[A-Z]{1,2}\\d[A-Z\\d]?\\s\\d[A-Z]{2})\\b)';

/**
 * Where a name ends: an address after a comma (a street and its number: "Praxisgemeinschaft Dr.
 * Weber, Königsallee 30, 40212 Düsseldorf", or a street without one before the postcode), a
 * bracket, a semicolon, a separator dot or bar.
 */
const NAME_END = new RegExp(
  `,\\s+(?=[a-z0-9])|,\\s+(?=${STREET_FIRST}(?![\\p{L}\\p{N}])\\s*(?:[,·|]|$))|,\\s+(?=${UNNUMBERED_ADDRESS})|\\s+\\(${NOT_BRACKETED_FORM}|;|\\s+·\\s+|\\s+\\|\\s+`,
  'u',
);

/** Labels of a company's own numbers, which may follow its name on one line. */
const COMPANY_NUMBER_FIELDS: ReadonlySet<LabelField> = new Set<LabelField>([
  'vatId',
  'customerVatId',
  'iban',
]);

/**
 * A label at a name's end and what follows it: a capitalised word and `more` words after it (a
 * count or a range), then a colon.
 */
const trailingLabel = (more: string): RegExp =>
  new RegExp(`\\s+[A-Z][A-Za-z.]*(?:\\s[A-Za-z.]+){${more}}:(?:\\s.*)?$`);
/** One, two and three words, fewest first. */
const TRAILING_LABELS = ['0', '1', '2'].map(trailingLabel);
/** Up to three words, as many as there are: the leftmost start. */
const TRAILING_LABEL = trailingLabel('0,2');

/**
 * A name without a label the vocabularies do not know and its value after it ("Orbit Telecom
 * DMCC TRN: 100765432100003", "Acme Trading Tax Reg No: 1234"): the fewest words before the
 * colon that leave a company's name with its legal form ("Orbit Telecom LLC Customer TRN: …" is
 * "Orbit Telecom LLC", not "Orbit"), else up to three.
 */
const withoutTrailingLabel = (name: string): string => {
  for (const label of TRAILING_LABELS) {
    const at = label.exec(name)?.index;
    if (at !== undefined && isCompany(name.slice(0, at))) return name.slice(0, at);
  }
  return name.replace(TRAILING_LABEL, '');
};

/** A name of two words or more printed twice in a row. */
const NAME_TWICE = /^(\S+(?:\s+\S+)+?)\s+\1$/iu;

/** A party name, cut before an address, a description or the next label. */
export const cleanPartyName = (text: string): string | undefined => {
  // A trailing colon makes it a label ("To:"), not a name.
  if (/:\s*$/.test(text)) return undefined;
  // A party's number in a list is not part of its name: "(2) Tyrell Biotech AG", "2) …".
  const unnumbered = text.trim().replace(/^\(?\d{1,2}\)\s+/, '');
  // A label and its value are no name ("Invoice Number: 1043" run on after "Bill To" where a text
  // layer lost the columns): cutting the value would leave the label's first word.
  const leading = labelsAtStart(unnumbered)[0];
  if (leading && /^\s*[:#]/.test(unnumbered.slice(leading.end))) return undefined;
  // Closing quotes of a name written in quotes go with their opening ones: «Ψηφιακές Λύσεις
  // Ι.Κ.Ε.», as Greek and French contracts write names, and a quoted name before its legal form,
  // as Bulgarian, Polish and Baltic companies are registered ("„Дигитални Решения“ ЕООД").
  const quoted = /^["«„“]/.test(unnumbered);
  let name = unnumbered
    .replace(/^["'(«„“]+/, '')
    .replace(quoted ? /^([^«»„“”"]*)[»“”"]/ : /^([^«»„“”"]*)[»“”"](?=\s*(?:,|$))/, '$1');
  // A defined term after the name ("Acme Ltd (the \"Supplier\")") goes; a legal form in brackets
  // stays ("Protea Security Services (Pty) Ltd", "Sharma Traders (Pvt) Ltd").
  name = name.replace(DEFINED_TERM_AFTER, '');
  // A label and its value after the name ("Καφέ Ολύμπια Ο.Ε. ΑΦΜ: 998765435", "Acme Ltd VAT No:
  // GB…"): the vocabularies' labels first, which keep the legal form before them; else up to
  // three capitalised words before a colon.
  const label = labelsIn(name).find((m) => m.start > 0 && /^\s*:/.test(name.slice(m.end)));
  name = label ? name.slice(0, label.start) : withoutTrailingLabel(name);
  // A company's number after its name under a label without a colon ("Acme Trading Ltd VAT No. GB
  // 123 4567 89", "Coastline Marine Services Pty Ltd ABN 33 123 456 789"): the name ends before it.
  const numbered = labelsIn(name, COMPANY_NUMBER_FIELDS).find(
    (m) =>
      m.start > 0 &&
      isCompany(name.slice(0, m.start).trim()) &&
      /^[\s.#:]*[A-Z]{0,3}[\s-]?\d/.test(name.slice(m.end)),
  );
  if (numbered) name = name.slice(0, numbered.start);
  // A company's name ends before its share capital: "Menuiserie Arnaud SAS au capital de 10 000 €".
  const capital = SHARE_CAPITAL.exec(name);
  const beforeCapital = capital && name.slice(0, capital.index).replace(/[\s,–-]+$/u, '');
  if (beforeCapital && isCompany(beforeCapital)) name = beforeCapital;
  // A business's name ends before its owner's: "Dr. Katrin Albers Unternehmensberatung, Inhaberin
  // Dr. Katrin Albers, Am Sparrenberg 3".
  const owner = OWNER_AFTER_NAME.exec(name);
  if (owner) name = name.slice(0, owner.index);
  // A company's name ends at its legal form: "Technikhaus Weber GmbH, Industriestraße 7, 90411
  // Nürnberg" (a street named before its number), "Soluciones Norte, S.L., Calle Mayor 5",
  // "Estudio Nube S.L. - CIF B87654321".
  for (const comma of name.matchAll(/,|\s[-–]\s/g)) {
    const head = name.slice(0, comma.index).trim();
    if (isCompany(head)) {
      name = head;
      break;
    }
  }
  const cut = NAME_END.exec(name);
  if (cut) name = name.slice(0, cut.index);
  name = name.trim();
  // A colon left after cutting trailing labels means a label leads ("From: Acme Corp"): not a name.
  if (name.includes(':')) return undefined;
  // On the plain letters: "\b" knows only ASCII ones, and "Şti." or "ŞTİ." is "sti." there.
  while (/[,;:]$/.test(name) || (/\.$/.test(name) && !LEGAL_ABBREVIATION.test(fold(name))))
    name = name.slice(0, -1).trim();
  if (name.length < 2 || name.length > 120 || !/^[\p{Lu}0-9]/u.test(name) || !/\p{L}{2}/u.test(name))
    return undefined;
  // Two blocks side by side that a text layer ran together print one name twice ("Riverside
  // Plastics LLC Riverside Plastics LLC", under bill-to and ship-to): the name once. A name of
  // one word twice is a name ("Walla Walla").
  name = NAME_TWICE.exec(name)?.[1] ?? name;
  const words = name.split(/\s+/);
  // A name is capitalised words (and a few connectors); a sentence is not. A company name with its
  // legal form may keep lower-case words ("Au bon moulin SARL").
  // An academic title's abbreviations are lower case after "Dr." ("Dr. med.", "Dr. rer. nat.").
  // A dotted legal form is no sentence's word: "Војвођанска пекара а.д." writes both in lower case.
  // An elided article or preposition joins the capitalised word after it ("Monts d'Or",
  // "L'Atelier de l'Arbre", "Bottega dell'Arte").
  const lower = words.filter(
    (w, i) =>
      !/^[\p{Lu}0-9&('"]/u.test(w) &&
      !/^\p{Ll}{1,5}['’]\p{Lu}/u.test(w) &&
      !/^(?:\p{Ll}{1,2}\.){2,}$/u.test(w) &&
      !isNameConnector(w) &&
      !(/^\p{Ll}{2,5}\.$/u.test(w) && /\.$/.test(words[i - 1] ?? '')),
  );
  if (words.length > 9 || (lower.length > 0 && !(hasLegalForm(name) && lower.length <= words.length / 2)))
    return undefined;
  return name;
};

/**
 * The name a party's description opens with: its words up to the first in lower case that joins
 * no name ("BRIGHT SOFTWARE LIMITED incorporated and registered in England and Wales with company
 * number 01234567 ..." is "BRIGHT SOFTWARE LIMITED").
 */
export const leadingName = (text: string): string => {
  const words = text.trim().split(/\s+/);
  const end = words.findIndex((w) => /^\p{Ll}/u.test(w) && !NAME_CONNECTORS.has(w));
  return (end < 0 ? words : words.slice(0, end)).join(' ');
};

/** A party name value. */
export const parseParty = (text: string): Parsed<string> | undefined => {
  const name = cleanPartyName(text);
  return name ? { value: name, certainty: hasLegalForm(name) ? 1 : 0.93 } : undefined;
};
