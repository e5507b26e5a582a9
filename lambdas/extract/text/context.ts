import { detectLanguage, labelsIn, VAT_ID_LABEL_FIELDS, vocabularyOf } from '../vocabulary/index.js';
import { currencyHeadingOver } from './amountColumn.js';
import {
  type DecimalMark,
  type FoundAmount,
  findAmounts,
  inferDecimalMark,
  isDollarCurrency,
  statedCurrencies,
} from './parseAmount.js';
import { type DayMonthOrder, findDates, inferDayMonthOrder } from './parseDate.js';
import { type DocText, nextContentLine } from './textIndex.js';

/** What every field finder of one document shares. */
export interface FinderContext {
  doc: DocText;
  /** How the document writes slash dates: settled from its unambiguous ones, else its language's habit. */
  order: DayMonthOrder;
  /**
   * `order` is settled only by where the document's parties are (a VAT id, a registration, their
   * addresses), not by its own dates or language: a software's default may print another way,
   * and a due date that reads before the issue date says so.
   */
  orderFromLocale: boolean;
  /** The currency most amounts carry, for amounts written without one. */
  currency?: string;
  /**
   * The currency a bare "$" stands for: the one dollar currency the document names ("Total CAD",
   * "$1,250.00 USD", "A$"). Undefined when it names none or several: "$" alone is the dollar of
   * many countries.
   */
  dollar?: string;
  /**
   * The dollar a bare "$" probably is when the document names none: that of the one dollar country
   * whose business registration it prints (an ABN is Australian). A guess, as the registration may
   * be the customer's: it replaces the US dollar as the guess, and is no surer.
   */
  likelyDollar?: string;
  /**
   * The krona "kr" stands for: that of the one krona country whose business registration the
   * document prints (a Swedish org.nr, a Danish CVR, a Norwegian org.nr or MVA number). "kr" alone
   * is the krona of four countries, and their languages read alike to a detector of common words.
   */
  krona?: string;
  /** The document's decimal separator, from its amounts, else its language's habit. */
  decimal?: DecimalMark;
  /**
   * The document's own amounts write cents ("529,87", "1,234.56" dominate): money it prints with
   * no decimals may have lost its decimal mark ("21848" for "218,48" in a scan).
   */
  writesCents: boolean;
  /** ISO 639-1 code of the document's language, when its words tell. */
  language?: string;
  /**
   * Both parties print US addresses and nothing names another country (`domesticUs`): where no
   * amount carries a sign, the US dollar is the one guess the addresses allow.
   */
  usDomestic: boolean;
}

