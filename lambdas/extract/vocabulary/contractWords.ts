import type { ContractLabelField, ContractVocabulary } from './contractSchema.js';
import { VOCABULARIES } from './languages.js';
import { fold, NOT_WORD_AFTER, NOT_WORD_BEFORE } from './lexicon.js';
import { anyOf, RANGE_JOIN_PATTERN, titleWordPattern } from './words.js';

/**
 * The contract words of every language, compiled once: a contract is read whatever its language
 * ("Vertrag", "Contrat", "Overeenkomst"), and bilingual contracts mix two.
 */

const every = (pick: (c: ContractVocabulary) => readonly string[]): string =>
  anyOf(VOCABULARIES.flatMap((v) => pick(v.contract)));

/** The words or phrases `pick`ed from every contract vocabulary, as whole words. */
const phrases = (pick: (c: ContractVocabulary) => readonly string[], flags = 'iu') =>
  new RegExp(`${NOT_WORD_BEFORE}(?:${every(pick)})${NOT_WORD_AFTER}`, flags);

/** A party's role in a contract. */
export type ContractRole = keyof ContractVocabulary['roles'];

/**
 * Regular expression source of the labels of a contract field in every language (for
 * `findLabelled`, which matches it case-insensitively with the `u` flag). A party role's labels
 * are its role words ("Auftraggeber:", "Client:"). A contract number's label in a compounding
 * language may start with the contract's kind ("Mietvertrags-Nr.").
 */
export const contractLabels = (field: ContractLabelField | ContractRole): string => {
  let labels = labelSources.get(field);
  if (labels === undefined) {
    labels = labelSourceOf(field);
    labelSources.set(field, labels);
  }
  return labels;
};

// Built on first use and kept: the finders ask for them on every document.
const labelSources = new Map<ContractLabelField | ContractRole, string>();

const labelSourceOf = (field: ContractLabelField | ContractRole): string => {
  if (field === 'provider' || field === 'customer') return every((c) => c.roles[field]);
  const labels = every((c) => c.labels[field]);
  if (field !== 'contractNumber') return labels;
  // A compounding language numbers a contract after its compound title: "Mietvertragsnummer",
  // "Wartungsvertrags-Nr.".
  const compound = anyOf(
    VOCABULARIES.filter((v) => v.compoundWords).flatMap((v) => v.contract.labels.contractNumber),
  );
  return `${labels}|\\p{L}{2,}(?:${compound})`;
};

/** Whole-text tests of a role word ("Auftragnehmer", "le Prestataire" without its article). */
export const ROLE_WORD: Readonly<Record<ContractRole, RegExp>> = {
  provider: new RegExp(`^(?:${every((c) => c.roles.provider)})$`, 'iu'),
  customer: new RegExp(`^(?:${every((c) => c.roles.customer)})$`, 'iu'),
};

/** A contract's title word wherever it stands in a text: "Agreement", "Rahmenvertrag", "CONTRAT". */
export const CONTRACT_TITLE = titleWordPattern((v) => v.contract.titles);

/**
 * A contract's one-word title and nothing else: "Contract", "Vertrag", "Overeenkomst" (no
 * compound). A title of several words names a kind of contract ("Smlouva o dílo", "Umowa
 * ramowa"), as a compound does, and is no bare word.
 */
export const BARE_CONTRACT_WORD = new RegExp(
  `^\\s*(?:${every((c) => c.titles.filter((t) => !/\s/.test(t)))})\\s*$`,
  'iu',
);

const ARTICLE = `(?:${every((c) => c.articles)})`;
const ROLE = `(?:${every((c) => [...c.roles.provider, ...c.roles.customer])})`;
const ROLE_LABEL = new RegExp(`^\\s*(?:${ARTICLE}\\s+)?(${ROLE})\\s*:`, 'iu');

/**
 * A role word as a label opening a line or cell, its article allowed ("Lessor:", "Der Vermieter:",
 * "Le Bailleur :"): the role and the word, or undefined.
 */
