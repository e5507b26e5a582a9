import { VOCABULARIES } from './languages.js';
import { escapeRegExp, fold, labelSource, NOT_WORD_AFTER, NOT_WORD_BEFORE } from './lexicon.js';
import type { Vocabulary } from './schema.js';

/** The vocabulary of a language code, if Docket has one. */
export const vocabularyOf = (code: string | undefined): Vocabulary | undefined =>
  VOCABULARIES.find((v) => v.code === code);

/** Each month name (folded) with the month it means in each language that writes it. */
const MONTHS = new Map<string, Map<string, number>>();
for (const vocabulary of VOCABULARIES) {
  vocabulary.months.forEach((names, i) => {
    for (const name of names) {
      const readings = MONTHS.get(fold(name)) ?? new Map<string, number>();
      MONTHS.set(fold(name), readings.set(vocabulary.code, i + 1));
    }
  });
}

/**
 * The months (1-12) a month name or abbreviation means, e.g. "März" -> [3]. Most names mean one
 * month in every language that writes them; a few mean two ("listopad" is November in Czech and
 * Polish, October in Croatian): `language`, the document's, settles those when it writes the
 * name, and otherwise both readings are returned, the more common first.
 */
export const monthReadings = (word: string, language?: string): number[] => {
  const readings = MONTHS.get(fold(word).replace(/\.$/, ''));
  if (!readings) return [];
  const own = language === undefined ? undefined : readings.get(language);
  if (own !== undefined) return [own];
  const counts = new Map<number, number>();
  for (const month of readings.values()) counts.set(month, (counts.get(month) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([month]) => month);
};

const bySize = (a: string, b: string) => b.length - a.length;

/** Regular expression source of any of `words`, each once, the longest first so it wins. */
export const anyOf = (words: readonly string[]): string =>
  [...new Set(words)].sort(bySize).map(labelSource).join('|');

/** Regular expression source matching a month name of any language (longest first). */
export const MONTH_PATTERN = `(?:${anyOf(VOCABULARIES.flatMap((v) => v.months.flat()))})`;

/** Regular expression source of what joins the two dates of a period: a dash, "to", "bis", "au", "tot en met", any language. */
export const RANGE_JOIN_PATTERN = `(?:[-–—]|${anyOf(VOCABULARIES.flatMap((v) => v.contract.rangeJoins))})`;

/** Regular expression source of the words joining a title's number and date, any language. */
export const TITLE_DATE_LINK_PATTERN = `(?:${anyOf(VOCABULARIES.flatMap((v) => v.titleDateLinks))})`;

/**
 * A word that joins a title to its issuer ("des", "of", "van", an elided "dell'"), any language:
 * test it on the first word after the title word. `amounts.ts` also tests it after a money label,
 * where it says what the amount totals.
 */
export const TITLE_ISSUER_LINK = new RegExp(
  `^(?:${[...new Set(VOCABULARIES.flatMap((v) => v.titleIssuerLinks))]
    .sort(bySize)
    .map((word) => escapeRegExp(word).replace(/'$/, "['’]"))
    .join('|')})(?:(?<=['’])|(?![\\p{L}]))`,
  'iu',
);

/**
 * Ends with a phrase after which an amount is not the invoice's (share capital), any language:
 * test it on the text before an amount.
 */
export const NOT_MONEY_BEFORE = new RegExp(
  `(?:^|[^\\p{L}])(?:${anyOf(VOCABULARIES.flatMap((v) => v.notMoney))})\\s*:?\\s*(?:i\\.?\\s?v\\.?\\s*)?(?:€|eur|euro|usd|\\$|£|gbp|chf)?\\s*$`,
  'iu',
);

const wordsOf = (pick: (v: Vocabulary) => readonly string[]): RegExp =>
  new RegExp(`${NOT_WORD_BEFORE}(?:${anyOf(VOCABULARIES.flatMap(pick))})${NOT_WORD_AFTER}`, 'iu');

/**
 * A company's share capital named after its name ("SAS au capital de 10 000 €", "S.r.l. capitale
 * sociale"), any language: where the name ends.
 */
export const SHARE_CAPITAL = wordsOf((v) => v.notMoney);

/** A word of an offer of a discount for early payment ("Skonto", "escompte"), any language. */
export const CASH_DISCOUNT = wordsOf((v) => v.cashDiscount.discount);

/** A word that says an amount is paid in full, without the discount ("ohne Abzug", "net"), any language. */
export const NET_TERMS = wordsOf((v) => v.cashDiscount.net);

/** A word that asks for payment ("überweisen", "settle", "régler"), any language. */
export const PAYMENT_WORD = wordsOf((v) => v.paymentDeadline.pay);

/** A verb that says the amount is collected by direct debit ("abgebucht", "prélevé"), any language. */
export const DEBIT_WORD = wordsOf((v) => v.paymentDeadline.debit);

/** Ends with a word that sets a deadline ("bis zum", "before", "entro il"), any language: test it on the text before a date. */
export const DEADLINE_BEFORE = new RegExp(
  `(?:^|[^\\p{L}])(?:${anyOf(VOCABULARIES.flatMap((v) => v.paymentDeadline.by))})\\s*$`,
  'iu',
);

/** A courtesy title of `titles` at the start of a text, with the spaces after it. */
const salutationOf = (titles: readonly string[]): RegExp =>
  new RegExp(`^(?:${anyOf(titles)})\\.?(?![\\p{L}\\p{N}])\\s*`, 'iu');

/** A courtesy title of any language ("Herrn", "Mr.", "Mme", "De heer"): for a text of no known language. */
const ANY_SALUTATION = salutationOf(VOCABULARIES.flatMap((v) => v.salutations));

/**
 * A courtesy title of each language, or of English, which documents in every language use for
 * foreign addressees. Another language's title may be a word of this one: the Turkish "Bay" (Mr)
 * starts "Bay Dental Practice", the Polish "Pan" starts "Pan Pacific Traders Ltd".
 */
const ENGLISH_SALUTATIONS = vocabularyOf('en')?.salutations ?? [];
const SALUTATION_BY_LANGUAGE: ReadonlyMap<string, RegExp> = new Map(
  VOCABULARIES.map((v) => [v.code, salutationOf([...v.salutations, ...ENGLISH_SALUTATIONS])]),
);

/**
 * The text without a leading courtesy title of the document's `language` (any language's where
 * it is not known): "Herrn Max Mustermann" is Max Mustermann, and a line of "Herrn" alone names
 * nobody (the name is on the next line). A short title in capitals is an acronym that starts a
 * company's name ("MS Amlin"), not a title.
 */
export const withoutSalutation = (text: string, language?: string): string => {
  const trimmed = text.trimStart();
  const m = ((language && SALUTATION_BY_LANGUAGE.get(language)) || ANY_SALUTATION).exec(trimmed);
  if (!m) return text;
  const word = m[0].trim().replace(/\.$/, '');
  if (word.length < 4 && word === word.toUpperCase()) return text;
  return trimmed.slice(m[0].length);
};

const PAGE_WORDS = anyOf(VOCABULARIES.flatMap((v) => v.pageNumbers.page));
const PAGE_OF = anyOf(VOCABULARIES.flatMap((v) => v.pageNumbers.of));
const CONTINUED_WORDS = anyOf(VOCABULARIES.flatMap((v) => v.pageNumbers.continued));

/** A page's number alone on its line, any language: "Page 2 of 3", "Seite 1 von 2", "- 2 -", "1/2". */
export const PAGE_NUMBER = new RegExp(
  `^(?:(?:${PAGE_WORDS})\\s*)?-?\\s*\\d{1,4}\\s*(?:(?:${PAGE_OF}|/)\\s*\\d{1,4})?\\s*-?$`,
  'iu',
);

/**
 * A line saying the document goes on, any language: the note alone, perhaps with the page it
 * goes on to ("continued...", "Fortsetzung auf Seite 2", "Suite page suivante"), or closing a
 * line ("Invoice 42 (continued)", "Factuur 2025-3318 - vervolg"). "Suite 300" is no such note.
 */
export const CONTINUED = new RegExp(
  `^[\\s(–—-]*(?:${CONTINUED_WORDS})[\\s.…:]*(?:\\d{1,4})?[\\s.…)]*$|(?<![\\p{L}\\p{N}])(?:${CONTINUED_WORDS})[\\s).…:]*$`,
  'iu',
);

/** The owners' words of every vocabulary ("Inh.", "Prop.", "Titolare"). */
const OWNER_WORDS = anyOf(VOCABULARIES.flatMap((v) => v.owners));

/**
 * Words at the start of a text that introduce a business's owner ("Inh. Maria Gruber e.K.",
 * "Prop. J. Smith", "Titolare: Marco Rossi"), any language, before the owner's name.
 */
export const OWNER_CUE = new RegExp(`^(?:${OWNER_WORDS})\\.?\\s*:?\\s+(?=\\p{L})`, 'iu');

/**
 * The owner's words after a business's name and a comma ("Dr. Katrin Albers
 * Unternehmensberatung, Inhaberin Dr. Katrin Albers"), any language: where the name ends.
 */
export const OWNER_AFTER_NAME = new RegExp(`,\\s+(?:${OWNER_WORDS})\\.?\\s*:?\\s+\\p{L}`, 'iu');

/**
 * The self-billing mention of any language, anywhere in a text ("Self-billing invoice", "im
 * Gutschriftsverfahren", "Autofacturation"): the customer issued the document.
 */
export const SELF_BILLING = new RegExp(
  `(?<![\\p{L}])(?:${anyOf(VOCABULARIES.flatMap((v) => v.selfBilling))})(?![\\p{L}])`,
  'iu',
);

/**
 * Ends with an abbreviation of any language whose dot ends no sentence ("zzgl.", "approx."): test
 * it on a sentence's text to join it to the next.
 */
export const ABBREVIATION_END = new RegExp(
  `(?<![\\p{L}\\p{N}.])(?:${[...new Set(VOCABULARIES.flatMap((v) => v.abbreviations))]
    .sort(bySize)
    .map(escapeRegExp)
    .join('|')})\\s*$`,
  'iu',
);

const PLACE_BEFORE = anyOf(VOCABULARIES.flatMap((v) => v.letterPlaces.before));
const PLACE_AFTER = anyOf(VOCABULARIES.flatMap((v) => v.letterPlaces.after));
const LETTER_PLACE = new RegExp(
  `^(?:(?:${PLACE_BEFORE})\\s+)?(?<place>\\p{L}[\\p{L}'’. -]{1,40}?),\\s*(?:(?:${PLACE_AFTER})\\s+)?`,
  'iu',
);
/** Phrases of several words that say where a document was signed ("fait à", "ondertekend te"). */
const SIGNED_AT = anyOf(VOCABULARIES.flatMap((v) => v.letterPlaces.before).filter((w) => w.includes(' ')));
const SIGNED_AT_PLACE = new RegExp(
  `(?<![\\p{L}])(?:${SIGNED_AT})\\s+(?<place>\\p{L}[\\p{L}'’. -]{1,40}?)(?:,\\s*|\\s+)(?:(?:${PLACE_AFTER})\\s+)?(?=\\d)`,
  'giu',
);

/**
 * A letter's place before its date, at the start of `text`, with the words around it:
 * "Freiburg, ", "Paris, le ", "Milano, lì ", "Fait à Paris, le ", "En Madrid, a " (a town's name:
 * a capital, then letters, no digit). Undefined when the text starts with none.
 */
export const letterPlace = (text: string): string | undefined => {
  const m = LETTER_PLACE.exec(text);
  return m?.groups?.place && /^\p{Lu}/u.test(m.groups.place) ? m[0] : undefined;
};

/**
 * Where a sentence says a document was signed, in any language: "ondertekend te Utrecht op ",
 * "signed at London on ", "Fait à Paris, le ". Yields the offset where the date starts.
 */
export const signedAtPlaces = function* (text: string): Generator<number> {
  for (const m of text.matchAll(SIGNED_AT_PLACE))
    if (m.groups?.place && /^\p{Lu}/u.test(m.groups.place)) yield m.index + m[0].length;
};

/**
 * A title word of every language, `pick`ed from each vocabulary; in a compounding language also as
 * the end of a longer noun ("Mietrechnung", "Dienstleistungsvertrag").
 */
export const titleWordPattern = (pick: (v: Vocabulary) => readonly string[]): RegExp => {
  const source = (compound: boolean) =>
    anyOf(VOCABULARIES.filter((v) => !compound || v.compoundWords).flatMap(pick));
  return new RegExp(
    `(?<![\\p{L}])(?:${source(false)}|\\p{Lu}\\p{Ll}{2,}(?:${source(true)}))(?![\\p{L}])`,
    'iu',
  );
};
const INVOICE_CUE = titleWordPattern((v) => v.documentTypes.invoice);
const CREDIT_NOTE_CUE = titleWordPattern((v) => v.documentTypes.creditNote);
const OTHER_CUE = titleWordPattern((v) => v.documentTypes.other);

/**
 * The title of a document that is no invoice, where `text` starts with one: "Quotation",
 * "Angebot", "Lieferschein", "Devis", "Pakbon", "Proforma invoice". At the same start as an
 * invoice's title word it wins unless shorter ("Facture pro forma" over "Facture", and
 * "Proformarechnung" over the compound "…rechnung" it also is).
 */
export const otherDocumentCue = (text: string): { start: number; end: number; word: string } | undefined => {
  const other = OTHER_CUE.exec(text);
  if (!other) return undefined;
  const typed = documentTypeCue(text);
  if (
    typed &&
    (typed.start < other.index || (typed.start === other.index && typed.end - typed.start > other[0].length))
  )
    return undefined;
  return { start: other.index, end: other.index + other[0].length, word: other[0] };
};

/**
 * The document-type word a title starts with, if any: `creditNote` for "Gutschrift", "Avoir",
 * "Credit note", ...; `invoice` for "Rechnung", "Facture", "Factuur", "Invoice", ...
 */
export const documentTypeCue = (
  text: string,
): { kind: 'invoice' | 'creditNote'; start: number; end: number; word: string } | undefined => {
  const credit = CREDIT_NOTE_CUE.exec(text);
  const invoice = INVOICE_CUE.exec(text);
  const pick =
    credit && (!invoice || credit.index <= invoice.index)
      ? { m: credit, kind: 'creditNote' as const }
      : invoice
        ? { m: invoice, kind: 'invoice' as const }
        : undefined;
  if (!pick) return undefined;
  return { kind: pick.kind, start: pick.m.index, end: pick.m.index + pick.m[0].length, word: pick.m[0] };
};

const headingSource = (kind: keyof Vocabulary['itemTable']) =>
  anyOf(VOCABULARIES.flatMap((v) => v.itemTable[kind]));

/**
 * Item-table column headings of every language: a description column's word anywhere in its
 * cell ("Item description", "Bezeichnung"), a quantity's, the line amount's ending its cell
 * ("Line total", "Montant HT", "Amount (EUR)", "Amount (₹)", "Betrag €"), and a position number's starting it ("Pos.", "#").
 */
export const ITEM_HEADINGS = {
  description: new RegExp(`${NOT_WORD_BEFORE}(?:${headingSource('description')})${NOT_WORD_AFTER}`, 'iu'),
  quantity: new RegExp(`${NOT_WORD_BEFORE}(?:${headingSource('quantity')})${NOT_WORD_AFTER}`, 'iu'),
  amount: new RegExp(
    `${NOT_WORD_BEFORE}(?:${headingSource('amount')})(?:\\s*(?:\\((?:[A-Z]{3}|\\p{Sc})\\)|\\p{Sc}))?$`,
    'iu',
  ),
  // With or without its abbreviation's dot: "Lp.", "Pos.", "No.".
  position: new RegExp(`^(?:${headingSource('position')})\\.?(?:\\s|$)`, 'iu'),
} as const;
