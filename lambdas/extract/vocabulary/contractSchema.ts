import * as z from 'zod';
import { WordListSchema } from './wordList.js';

/**
 * The contract part of a language's vocabulary: how the language titles a contract, introduces
 * its parties and their roles, labels its terms, and names units of time. The contract finders
 * read these words; none of them is spelled in extraction code.
 */

const words = WordListSchema;

/** Every contract field or term a label can name. */
export const CONTRACT_LABEL_FIELDS = [
  'contractNumber',
  /** A reference that may number the contract ("Ref."): weaker than a contract-number label. */
  'reference',
  'effectiveDate',
  'expirationDate',
  /** A term written as a range of two dates ("Term: 1 March 2025 to 28 February 2027"). */
  'termRange',
  'term',
  'totalValue',
  'paymentTerms',
  'governingLaw',
  'renewal',
  'noticePeriod',
  'signedDate',
] as const;
/** A contract field or term a label names. */
export type ContractLabelField = (typeof CONTRACT_LABEL_FIELDS)[number];

/** One language's contract words. */
export const ContractVocabularySchema = z
  .object({
    /**
     * Words that title a contract ("Agreement", "Vertrag", "Contrat", "Overeenkomst"). In a
     * compounding language also as the end of a longer noun ("Dienstleistungsvertrag").
     */
    titles: words.min(1),
    /**
     * Words that open the list of parties or one of its entries ("between", "zwischen", "entre",
     * "tussen", "tra", "de una parte", "da una parte").
     */
    between: words.min(1),
    /**
     * Words that join the party list's entries ("and", "und", "et", "en", "y", "e"). Only one that
     * opens its line or follows a comma separates parties: inside a name it is part of it
     * ("Müller und Söhne GmbH").
     */
    and: words.min(1),
    /**
     * Words that introduce a party's defined role ("hereinafter", "nachfolgend", "ci-après",
     * "hierna", "en adelante", "di seguito"): the party's name ends where they begin.
     */
    definedAs: words.min(1),
    /** The words a contract calls each party by, which also label them in a form. */
    roles: z.object({ provider: words.min(1), customer: words.min(1) }).strict(),
    /** Articles a defined role may carry inside its quotes (« le Prestataire », "el Cliente"). */
    articles: words,
    /**
     * Nouns that introduce a company before its name, after an article or not ("la société", "der
     * Firma", "la ditta"): "société", "Firma", "ditta". Not words that are part of names
     * ("Stichting Zorggroep Oost").
     */
    partyPrefixes: words,
    /**
     * Phrases after which the party a person signs for is named ("en nombre y representación de",
     * "on behalf of"): the person named before is not the party.
     */
    onBehalfOf: words,
    /** Phrases only contracts use ("the parties", "Vertragsparteien", "tacite reconduction"). */
    signals: words,
    /**
     * Cues in a contract's clauses. A date or a duration follows `effective` (when it takes
     * effect: "beginnt am", "prend effet le"), `expiration` (when it ends) and `term` (for how long
     * it runs: "looptijd van"). `value` words make a sentence one about the contract's price
     * ("Vergütung", "prix"), and of its amounts the one a `total` word stands beside ("£84,000 in
     * total", "insgesamt 9.600,00 €") is the whole contract's; `payment` words make one about
     * paying ("zahlbar", "facture"). `renews` and `noRenewal` say whether it renews by itself
     * ("tacite reconduction", "verlängert sich nicht"). `perMonth`, `perQuarter` and `perYear` make
     * an amount beside them a periodic fee ("£7,000 per month", "$12,000 per quarter", "jährliche
     * Pauschale 4.800,00 €"), which times the term is the total a contract states. A count
     * before an `installments` word and the amount after it ("three instalments of £15,000", "in
     * drei Raten zu je 15.000 €", "en 12 mensualités de 400 €") make the total the same way.
     * `perUnit` words make an amount beside them a rate for an hour, a day or a unit of work ("$200
     * per hour", "Stundensatz 120 €", "par jour"): what the work costs, never the total.
     * In a sentence with a `termination` word ("gekündigt", "résiliation"), the number of days
     * after a `notice` cue ("mit einer Frist von", "moyennant un préavis de") is the notice needed
     * to end the contract. English prose is also read by the finders' own patterns, which know
     * its grammar.
     */
    cues: z
      .object({
        effective: words,
        /**
         * Words that FOLLOW the date a contract takes effect on, in languages that put the verb
         * last ("01.04.2025 tarihinde yürürlüğe girer", "2025. április 1-jén lép hatályba"; the
         * Hungarian day's suffix after its hyphen starts the words). `effective` words precede it.
         */
        effectiveAfterDate: words.optional(),
        expiration: words,
        term: words,
        /** Words that FOLLOW a contract's term, where the verb comes last ("12 ay süreyle", "12 hónapig tart"). */
        termAfterDuration: words.optional(),
        value: words,
        total: words,
        perMonth: words,
        perQuarter: words,
        perYear: words,
        installments: words,
        perUnit: words,
        payment: words,
        renews: words,
        noRenewal: words,
        notice: words,
        termination: words,
      })
      .strict(),
    /** Words that join the two dates of a period ("to", "bis", "au", "tot en met", "al"). */
    rangeJoins: words.min(1),
    /**
     * Words that make a sentence's amount something else than the contract's value (insurance,
     * liability, penalties), whatever else it says.
     */
    notValue: words,
    /** Words for the law that governs a contract ("law", "Recht", "droit", "legislación"). */
    lawWords: words.min(1),
    /**
     * Jurisdictions, by their English name, with the words that name them in the language: its
     * adjectives in every form ("deutsches", "française", "Nederlands") and the country's names
     * ("Bundesrepublik Deutschland"). "deutsches Recht" and "droit français" are read as
     * "Germany" and "France", whatever the contract's language.
     */
    laws: z.record(z.string().min(2).max(60), words),
    /** Units of time, each with its plural and abbreviations (lower case). */
    units: z
      .object({ days: words.min(1), weeks: words.min(1), months: words.min(1), years: words.min(1) })
      .strict(),
    labels: z
      .object(
        Object.fromEntries(CONTRACT_LABEL_FIELDS.map((f) => [f, words])) as Record<
          ContractLabelField,
          typeof words
        >,
      )
      .strict(),
  })
  .strict();
/** One language's contract words. */
export type ContractVocabulary = z.infer<typeof ContractVocabularySchema>;