/** The currency written most often next to amounts in the document. */
const dominantCurrency = (doc: DocText, decimal: DecimalMark | undefined): string | undefined => {
  const counts = new Map<string, number>();
  for (const line of doc.lines) {
    const amounts = findAmounts(line.text, { bare: false, ...(decimal ? { decimal } : {}) }).filter(
      (amount): amount is FoundAmount & { currency: string } => amount.currency !== undefined,
    );
    // Dates only where there is an amount they could overlap: most lines have none.
    const dates = amounts.length > 0 ? findDates(line.text) : [];
    for (const amount of amounts) {
      if (dates.some((d) => amount.start < d.end && amount.end > d.start)) continue;
      counts.set(amount.currency, (counts.get(amount.currency) ?? 0) + 1);
    }
    // The last column's heading naming the currency over a row that ends in an amount ("Amount
    // (RM)", "GP €", "Annual Fee (GBP)") counts as one of the amounts under it: a table may print
    // no currency beside any amount. Over no amount ("Bank account  EUR") it names none.
    const named = currencyHeadingOver(line, nextContentLine(doc, line));
    if (named) counts.set(named, (counts.get(named) ?? 0) + 1);
    const stated = /\b(?:currency|all amounts in|amounts in)\s*:?\s*([A-Z]{3})\b/i.exec(line.text);
    if (stated?.[1]) counts.set(stated[1].toUpperCase(), (counts.get(stated[1].toUpperCase()) ?? 0) + 5);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
};

/**
 * Currencies of countries that write the day first (the UK, Ireland and the euro area, India,
 * Malaysia, the Gulf states, ...).
 */
const DAY_FIRST_CURRENCIES: ReadonlySet<string> = new Set([
  'EUR',
  'GBP',
  'INR',
  'AUD',
  'NZD',
  'ZAR',
  'CHF',
  'SGD',
  'HKD',
  'MYR',
  'AED',
  'SAR',
]);

/**
 * A European VAT id's country prefix after its label ("VAT Registration No. GB 123 4567 89",
 * "USt-IdNr.: DE123456789", "CHE-123.456.789 MWST"): every country that issues one writes the
 * day first. Not "EU": that prefix is the scheme for sellers from outside the Union.
 */
const EUROPEAN_VAT_ID =
  /^\s*[:.]?\s*(?:AT|BE|BG|CHE|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|NO|PL|PT|RO|SE|SI|SK|XI)[\s.-]?\d/;

/** Whether the document states a VAT id of a European country under a VAT-id label. */
const statesEuropeanVatId = (doc: DocText): boolean =>
  doc.lines.some((line) =>
    labelsIn(line.text, VAT_ID_LABEL_FIELDS).some((label) =>
      EUROPEAN_VAT_ID.test(line.text.slice(label.end)),
    ),
  );

/**
 * How a document in a language that writes dates both ways (English) writes them, when none of
 * its own dates settles it: day first when its amounts use a decimal comma (no country writes
 * both a decimal comma and the month first), or when its currency is that of day-first countries
 * and it is registered there: for VAT in Europe (a UK invoice in pounds with its GB VAT number),
 * or with the business registration of the dollar country whose dollars it names (an Australian
 * invoice in AUD with its ABN, a Singapore one in S$ with its GST registration); probably day
 * first, but still to be confirmed, on the currency alone. The US dollar says nothing. A document
 * that prints no currency at all and a European VAT id is European, and writes the day first.
 * `registered` is the one dollar country's registration the document prints; it settles the
 * order only where the document states that dollar itself (`stated`).
 */
const localeOrder = (
  decimal: DecimalMark | undefined,
  currency: string | undefined,
  registered: string | undefined,
  stated: string | undefined,
  doc: DocText,
): DayMonthOrder => {
  if (decimal === ',') return 'dmy';
  if (currency === 'USD' && domesticUs(doc, registered)) return 'mdy';
  // No currency printed at all (a UK Sage invoice's bare "1,740.00"): the European VAT id is the
  // only sign of where the document is from; a registration only a day-first country issues (an
  // Indian GSTIN, an Australian ABN) makes it likely.
  if (currency === undefined) {
    if (statesEuropeanVatId(doc)) return 'dmy';
    return registered !== undefined && DAY_FIRST_CURRENCIES.has(registered) ? 'dmy-likely' : 'unknown';
  }
  if (!DAY_FIRST_CURRENCIES.has(currency)) return 'unknown';
  return (registered === stated && registered === currency) || statesEuropeanVatId(doc)
    ? 'dmy'
    : 'dmy-likely';
};

/** A US state's or territory's code and a ZIP code after a town: "Denver, CO 80203", "Fresno CA 93744-0001". */
const US_ADDRESS =
  /\p{L}[.,]?\s+(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|PR|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])\s+\d{5}(?:-\d{4})?\b/gu;
/** Addresses of the other countries that bill in dollars: a Canadian postcode, an Australian state and postcode, a UK postcode. */
const OTHER_DOLLAR_ADDRESS =
  /\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b|\b(?:NSW|VIC|QLD|SA|WA|TAS|NT|ACT)\s+\d{4}\b|\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b/;

/**
 * Whether both parties are in the United States, as a domestic invoice there is: two US addresses
 * and none of another country (a European VAT id, another dollar country's registration or
 * address). One US address may be the customer's of a vendor that writes the day first.
 */
const domesticUs = (doc: DocText, registered: string | undefined): boolean =>
  (doc.flat.match(US_ADDRESS)?.length ?? 0) >= 2 &&
  !OTHER_DOLLAR_ADDRESS.test(doc.flat) &&
  registered === undefined &&
  !statesEuropeanVatId(doc);