export const roleLabelOf = (text: string): { role: ContractRole; word: string } | undefined => {
  const word = ROLE_LABEL.exec(text)?.[1];
  if (word === undefined) return undefined;
  return { role: ROLE_WORD.provider.test(word) ? 'provider' : 'customer', word: word.toLowerCase() };
};
const OPEN_QUOTE = `["'«„“‚‹”]`;
const CLOSE_QUOTE = `["'»“”‘’›]`;

/**
 * A party's defined role, in its three shapes:
 * - quoted in parentheses: `("Provider")`, `(the "Supplier")`, `(« le Client »)`;
 * - after a defined-as word, quoted or not: `(hereinafter referred to as "Client")`, `nachfolgend
 *   „Auftragnehmer“ genannt`, `ci-après dénommée « le Prestataire »`, `hierna te noemen:
 *   "Opdrachtgever"`, `(en adelante, "el Proveedor")`, `(di seguito "Fornitore")`;
 * - bare in parentheses, as English contracts list their parties: `(1) ACME LIMITED ... (Supplier).`
 *
 * Groups, by shape: `open` and `role1`; `definedAs`, `open2` (if quoted) and `role2`; `role3`.
 */
export const DEFINED_ROLE = new RegExp(
  `(?:\\(\\s*(?:${ARTICLE}\\s+)?(?<open>${OPEN_QUOTE})\\s*(?:${ARTICLE}\\s*)?(?<role1>${ROLE})\\s*${CLOSE_QUOTE}\\s*\\)` +
    `|${NOT_WORD_BEFORE}(?<definedAs>${every((c) => c.definedAs)})${NOT_WORD_AFTER}[^"«„“”();]{0,40}?` +
    `(?:${ARTICLE}\\s+)?(?<open2>${OPEN_QUOTE})?\\s*(?:${ARTICLE}\\s*)?(?<role2>${ROLE})${NOT_WORD_AFTER}\\s*${CLOSE_QUOTE}?` +
    `|\\(\\s*(?<role3>${ROLE})\\s*\\))`,
  'giu',
);

/** The word that opens a contract's list of parties, with the spaces after it. */
export const PARTIES_BETWEEN = new RegExp(
  `${NOT_WORD_BEFORE}(?:${every((c) => c.between)})${NOT_WORD_AFTER}\\s*`,
  'giu',
);

/**
 * The word that opens a line of a contract's list of parties, "between" or "and" ("zwischen der
 * Schreinerei Holz & Form GmbH, …", "und der …"), with the spaces after it.
 */
export const PARTY_LINE_OPENING = new RegExp(
  `^\\s*(?:${every((c) => c.between)}|${every((c) => c.and)})${NOT_WORD_AFTER}\\s*`,
  'iu',
);

// A hyphen right after a letter ends the first word of a compound the "and" completes ("Bouw- en
// Installatiebedrijf Jansen B.V.", "Garten- und Landschaftsbau GmbH"): it separates no parties.
const andPattern = (words: string) =>
  new RegExp(`(?:^|\\n|[,;–—»“”"')]\\s*|(?<!\\p{L})-\\s*)\\s*(?:${words})${NOT_WORD_AFTER}\\s*`, 'giu');
const PARTIES_AND_BY_LANGUAGE = new Map(VOCABULARIES.map((v) => [v.code, andPattern(anyOf(v.contract.and))]));
const PARTIES_AND_ANY = andPattern(every((c) => c.and));

/**
 * A word that separates two parties ("and", "und", "ET") in the document's language (any, when it
 * is not known): one that opens its line or follows a comma, a semicolon, a dash or a closing
 * quote, with the spaces after it. Inside a name the same word joins it ("Müller und Söhne GmbH",
 * "Research and Development Inc."), and another language's "and" is a word of this one (the
 * Dutch "en" in French: ", en sa qualité de Président").
 */
