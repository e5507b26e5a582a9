import * as z from 'zod';
import { ContractVocabularySchema } from './contractSchema.js';
import { WordListSchema } from './wordList.js';

/**
 * The shape of a language's vocabulary file (`<code>.json` beside this module): labels,
 * document-type words, month names and number and date conventions. Vocabularies are data: a new
 * language is a new file (and its line in `languages.ts`), never new extraction code.
 */

const words = WordListSchema;

/** Labels of one field: `strong` name the field unmistakably, `weak` fit it among others. */
const LabelSetSchema = z.object({ strong: words, weak: words.optional() }).strict();

/**
 * Every field or role a label can name. `customerVatId` and `customerNumber` exist to be told
 * apart; `partyName` labels the name in a party's block ("Razão Social:", "Company name:");
 * `attention` marks whom in the customer's organisation the invoice is for ("Attn:", "z. Hd.",
 * "t.a.v."): a person or a department, under the customer's name; `payee` names who is paid
 * ("Remit to:"), usually the issuer, but a factor where the invoice was assigned to one; `carried`
 * labels an amount carried over from elsewhere, a balance of earlier invoices or a page's sum
 * ("Previous balance", "Saldovortrag", "Übertrag"), which is no total of this invoice.
 */
export const LABEL_FIELDS = [
  'invoiceNumber',
  'invoiceDate',
  'dueDate',
  'deliveryDate',
  'vendor',
  'customer',
  'attention',
  'payee',
  'partyName',
  'currency',
  'subtotal',
  'tax',
  'total',
  'amountDue',
  'prepaid',
  'withholding',
  'rounding',
  'discount',
  'charge',
  'vatId',
  'customerVatId',
  'iban',
  'poNumber',
  'contractReference',
  'paymentTerms',
  'customerNumber',
  'carried',
] as const;
/** A field or role a label names. */
export type LabelField = (typeof LABEL_FIELDS)[number];

/** The label fields that name an identifier: a number or code, never an amount, date or name. */
export const IDENTIFIER_LABEL_FIELDS: ReadonlySet<LabelField> = new Set<LabelField>([
  'invoiceNumber',
  'poNumber',
  'contractReference',
  'customerNumber',
  'vatId',
  'customerVatId',
  'iban',
]);

/**
 * The label fields that name a sum of money of the whole invoice (its totals block's rows): the
 * totals, what was prepaid, withheld or rounded off, and the discounts and charges (shipping,
 * freight) between net and total.
 */
const MONEY_FIELDS = [
  'total',
  'amountDue',
  'subtotal',
  'tax',
  'prepaid',
  'withholding',
  'rounding',
  'discount',
  'charge',
] as const satisfies readonly LabelField[];
/** A label field that names a sum of money of the whole invoice: the role it gives an amount. */
export type MoneyLabelField = (typeof MONEY_FIELDS)[number];
export const MONEY_LABEL_FIELDS: ReadonlySet<LabelField> = new Set<LabelField>(MONEY_FIELDS);

/** The VAT id's label field alone: a line that states a registration, not a sum. */
export const VAT_ID_LABEL_FIELDS: ReadonlySet<LabelField> = new Set<LabelField>(['vatId']);

/** A money label field only a totals block uses (see `TOTALS_LABEL_FIELDS`). */
export type TotalsLabelField = Exclude<MoneyLabelField, 'discount' | 'charge'>;
/**
 * The money label fields only a totals block uses: its nets, taxes, totals and what lies between
 * the gross and the amount to pay. Not discounts and charges: an item may be freight or a discount.
 */
export const TOTALS_LABEL_FIELDS: ReadonlySet<LabelField> = new Set<LabelField>(
  MONEY_FIELDS.filter((f): f is TotalsLabelField => f !== 'discount' && f !== 'charge'),
);

