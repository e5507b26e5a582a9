import { formatPaymentTerms, hasLegalForm } from '../../shared/documents/index.js';

export { hasLegalForm };

/** A company's name: one with a legal form and a word before it ("LLC" alone names nobody). */
export const isCompany = (name: string): boolean => hasLegalForm(name) && /\S\s+\S/.test(name);

import { timeUnit } from '../vocabulary/contractWords.js';
import {
  fold,
  type LabelField,
  labelsAtStart,
  labelsIn,
  letterPlace,
  OWNER_AFTER_NAME,
  SHARE_CAPITAL,
  VOCABULARIES,
  vocabularyOf,
} from '../vocabulary/index.js';
import { findMoney } from './parseAmount.js';
import { type DayMonthOrder, type FoundDate, findDates } from './parseDate.js';
import type { Parsed } from './parsed.js';

/** Value readers for labelled text and prose captures. Each returns undefined when the text is not one. */

/** Every language's number words, folded ("zwölf" as "zwolf"), with each language's value. */
const NUMBER_WORDS = new Map<string, Map<string, number>>();
for (const v of VOCABULARIES)
  for (const [word, n] of Object.entries(v.numberWords)) {
    const key = fold(word);
    NUMBER_WORDS.set(key, (NUMBER_WORDS.get(key) ?? new Map()).set(v.code, n));
  }

/**
 * A number word's value: the document's language's where it has the word, else the one all
 * languages agree on. "tres" is 3 in Spanish and Portuguese and 60 in Danish: in a document of
 * neither, it is no number.
 */
const numberWord = (word: string, language: string | undefined): number | undefined => {
  const values = NUMBER_WORDS.get(word);
  if (!values) return undefined;
  const own = language === undefined ? undefined : values.get(language);
  if (own !== undefined) return own;
  const distinct = new Set(values.values());
  return distinct.size === 1 ? [...distinct][0] : undefined;
};
/** English's, which compose ("twenty-four", "one hundred eighty"). */
const ENGLISH_WORDS = new Map(Object.entries(vocabularyOf('en')?.numberWords ?? {}));

/**
 * "twenty-four" -> 24, "one hundred eighty" -> 180, "drei" -> 3, "douze" -> 12, "dix-huit" -> 18;
 * undefined when not a number in words.
 */
export const wordsToNumber = (text: string, language?: string): number | undefined => {
  const whole = numberWord(fold(text.trim()).replace(/\s+/g, ' '), language);
  if (whole !== undefined) return whole;
  const parts = text
    .toLowerCase()
    .replace(/-/g, ' ')
    .split(/\s+/)
    .filter((w) => w && w !== 'and');
  if (parts.length === 0) return undefined;
  let current = 0;
  for (const part of parts) {
    const n = ENGLISH_WORDS.get(part);
    if (part === 'hundred') current = (current || 1) * 100;
    else if (n !== undefined) current += n;
    else return undefined;
  }
  return current;
};

/**
 * A count written as "90", "ninety (90)", "90 (ninety)" (as Latin American, Polish and Baltic
 * contracts write it: "30 (treinta) días", "24 (divdesmit četriem) mēnešiem"; the digits count)
 * or "ninety"; returns the number and the text length read.
 */
export const NUMBER_PHRASE =
  '(?:(\\p{L}+(?:[- ]\\p{L}+){0,3})\\s*\\(\\s*(\\d{1,4})\\s*\\)|(\\d{1,4})(?:\\s*\\(\\s*\\p{L}+(?:[- ]\\p{L}+){0,3}\\s*\\))?|(\\p{L}+(?:-\\p{L}+)?))';

/** Reads the groups of a `NUMBER_PHRASE` match. */
export const numberFromGroups = (
  words?: string,
  digitsInParens?: string,
  digits?: string,
  wordsOnly?: string,
  language?: string,
): number | undefined => {
  if (digitsInParens) return Number(digitsInParens);
  if (digits) return Number(digits);
  return wordsOnly ? wordsToNumber(wordsOnly, language) : words ? wordsToNumber(words, language) : undefined;
};

/**
 * Letters before a number that are a label's or a mark's, not a series' ("No 2024/1", "NR 4512",
 * "ID INV-2024-7", "REF 2024/11"): a series is never read from them.
 */