export const partiesAnd = (language: string | undefined): RegExp =>
  (language && PARTIES_AND_BY_LANGUAGE.get(language)) || PARTIES_AND_ANY;

/** Words that introduce a company before its name, at the start of a text: "La société ", "der Firma ". */
export const PARTY_PREFIX = new RegExp(
  `^(?:${ARTICLE}\\s*)?(?:${every((c) => c.partyPrefixes)})${NOT_WORD_AFTER}\\s*`,
  'iu',
);

/**
 * An article before a party's name in running text ("und der Nordhandel KG", "y la Distribuidora
 * Sur S.L."): in lower case, as running text writes it, so a name that starts with the same
 * word ("De Boer B.V.", "La Mancha S.A.") keeps it.
 */
export const NAME_ARTICLE = new RegExp(`^${ARTICLE}\\s*(?=\\p{Lu})`, 'u');

/** "on behalf of" in every language: the party is named after it, not the person before. */
export const ON_BEHALF_OF = new RegExp(
  `${NOT_WORD_BEFORE}(?:${every((c) => c.onBehalfOf)})${NOT_WORD_AFTER}\\s*`,
  'giu',
);

/** Phrases only contracts use, any language (global: count them). */
export const CONTRACT_SIGNALS = phrases((c) => c.signals, 'giu');

/**
 * A clause's cue for a contract term in every language, ending where its value starts
 * ("beginnt am ", "prend effet le ", "looptijd van ", "préavis de ", "durée d'").
 */
export const contractCue = (term: CueTerm): RegExp => CUES[term];

type CueTerm = 'effective' | 'expiration' | 'term' | 'notice';
// A cue that ends in an elided word runs into its value with no space: "pour une durée d'un an".
const cue = (term: CueTerm) =>
  new RegExp(`${NOT_WORD_BEFORE}(?:${every((c) => c.cues[term])})(?:\\s+|(?<=')(?=\\p{L}))`, 'iu');
// Not global, so one instance serves every caller (it keeps no `lastIndex`).
const CUES: Readonly<Record<CueTerm, RegExp>> = {
  effective: cue('effective'),
  expiration: cue('expiration'),
  term: cue('term'),
  notice: cue('notice'),
};

/** What joins the two dates of a period, the whole text between them: a dash, "to", "bis", "au". */
export const RANGE_JOIN = new RegExp(`^\\s*${RANGE_JOIN_PATTERN}\\s*$`, 'iu');

/** Optional words of every contract vocabulary, whole; matches nothing where no vocabulary has any. */
function afterValue(pick: (c: ContractVocabulary) => readonly string[] | undefined): RegExp {
  return VOCABULARIES.some((v) => pick(v.contract)?.length) ? phrases((c) => pick(c) ?? []) : /(?!)/u;
}

/**
 * Words that follow the date a contract takes effect on ("tarihinde yürürlüğe girer", "lép
 * hatályba"), any language; matches nothing where no vocabulary has any.
 */
export const EFFECTIVE_AFTER_DATE = afterValue((c) => c.cues.effectiveAfterDate);

/** Words that follow a contract's term ("12 ay süreyle", "12 hónapig tart"), any language. */
export const TERM_AFTER_DURATION = afterValue((c) => c.cues.termAfterDuration);

/** Words that make a sentence one about paying ("payable", "zahlbar", "facture"). */
export const PAYMENT_WORDS = phrases((c) => c.cues.payment);
/** Phrases that say a contract renews by itself ("verlängert sich automatisch", "tacite reconduction"). */
export const RENEWS = phrases((c) => c.cues.renews);
/** Phrases that say it does not ("verlängert sich nicht", "sans tacite reconduction"). */
export const NO_RENEWAL = phrases((c) => c.cues.noRenewal);
/** Words that make a sentence one about ending the contract ("gekündigt", "résiliation", "disdetta"). */
export const TERMINATION_WORDS = phrases((c) => c.cues.termination);
/**
 * A notice period's own word anywhere in a text ("uppsägningstid", "Kündigungsfrist"), also as
 * the start of a longer word ("uppsägningstiden"): the labels of `contractLabels('noticePeriod')`.
 */