/** One language's vocabulary. */
export const VocabularySchema = z
  .object({
    /** ISO 639-1 code. */
    code: z.string().regex(/^[a-z]{2}$/),
    name: z.string().min(1),
    /** How the language writes numeric dates: day first, month first, or either (English). */
    dateOrder: z.enum(['dmy', 'mdy', 'unknown']),
    /** The decimal separator the language uses in amounts. */
    decimalSeparator: z.enum(['.', ',']),
    /**
     * The language builds compound nouns, so a document-type word also ends longer titles
     * ("Mietrechnung", "Betriebskostenabrechnung", "eindfactuur").
     */
    compoundWords: z.boolean(),
    /** Common words, for telling the language of a text. */
    stopwords: words,
    /**
     * Numbers written as words, as contracts write durations ("drei Monate", "douze (12) mois"):
     * each word with its value. English composes larger ones from these ("twenty-four", "one
     * hundred eighty"); other languages list the ones contracts use whole ("vierundzwanzig").
     */
    numberWords: z.record(z.string().trim().min(1).max(40), z.int().min(0).max(1000)),
    /** Month names, January first, each with its abbreviations (lower case). */
    months: z.array(words.min(1)).length(12),
    /**
     * Words that title a document of each kind. `other` titles documents that carry an invoice's
     * fields but are no invoice, so nothing in them is to be paid or booked as one: a quotation,
     * an order, a delivery note, a statement of account, a payment reminder, a pro forma.
     */
    documentTypes: z.object({ invoice: words, creditNote: words, other: words }).strict(),
    /** Words that join a title's number to its date ("Rechnung 42 vom 5.3.2018"). */
    titleDateLinks: words,
    /**
     * Words that join a title to whoever issued it ("Rechnung des Versicherers Nr. 5", "Invoice of
     * the insurer No. 5"): the number after that phrase is still the document's. A title joined to
     * anything else ("Rechnung zur Kraftfahrtversicherung Nr. 5") numbers that other thing. The
     * same words after a money label say what it totals ("Gesamtbetrag der Zuschläge").
     */
    titleIssuerLinks: words,
    /**
     * Phrases after which an amount is a fact about the company, not the invoice ("au capital de
     * 120 000,00 €" in a letterhead's legal line): never read as a total, tax or net.
     */
    notMoney: words,
    /**
     * Courtesy titles that open a person's address ("Herrn", "Mr", "Mme"): a line that holds only
     * one names nobody, and the name after one is the person's. Not academic titles: "Dr." starts
     * company names ("Dr. Oetker").
     */
    salutations: words,
    /**
     * Words that introduce a business's owner under its name ("Inh. Maria Gruber e.K." under
     * "Hotel Alpenblick", "Prop.", "Titolare"): the line names the person who owns the business,
     * not the business that issued the document.
     */
    owners: words,
    /**
     * The mention a self-billed invoice carries (EU VAT Directive art. 226(10a): "Self-billing",
     * "Autofacturation", "Gutschriftsverfahren"): the customer wrote it, so its letterhead names
     * the customer and its window the supplier, who is paid. Empty where not known.
     */
    selfBilling: words,
    /**
     * Abbreviations whose dot ends no sentence ("zzgl.", "inkl.", "ca.", "approx."): a contract's
     * sentence about its price goes on after "900,00 € zzgl. USt." to the total it states.
     */
    abbreviations: words,
    /**
     * Column headings of an item table: the description's, the quantity's, the line amount's
     * (the last column), and the position number's ("Pos.", "#").
     */
    itemTable: z
      .object({ description: words.min(1), quantity: words.min(1), amount: words.min(1), position: words })
      .strict(),
    /**
     * How a letter or a contract writes where and when it was dated: phrases `before` the place
     * ("Fait à", "ondertekend te", "Signed at") and words `after` it, before the date ("Berlin,
     * den", "Paris, le", "Madrid, a", "Milano, lì").
     */
    letterPlaces: z.object({ before: words, after: words }).strict(),
    /**
     * How payment terms offer a discount for paying early ("bis 16.05.2024 mit 2 % Skonto", "less
     * 2% early payment discount"): a date in a clause with a `discount` word and a rate is the
     * discount's deadline, not the due date; once a discount is offered, a date in a clause with a
     * `net` word ("bis 05.06.2024 ohne Abzug", "net due 05/06/2024") is the due date.
     */
    cashDiscount: z.object({ discount: words.min(1), net: words.min(1) }).strict(),
    /**
     * How a sentence asks for payment by a date ("Bitte überweisen Sie den Betrag bis zum
     * 27.05.2024", "Please settle this invoice before 30 June 2024"): a date right after a `by`
     * word, in a clause with a `pay` word, is the due date. And verbs that say the amount will be
     * collected by direct debit ("abgebucht", "prélevé", "collected"; empty where not known): the
     * one date of their clause is the due date.
     */
    paymentDeadline: z.object({ pay: words.min(1), by: words.min(1), debit: words }).strict(),
    /**
     * How a page numbers itself and says the document goes on ("Seite 1 von 2", "Pagina 2 van 3",
     * "Fortsetzung auf Seite 2", "suite"): such lines at a page's edge are furniture, so an item
     * table runs on across the break. `of` is empty where pages are written "1/2".
     */
    pageNumbers: z.object({ page: words.min(1), of: words, continued: words.min(1) }).strict(),
    /** How contracts in the language are titled, name their parties and label their terms. */
    contract: ContractVocabularySchema,
    labels: z.object(
      Object.fromEntries(LABEL_FIELDS.map((f) => [f, LabelSetSchema])) as Record<
        LabelField,
        typeof LabelSetSchema
      >,
    ),
  })
  .strict();
/** One language's vocabulary. */
export type Vocabulary = z.infer<typeof VocabularySchema>;