const NOT_A_MARK = '(?!(?:NO?|NR|ID|REF|NUM)\\s)';

/**
 * A series code and its number, as Portuguese, Spanish and Polish invoices print them: "FT
 * 2024/118", "FT A/315", "A 2024-001", "F 5521K24/0042/07", and the Portuguese tax portal's
 * "FR ATSIRE01FR/12". The number starts with a digit, a series letter and its slash, or a series
 * with a digit and its slash, and holds a slash or a dash; "Invoice A 12345", "No 2024/1" and "ID
 * INV-2024-7" (a label and a number) are no series.
 */
const SERIES_ID = new RegExp(
  `^${NOT_A_MARK}([A-Z]{1,3} (?=[A-Za-z0-9]*[/-])(?=[^\\s]*\\d)(?:\\d|[A-Z]{1,2}\\/|[A-Z][A-Z0-9]{0,14}\\d[A-Z0-9]*\\/(?=\\d))[A-Za-z0-9\\-/._]*[A-Za-z0-9])(?=$|\\s|[;)]|,\\s)`,
);

/**
 * A number printed in groups of digits, as telecoms and utilities print theirs ("0123 4567 8901"):
 * groups of two to six digits one space apart, ending the value or followed by a word.
 */
const GROUPED_ID = /^(\d{2,6}(?: \d{2,6}){1,4})(?=$|\s+[^\d\s]|\s{2,}|[;)]|,\s)/;

/**
 * The marks that say "number": "Nr.", "No.", "N°", "N.", "N.º", "č.", "#", "Nummer", and the
 * Croatian "br." (broj), Slovenian "št." (številka), Finnish "nro" and "n:o" (first: "nr" is the
 * start of "nro"), Slovak "číslo", Greek "αριθμός" and its "αρ." and "αριθ.", the numero sign "№"
 * (Bulgarian and many fonts' "No"), the Catalan and Spanish "Núm." (número) and the Serbian
 * Cyrillic "бр." and "број".
 * Italian and Spanish abbreviate numero / número to "N." ("Fattura N. 45/2024").
 */
export const NUMBER_MARK_SOURCE =
  'nro|n:o|nr|no|n[°º]|nº|n\\.\\s?[°º]|n(?=\\.)|č(?=\\.)|#|№|num(?:ber|mer|ero|éro)?|número|núm(?=\\.)|br(?=\\.)|št(?=\\.)|číslo|αριθμ[οό][σς]|αριθ(?=\\.)|αρ(?=\\.)|број|бр(?=\\.)';

/**
 * A document's code printed with no number mark, as a title may end with one ("SECURITY SERVICES
 * AGREEMENT Q-8812", "FRAMEWORK CALL-OFF CONTRACT PO-C-2025-300"): capital letters, then parts
 * after dashes or slashes, with a digit. A bare number ("AGREEMENT 2025") is a year as often.
 */
export const UNMARKED_CODE = /^\(?([A-Z]{1,6}(?:[-/][A-Z0-9]+)+)\)?$/u;

/** The code `UNMARKED_CODE` finds in `text`, where it holds a digit. */
export const unmarkedCode = (text: string): string | undefined => {
  const code = UNMARKED_CODE.exec(text.trim())?.[1];
  return code && /\d/.test(code) ? code : undefined;
};

/** A number mark (`NUMBER_MARK_SOURCE`) between a document's title and its number, with the spaces after it. */
export const NUMBER_MARK = new RegExp(`^(?:${NUMBER_MARK_SOURCE})\\.?\\s*[:.]?\\s*`, 'iu');