/**
 * Business registrations that only one dollar or peso country issues, printed on its tax invoices by law:
 * an Australian Business Number ("ABN 12 345 678 901"), a Canadian business number with its GST/HST
 * account ("123456789 RT0001"), a New Zealand Business Number ("NZBN 9429041234567") or GST number
 * ("GST No: 123-456-789"), a Singapore
 * entity or GST number, a Hong Kong business registration.
 */
const DOLLAR_REGISTRATIONS: readonly { currency: string; mark: RegExp }[] = [
  { currency: 'AUD', mark: /\bA\.?B\.?N\.?\s*:?\s*\d{2}\s?\d{3}\s?\d{3}\s?\d{3}\b/ },
  { currency: 'CAD', mark: /\b\d{9}\s?RT\s?\d{4}\b/ },
  // A New Zealand Business Number, or a GST number in the IRD's dashed form ("GST No: 123-456-789").
  {
    currency: 'NZD',
    mark: /\bNZBN\s*:?\s*94\d{11}\b|\bGST\s*(?:No\.?|Number|Reg(?:istration)?\.?\s*No\.?)\s*:?\s*\d{2,3}-\d{3}-\d{3}\b/,
  },
  // A Singapore entity number ("UEN 201912345K"), the same number as its GST registration ("GST
  // Reg No: 201912345K"), or a GST registration of its own ("M2-0123456-7").
  {
    currency: 'SGD',
    mark: /\b(?:UEN|GST\s+Reg(?:\.|istration)?)\s*(?:No\.?)?\s*:?\s*(?:\d{8,9}|[TSR]\d{2}[A-Z]{2}\d{4})[A-Z]\b|\bM[2-9]-\d{7}-[0-9A-Z]\b/,
  },
  // A Hong Kong business registration ("BR No. 12345678").
  {
    currency: 'HKD',
    mark: /\bB\.?R\.?\s*No\.?\s*:?\s*\d{8}\b|\bBusiness Registration (?:No\.?|Number)\s*:?\s*\d{8}\b/,
  },
  // The peso countries print their tax registration on every invoice, each in its own shape: an
  // Argentine CUIT ("CUIT: 30-71234567-9"), a Chilean RUT with its check character ("R.U.T.:
  // 76.543.210-K"), a Colombian NIT ("NIT 900.123.456-7"), a Mexican RFC ("RFC: ABC010203XY4").
  { currency: 'ARS', mark: /\bC\.?U\.?I\.?T\.?\s*(?:N[°º.o]*\s*)?:?\s*\d{2}-\d{8}-\d\b/ },
  {
    currency: 'CLP',
    mark: /\bR\.?U\.?T\.?\s*(?:N[°º.o]*\s*)?:?\s*\d{1,2}\.\d{3}\.\d{3}-[\dkK](?![\p{L}\d])/u,
  },
  { currency: 'COP', mark: /\bN\.?I\.?T\.?\s*(?:N[°º.o]*\s*)?:?\s*\d{3}\.?\d{3}\.?\d{3}-\d\b/ },
  { currency: 'MXN', mark: /\bR\.?F\.?C\.?\s*:?\s*[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}\b/ },
];

/**
 * Registrations that only one krona country issues: a Swedish organisationsnummer ("org.nr
 * 556123-4567") or VAT number ("SE556123456701"), a Danish CVR number ("CVR 12345678", "DK12345678"),
 * a Norwegian organisasjonsnummer ("org.nr. 912 345 678", "NO 912 345 678 MVA").
 */
const KRONA_REGISTRATIONS: readonly { currency: string; mark: RegExp }[] = [
  {
    currency: 'SEK',
    mark: /\b(?:org\.?\s?nr|organisationsnummer)\.?\s*:?\s*\d{6}-\d{4}\b|\bSE\s?\d{10}01\b/i,
  },
  {
    currency: 'DKK',
    mark: /\bCVR(?:-?nr)?\.?\s*:?\s*(?:DK\s?)?\d{2}\s?\d{2}\s?\d{2}\s?\d{2}\b|\bDK\s?\d{8}\b/,
  },
  {
    currency: 'NOK',
    mark: /\b(?:org\.?\s?nr|organisasjonsnummer)\.?\s*:?\s*(?:NO\s?)?\d{3}\s?\d{3}\s?\d{3}\b|\bNO\s?\d{3}\s?\d{3}\s?\d{3}\s?MVA\b/i,
  },
];