export const NOTICE_PERIOD_WORDS = new RegExp(
  every((c) => c.labels.noticePeriod),
  'iu',
);

/**
 * Words that make a sentence one about the contract's price ("fees", "Vergütung", "prix"), and
 * in a compounding language a word that ends in one ("Wartungspauschale", "Nettokaltmiete").
 */
export const VALUE_WORDS = new RegExp(
  `${NOT_WORD_BEFORE}(?:${every((c) => c.cues.value)}|\\p{L}{3,}(?:${anyOf(
    VOCABULARIES.filter((v) => v.compoundWords).flatMap((v) => v.contract.cues.value),
  )}))${NOT_WORD_AFTER}`,
  'iu',
);

/** Words that say an amount is the whole of several ("in total", "insgesamt", "au total"). */
export const TOTAL_WORDS = phrases((c) => c.cues.total);

/** Words that make an amount a monthly fee ("per month", "monatliche", "mensuales"). */
export const PER_MONTH = phrases((c) => c.cues.perMonth);
/** Words that make an amount a quarterly fee ("per quarter", "vierteljährlich", "par trimestre"). */
export const PER_QUARTER = phrases((c) => c.cues.perQuarter);
/** Words that make an amount a yearly fee ("annual", "jährlich", "par an"). */
export const PER_YEAR = phrases((c) => c.cues.perYear);
/** Words that make an amount a rate for an hour, a day or a unit ("per hour", "Stundensatz", "par jour"). */
export const PER_UNIT = phrases((c) => c.cues.perUnit);

/** Regular expression source of the words for a payment in parts ("instalments", "Raten", "versements"). */
export const INSTALLMENT_WORD = `${NOT_WORD_BEFORE}(?:${every((c) => c.cues.installments)})${NOT_WORD_AFTER}`;

/** Words that make a sentence's amount something else than the contract's value. */
export const NOT_VALUE_WORDS = phrases((c) => c.notValue);

/** Regular expression source of a unit of time in every language ("days", "Tagen", "mois"). */
export const timeUnit = (unit: keyof ContractVocabulary['units']): string =>
  `(?:${every((c) => c.units[unit])})`;

const JURISDICTION_OF = new Map<string, string>();
for (const v of VOCABULARIES)
  for (const [jurisdiction, names] of Object.entries(v.contract.laws))
    for (const name of names) JURISDICTION_OF.set(fold(name).replace(/\s+/g, ' '), jurisdiction);
const JURISDICTION = anyOf(VOCABULARIES.flatMap((v) => Object.values(v.contract.laws).flat()));
const LAW = `(?:${every((c) => c.lawWords)})`;
const LAW_OF = new RegExp(
  `${NOT_WORD_BEFORE}(?:(?<before>${JURISDICTION})\\s+${LAW}|${LAW}(?:\\s+\\p{L}+){0,3}?\\s+(?<after>${JURISDICTION}))${NOT_WORD_AFTER}`,
  'giu',
);

/**
 * The jurisdictions whose law a text names, by their English names, with where each is named:
 * "deutsches Recht", "das Recht der Bundesrepublik Deutschland" (Germany), "droit français"
 * (France), "Nederlands recht", "legislación española", "legge italiana", "English law"
 * (England and Wales).
 */
export const lawsNamed = (text: string): { jurisdiction: string; index: number }[] =>
  [...text.matchAll(LAW_OF)].flatMap((m) => {
    const name = m.groups?.before ?? m.groups?.after ?? '';
    const jurisdiction = JURISDICTION_OF.get(fold(name).replace(/\s+/g, ' '));
    return jurisdiction ? [{ jurisdiction, index: m.index }] : [];
  });