/** A document identifier: the first token, with at least one digit, a series and its number, or groups of digits. */
export const parseId = (text: string): Parsed<string> | undefined => {
  const trimmed = text.trim();
  const series = SERIES_ID.exec(trimmed)?.[1] ?? GROUPED_ID.exec(trimmed)?.[1];
  if (series) return { value: series };
  // Letters of any script: Greek series print theirs in Greek ("Α-1456").
  const m = /^(?:no\.?|number|#)?\s*#?\s*([\p{L}0-9][\p{L}0-9\-/._]*[\p{L}0-9])(?=$|\s|[;)]|,\s)/iu.exec(
    trimmed,
  );
  const id = m?.[1];
  if (!id || !/\d/.test(id) || id.length < 3 || id.length > 40) return undefined;
  // "1.770" of "1.770,09 EUR" is an amount, not an identifier; so is "22.25". "000.452" is none:
  // no amount's first group is zeros, as a Brazilian invoice's number is printed.
  if (/^(?:[1-9]\d{0,2}|0)(?:[.,']\d{3})+$/.test(id) || /^\d+[.,]\d{1,2}$/.test(id)) return undefined;
  // A date is no identifier; "24-08-0412" is one (no year is written "0412").
  if (/^\d{1,2}[./-]\d{1,2}[./-](?:\d{2}|1[89]\d{2}|2\d{3})$/.test(id) || /^\d{4}-\d{2}-\d{2}$/.test(id))
    return undefined;
  return { value: id };
};

/**
 * The value after a label that says "number" ("Invoice Number", "Rechnungsnummer", "N° de
 * facture"): any identifier, and also one or two digits standing alone ("Invoice Number:  42"),
 * as a small business numbers its first invoices. Alone: "42 items" is not read.
 */
export const parseNumberedId = (text: string): Parsed<string> | undefined => {
  const series = SERIES_AND_NUMBER.exec(text.trim());
  if (series) return { value: `${series[1]} ${series[2]}` };
  const short = /^#?\s*([1-9]\d?)$/.exec(text.trim())?.[1];
  const lettered = LETTERED_NUMBER.exec(text.trim())?.[1];
  return parseId(text) ?? (lettered ? { value: lettered } : short ? { value: short } : undefined);
};

/**
 * A series' letters and the number after one space, where a number label stands before them
 * ("Rechnungsnummer: RE 4512", "Serie y Folio: A 4512"): the number is both, as a label leaves no
 * doubt whose it is. Not a mark of a number ("No 4512"), nor followed by more digits (a date).
 */
const LETTERED_NUMBER = new RegExp(`^${NOT_A_MARK}([A-Z]{1,3} \\d{3,12})(?=$|\\s+\\D|[;)]|,\\s)`);

/**
 * A series of letters and its number, each marked, as Romanian and Lithuanian invoices print
 * them after "Seria" / "Serija": "CSW nr. 0045", "BT Nr. 000123", "ACR, nr.: 0458". The number
 * is both ("CSW 0045"), as the series is part of it.
 */
const SERIES_AND_NUMBER =
  /^([A-Z]{1,6}\d{0,4})\s*[,:]?\s*(?:nr|no|n[°º])\.?\s*:?\s*(\d[\w/-]*)(?=$|\s|[,;)])/iu;

/** Turns a found date into a parsed value; an unresolved slash date reads two ways. */
export const dateValue = (found: FoundDate): Parsed<string> => ({
  value: found.iso,
  ...(found.alternative ? { alternatives: [found.alternative], certainty: 0.5 } : {}),
  ...(!found.alternative && found.numericAmbiguous ? { certainty: 0.95 } : {}),
});

/**
 * A date at the start of the text (after "on" / "as of"), or after the place a label names with
 * it ("Kraj in datum izdaje: Sežana, 14.05.2025", "Place and date of issue: Zagreb, 5 May 2025").
 */
export const parseDateAt =
  (order: DayMonthOrder, language?: string) =>
  (value: string): Parsed<string> | undefined => {
    const text = value.slice(letterPlace(value)?.length ?? 0);
    const found = findDates(text, order, language)[0];
    if (!found) return undefined;
    const before = text.slice(0, found.start).trim().toLowerCase().replace(/\s*:$/, '');
    // Connecting words a label may leave before its date ("due by", "zahlbar bis zum", "avant le"),
    // and the article Catalan and Italian elide before a day that starts with a vowel sound ("en
    // vigor l'1 de març", "dall'8 marzo").
    if (
      before &&
      !/^(?:on|as of|of|from|dated|:|effective|the|as of the|on the|by|until|before|bis|bis zum|am|vom|le|au|du|avant le|op|voor|van|el|del|il|entro il|entro|(?:l|d|dall|all|dell|nell)['’])$/.test(
        before,
      )
    )
      return undefined;
    return dateValue(found);
  };

/** An amount near the start of the text, with its currency when written. */
export const parseAmountAt =
  (defaultCurrency: string | undefined) =>
  (text: string): Parsed<{ amount: string; currency?: string }> | undefined => {
    const found = findMoney(text, findDates(text)).find((a) => !a.amount.startsWith('-'));
    if (!found || found.start > 24) return undefined;
    const currency = found.currency ?? defaultCurrency;
    return {
      value: { amount: found.amount, ...(currency ? { currency } : {}) },
      certainty: (found.certain ? 1 : 0.85) * (found.currency ? 1 : 0.97),
    };
  };

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

/** A label of `words` capitalised words before a colon, and what follows it, at a name's end. */
const TRAILING_LABELS = [1, 2, 3].map(
  (words) => new RegExp(`\\s+[A-Z][A-Za-z.]*(?:\\s[A-Za-z.]+){${words - 1}}:(?:\\s.*)?$`),
);

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
  return name.replace(/\s+[A-Z][A-Za-z.]*(?:\s[A-Za-z.]+){0,2}:(?:\s.*)?$/, '');
};

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
      !NAME_CONNECTORS.has(w.toLowerCase()) &&
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

/**
 * A date at the start of `text`, after a letter's place when one opens it ("Berlin, den
 * 15.03.2024", "Fait à Paris, le 20 avril 2024, en deux exemplaires", "12.03.2024 08:14"): the
 * place ('' when none), the date, and what follows it. With `needPlace`, only after a place.
 */
export const dateAfterPlace = (
  text: string,
  order: DayMonthOrder,
  needPlace: boolean,
  language?: string,
): { place: string; date: FoundDate; after: string } | undefined => {
  const place = letterPlace(text) ?? '';
  if (needPlace && !place) return undefined;
  const rest = text.slice(place.length);
  const date = findDates(rest, order, language)[0];
  return date?.start === 0 ? { place, date, after: rest.slice(date.end) } : undefined;
};

/** A party name value. */
export const parseParty = (text: string): Parsed<string> | undefined => {
  const name = cleanPartyName(text);
  return name ? { value: name, certainty: hasLegalForm(name) ? 1 : 0.93 } : undefined;
};

/**
 * "Days" in the languages Docket reads (the unit of payment terms): the vocabularies' words for
 * days ("14 dana", "30 zile", "8 nap", "14 päivää") and the abbreviations invoices print, as a
 * whole word ("6 July" is no "6 j", the French abbreviation of "jours").
 */
const DAYS = `(?:${timeUnit('days')}|days?|tage?n?|tg\\.?|jours?|j|dagen|dagar|dager|dage|dgr\\.?|d[ií]as|giorni|gg\\.?|dni)(?![\\p{L}])`;

// The payment-terms patterns, compiled once: contract sentences try them from every word on.
const ON_RECEIPT =
  /(?:due|payable)\s+(?:up)?on\s+receipt|^(?:up)?on receipt|^immediate|^sofort|imm[ée]diat|[àa] r[ée]ception|bij ontvangst|al contado|a vista|^immediato|pronto pagamento/;
const NET_DAYS = /^net(?:to)?\s*(\d{1,3})\b/;
/** A discount for early payment, then the net days: "2/10 net 30", "2/10, n/30", "1% 10 net 30". */
const DISCOUNT_THEN_NET = /^\d{1,2}(?:[.,]\d{1,2})?\s*%?\s*\/?\s*\d{1,2}\s*,?\s*(?:net|n\/)\s*(\d{1,3})\b/;
/** The count spelled out in brackets after its digits: "30 (thirty) days", "30 (otuz) gün". */
const SPELLED_AFTER = '(?:\\([^()\\d]{2,40}\\)\\s*)?';
/** A count of days ("30 días", "14 Tage", "60 gg.", "30 (otuz) gün"). */
const DAY_COUNT = `(\\d{1,3})\\s*${SPELLED_AFTER}${DAYS}`;
const DAYS_FIRST = new RegExp(`^${DAY_COUNT}`, 'u');
const DAY_COUNTS = new RegExp(DAY_COUNT, 'gu');
const WITHIN_DAYS = new RegExp(`^(?:payable\\s+)?(?:within|in)\\s+${NUMBER_PHRASE}\\s+days`, 'u');
const WITHIN_DAYS_ANY = new RegExp(
  `^(?:zahlbar\\s+)?(?:innerhalb(?:\\s+von)?|innert|in|binnen(?:\\s+een\\s+termijn\\s+van)?|dans(?:\\s+les)?|sous|[àa]|a|entro(?:\\s+il\\s+termine\\s+di)?|nel\\s+termine\\s+di|en\\s+(?:un|el)\\s+(?:plazo|termini)\\s+de|dins\\s+(?:dels|d['’]un\\s+termini\\s+de)|no\\s+prazo\\s+de|within|w\\s+terminie|w\\s+ciągu|inom|inden|innen|u\\s+roku\\s+od|v\\s+roku|[îi]n\\s+termen\\s+de|v\\s+lehote|do|per|εντός)\\s+${DAY_COUNT}`,
  'u',
);

/**
 * Payment terms written as "Net 30", "30 days net", "in 30 days", "Zahlbar innerhalb 30 Tagen
 * netto" (in Switzerland "innert 30 Tagen"), "à 30
 * jours", "binnen 30 dagen", "a 30 días", "en un plazo de 30 días", "30 giorni", "w terminie 14 dni",
 * "30 dagar netto", "inom 30 dgr", "u roku od 15 dana", "în termen de 15 zile", "do 30 dní", "per 30 dienų", "Due on receipt" / "sofort" / "paiement
 * immédiat"; normalised to "Net N" or "Due on receipt".
 */
export const parsePaymentTerms = (text: string): Parsed<string> | undefined => {
  const t = text.toLowerCase();
  if (ON_RECEIPT.test(t)) return { value: formatPaymentTerms(0) };
  const m =
    NET_DAYS.exec(t) ??
    DISCOUNT_THEN_NET.exec(t) ??
    DAYS_FIRST.exec(t) ??
    WITHIN_DAYS.exec(t) ??
    WITHIN_DAYS_ANY.exec(t);
  if (!m) return undefined;
  const days = m.length > 2 ? numberFromGroups(m[1], m[2], m[3], m[4]) : Number(m[1]);
  if (days === undefined || days > 365) return undefined;
  return { value: formatPaymentTerms(days, END_OF_MONTH.test(t.slice(m.index + m[0].length))) };
};

/**
 * The first payment terms that start at one of the first `words` words of `text` (at any word by
 * default): "pay within 30 days" read from "within".
 */
export const paymentTermsAmong = (
  text: string,
  words = Number.POSITIVE_INFINITY,
): Parsed<string> | undefined => {
  for (const word of [...text.matchAll(/(?<=^|\s)\S/gu)].slice(0, words)) {
    const terms = parsePaymentTerms(text.slice(word.index));
    if (terms) return terms;
  }
  return undefined;
};

/** Whether payment terms are stated anywhere in a text ("Payment due within 30 days of"). */
export const statesPaymentTerms = (text: string): boolean => paymentTermsAmong(text) !== undefined;

/**
 * Days counted to the end of a month, right after the days: "30 jours fin de mois", "45 jours
 * FDM", "60 gg d.f.f.m." (data fattura fine mese), "30 días fin de mes", "Net 30 EOM", "30 Tage
 * zum Monatsende".
 */
const END_OF_MONTH =
  /^[\s,.]*(?:net(?:to)?\s+)?(?:(?:à\s+la\s+)?fin\s+de\s+mois|f\.?\s?d\.?\s?m\b|(?:d\.?\s?)?f\.?\s?f\.?\s?m\b|(?:data\s+fattura\s+)?fine\s+mese|(?:a\s+)?(?:fin|final)\s+de\s+mes|fim\s+do\s+m[eê]s|(?:the\s+)?end\s+of\s+(?:the\s+)?month|eom\b|(?:zum\s+)?monatsende|einde\s+(?:van\s+de\s+)?maand)/u;

/**
 * A text up to the end of its first sentence: a stop, "!" or "?" before a capital. Not at an
 * abbreviation's dot before a small letter ("60 gg. d.f.f.m.").
 */
export const firstSentence = (text: string): string => text.split(/[.!?]\s+(?=\p{Lu})/u)[0] ?? text;

/**
 * Payment terms inside a payment label's value, after the means of payment ("transferencia
 * bancaria a 30 días", "Bank transfer, 30 days"): read where the value names one count of days
 * only, so a cash discount's days ("2 % Skonto innerhalb 8 Tagen, 30 Tage netto") are never taken
 * for the terms.
 */
export const parsePaymentTermsIn = (value: string): Parsed<string> | undefined => {
  const own = parsePaymentTerms(value);
  if (own) return own;
  // Not past the value's first sentence: "Payment by bank transfer. Delivery within 3 days."
  const text = firstSentence(value);
  const counts = [...text.matchAll(DAY_COUNTS)];
  const [only] = counts;
  if (counts.length !== 1 || !only) return undefined;
  // From the count itself back to the value's start: "a 30 días" is read from "a".
  const words = [...text.slice(0, only.index).matchAll(/(?<=^|\s)\S/gu)].map((w) => w.index);
  for (const start of [only.index, ...words.reverse()]) {
    const found = parsePaymentTerms(text.slice(start));
    if (found) return found;
  }
  return undefined;
};

const unitGroup = (unit: Parameters<typeof timeUnit>[0]) => `(?<${unit}>${timeUnit(unit)})`;
/**
 * A number and its unit of time, any language ("90 days", "ninety (90) days", "drei (3) Monate",
 * "12 mois"), or the two joined by a hyphen into an adjective ("a 30-day notice", "30-dniowego").
 */
const DURATION = new RegExp(
  `^${NUMBER_PHRASE}(?:\\s*|-)(?:${unitGroup('days')}|${unitGroup('weeks')}|${unitGroup('months')}|${unitGroup('years')})(?![\\p{L}])`,
  'iu',
);

/** How long the duration that opens `text` is written ("five years from …" -> 10), 0 where none does. */
export const leadingDurationLength = (text: string): number => {
  const trimmed = text.trimStart();
  const m = DURATION.exec(trimmed);
  return m ? text.length - trimmed.length + m[0].length : 0;
};

/** A duration's text without the article Catalan elides before "un" ("una durada d'un any"). */
const durationText = (text: string): string => text.trim().replace(/^d['’](?=un\b)/iu, '');

/** A number of days ("90 days", "ninety (90) days", "3 months" as 90, "90 Tage", "trois (3) mois"). */
export const parseDays = (text: string, language?: string): Parsed<number> | undefined => {
  const m = DURATION.exec(durationText(text));
  const n = m && numberFromGroups(m[1], m[2], m[3], m[4], language);
  if (!m?.groups || n === undefined || n === null || m.groups.years) return undefined;
  return { value: m.groups.months ? n * 30 : m.groups.weeks ? n * 7 : n };
};

/** A duration in months ("24 months", "2 years", "twenty-four (24) months", "24 Monate", "18 maanden"). */
export const parseMonths = (text: string, language?: string): Parsed<number> | undefined => {
  const m = DURATION.exec(durationText(text));
  const n = m && numberFromGroups(m[1], m[2], m[3], m[4], language);
  if (!m?.groups || !n || (!m.groups.months && !m.groups.years)) return undefined;
  return { value: m.groups.years ? n * 12 : n };
};

/** Yes / no answers in a form ("Yes, for successive 12-month periods", "None"). */
export const parseYesNo = (text: string): Parsed<boolean> | undefined => {
  const t = text.trim().toLowerCase();
  if (/^(?:yes|true|automatic|included)\b/.test(t)) return { value: true };
  if (/^(?:no|none|false|not applicable|n\/a)\b/.test(t)) return { value: false };
  return undefined;
};

/** A jurisdiction, without "the laws of" / "the State of". */
export const parseLaw = (text: string): Parsed<string> | undefined => {
  let law = text.trim().replace(/^(?:the\s+)?laws?\s+of\s+/i, '');
  law = law.replace(/^the\s+/i, '').replace(/^(?:state|commonwealth|province|republic)\s+of\s+/i, '');
  law = law.split(/[,;.(]|\s+without\b|\s+and any\b|\s+excluding\b|\s+govern/i)[0]?.trim() ?? '';
  if (law.length < 2 || law.length > 60 || !/^[A-Z]/.test(law) || law.split(/\s+/).length > 6)
    return undefined;
  return { value: law };
};