/** An Indian GSTIN: state code, the holder's PAN, entity number, "Z", check character. */
export const GSTIN_SHAPE = '\\d{2}[A-Z]{5}\\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]';

/**
 * Registrations of day-first countries whose money has no dollar sign to be told by: a South
 * African VAT number ("VAT No. 4123456789": ten digits from a 4) or company registration ("Reg No.
 * 2015/123456/07"), an Indian GSTIN ("27AABCS1234F1Z5"). They settle the order of dates as an ABN
 * does in Australian dollars, and only where the document states that currency itself.
 */
const DAY_FIRST_REGISTRATIONS: readonly { currency: string; mark: RegExp }[] = [
  {
    currency: 'ZAR',
    mark: /\bVAT\s*(?:Reg(?:istration)?\.?\s*)?(?:No\.?|Number)?\s*:?\s*4\d{9}\b|\b(?:19|20)\d{2}\/\d{6}\/\d{2}\b/,
  },
  { currency: 'INR', mark: new RegExp(`\\b${GSTIN_SHAPE}\\b`) },
];

/**
 * The currency of the one country among `registrations` whose business registration the document
 * prints; undefined for none or several (the customer's may be another country's).
 */
const registeredCurrency = (
  doc: DocText,
  registrations: readonly { currency: string; mark: RegExp }[],
): string | undefined => {
  const registered = registrations.filter((r) => r.mark.test(doc.flat));
  return registered.length === 1 ? registered[0]?.currency : undefined;
};

/** The one dollar currency the document states, by code or prefixed sign. */
const namedDollar = (doc: DocText): string | undefined => {
  const named = new Set(statedCurrencies(doc.flat).filter(isDollarCurrency));
  return named.size === 1 ? [...named][0] : undefined;
};

/** Builds the shared context of a document. */
export const finderContext = (doc: DocText): FinderContext => {
  const texts = doc.lines.map((l) => l.text);
  const language = detectLanguage(doc.flat)?.code;
  const vocabulary = vocabularyOf(language);
  const written = inferDecimalMark(texts);
  const decimal = written ?? vocabulary?.decimalSeparator;
  const dollar = namedDollar(doc);
  const registered = registeredCurrency(doc, DOLLAR_REGISTRATIONS);
  const likelyDollar = dollar ? undefined : registered;
  // Amounts in "$" count as dollars of the one kind the document names, or probably is in.
  const ofDollars = dollar ?? likelyDollar;
  const dominant = dominantCurrency(doc, decimal);
  const currency = dominant === 'USD' && ofDollars ? ofDollars : dominant;
  // The currency the document states itself: one guessed from a registration confirms nothing
  // about that registration (it may be the customer's).
  const stated = dollar ?? (dominant === 'USD' ? undefined : dominant);
  const inferred = inferDayMonthOrder(texts.join('\n'));
  const krona = registeredCurrency(doc, KRONA_REGISTRATIONS);
  const habit = vocabulary?.dateOrder ?? 'unknown';
  // A decimal comma settles it as its own writing does: no country writes it and the month first.
  const fromLocale = inferred === 'unknown' && habit === 'unknown' && decimal !== ',';
  return {
    doc,
    writesCents: written !== undefined,
    order:
      inferred !== 'unknown'
        ? inferred
        : habit !== 'unknown'
          ? habit
          : // A document whose amounts carry no sign still bills the dollar it names ("Total (S$)").
            localeOrder(
              decimal,
              currency ?? ofDollars,
              registered ?? registeredCurrency(doc, DAY_FIRST_REGISTRATIONS),
              stated,
              doc,
            ),
    orderFromLocale: fromLocale,
    usDomestic: domesticUs(doc, registered),
    ...(currency ? { currency } : {}),
    ...(dollar ? { dollar } : {}),
    ...(likelyDollar ? { likelyDollar } : {}),
    ...(krona ? { krona } : {}),
    ...(decimal ? { decimal } : {}),
    ...(language ? { language } : {}),
  };
};
