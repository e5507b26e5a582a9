import { type FieldName, type InvoiceFields, isCurrencyCode } from '../../../shared/documents/index.js';
import type { Candidate } from '../../candidates.js';
import { amountColumnCurrency } from '../amountColumn.js';
import type { FinderContext } from '../context.js';
import { findLabelled } from '../labelled.js';
import { findItemTable, type ItemTable, withUnitPrices } from '../lineItems.js';
import { isDollarCurrency, statedCurrencies } from '../parseAmount.js';
import type { DocLine } from '../textIndex.js';
import { parseId, parseNumberedId } from '../values.js';
import { type LabelledAmount, labelledAmounts } from './amounts.js';
import { countryCurrencyCandidates } from './countryCurrency.js';
import { currencyInWords } from './currencyInWords.js';
import { invoiceDates } from './dates.js';
import { ibanCandidates, vatIdCandidates } from './identifiers.js';
import { readIncludedTax, withIncludedTax } from './includedTax.js';
import { isSelfBilled, partyCandidates } from './parties.js';
import { paymentTermsCandidates } from './paymentTerms.js';
import { thousandthsCurrency } from './thousandths.js';
import { ownNumbers, titleCandidates } from './title.js';
import { noTotals, resolveTotals } from './totals.js';
import { unlabelledSum } from './unlabelledSums.js';

/** Every invoice field's candidates. */
export type InvoiceCandidates = { [K in FieldName<'invoice'>]: Candidate<NonNullable<InvoiceFields[K]>>[] };

/** A three-letter code or a symbol stated as the currency ("Rechnungswährung : EUR", "Devise : €"). */
const currencyValue = (text: string) => {
  const code = /^([A-Z]{3})\b/.exec(text.trim())?.[1];
  if (code && isCurrencyCode(code)) return { value: code };
  if (/^€|^euro\b/i.test(text.trim())) return { value: 'EUR' };
  return undefined;
};

/** The text writes the US dollar by name ("USD", "US$"), not by a bare "$". */
const writesUsDollar = (text: string): boolean => /USD|US\$/.test(text);

/** A sign read as a currency only as a guess: a bare "$" or a bare "R". */
type GuessedSign = 'dollar' | 'rand';

/** Which guessed sign an amount in `currency` was read from, where `text` writes no code for it. */
const guessedSign = (currency: string, text: string): GuessedSign | undefined => {
  if (currency === 'USD' && !writesUsDollar(text)) return 'dollar';
  if (currency === 'ZAR' && !/ZAR/.test(text)) return 'rand';
  return undefined;
};

/** The totals whose lines may print the invoice's currency. */
const MONEY_TOTALS: ReadonlySet<string> = new Set(['total', 'subtotal', 'amountDue']);

/**
 * "kr" or "kr." beside an amount: a krona, of Sweden, Denmark, Norway or Iceland. Only the
 * issuer's registration or bank account says which; the language does not (Danish and Norwegian
 * read as Swedish to a detector of common words).
 */
const KRONA_SIGN = /(?<![\p{L}])kr\.?(?![\p{L}])/iu;
const KRONOR: ReadonlySet<string> = new Set(['SEK', 'DKK', 'NOK', 'ISK']);

/**
 * Languages in which a bare "$" is more often a peso than the US dollar: in Spanish it is the sign
 * of the Mexican, Argentine, Chilean, Colombian and Uruguayan pesos. Without a registration or a
 * code that says whose, the US dollar stays the guess there, but below the doubt floor.
 */
const PESO_LANGUAGES: ReadonlySet<string> = new Set(['es']);
const PESO_LANGUAGE_DOLLAR = 0.5;

/** How sure a sign that several currencies share, or that a letter could be, makes its currency. */
const SIGN_GUESS = 0.75;

/** The currency: stated by a label, carried by the totals' amounts, by the item table, or by most amounts. */
const currencyCandidates = (
  ctx: FinderContext,
  amounts: readonly LabelledAmount[],
  table: ItemTable | undefined,
  identifiers: readonly Candidate<unknown>[],
): Candidate<string>[] => {
  const found: Candidate<string>[] = [
    ...findLabelled(ctx.doc, 'currency', currencyValue, {
      confidence: 0.9,
      midCell: 'colon',
      via: 'label:currency',
    }),
  ];
  // Where a sign that is only a guess is read: a bare "$", the dollar of several countries, mostly
  // the US one; a bare "R", a letter that only the money after it makes the rand's sign.
  const signs: Record<GuessedSign, Pick<Candidate<string>, 'line' | 'via'>[]> = { dollar: [], rand: [] };
  for (const amount of amounts) {
    if (!MONEY_TOTALS.has(amount.role)) continue;
    const { line } = amount;
    // A code the totals line states says which ("Total CAD $734.50", "Grand Total (INR) 56,050.00").
    // Read across the line's column gaps: on a totals line the code belongs to the amount.
    const [stated, ...more] = statedCurrencies(line.text.replace(/\s{2,}/g, ' '));
    const sign = amount.currency ? guessedSign(amount.currency, line.text) : undefined;
    if (stated && more.every((c) => c === stated)) {
      found.push({ value: stated, confidence: 0.85, line, via: `stated-currency:${amount.role}` });
    } else if (sign) {
      signs[sign].push({ line, via: `${sign}-sign:${amount.role}` });
    } else if (amount.currency) {
      found.push({ value: amount.currency, confidence: 0.85, line, via: `amount-currency:${amount.role}` });
    }
  }
  // The document's dollar: named in its text, or stated on its totals lines.
  const namedOnTotals = new Set(found.map((c) => c.value).filter(isDollarCurrency));
  const dollar = ctx.dollar ?? (namedOnTotals.size === 1 ? [...namedOnTotals][0] : undefined);
  // The item table's currency, from its rows or from its amount column's heading ("Betrag CHF"):
  // a "$" there is a dollar sign like any other.
  const fromTable = (
    header: DocLine,
    currency: string,
    source: 'table' | 'table-heading' | 'column-heading',
  ) => {
    const sign = guessedSign(currency, header.text);
    if (sign) signs[sign].push({ line: header, via: `${sign}-sign:${source}` });
    else found.push({ value: currency, confidence: 0.8, line: header, via: `${source}-currency` });
  };
  const tableCurrency = table?.currencies[0];
  if (table && tableCurrency && table.currencies.every((c) => c === tableCurrency))
    fromTable(table.header, tableCurrency, 'table');
  // The amount column's heading names the currency: the item table's, or, where no item table is
  // read, a column of charges' ("Übersicht  Betrag (EUR)").
  const heading = table?.headingCurrency
    ? { line: table.header, currency: table.headingCurrency }
    : amountColumnCurrency(ctx.doc.lines);
  if (heading)
    fromTable(heading.line, heading.currency, table?.headingCurrency ? 'table-heading' : 'column-heading');
  // No total and no item prints a currency, but the tax amount does ("darin enthaltene USt. 19 %:
  // 38,00 €"): the tax is charged in the invoice's currency. Where a total prints one, the tax's
  // may be the VAT in an accounting currency, and is not asked.
  const taxed = amounts.find((a) => a.role === 'tax' && a.currency && !guessedSign(a.currency, a.line.text));
  if (found.length === 0 && signs.dollar.length === 0 && signs.rand.length === 0 && taxed?.currency)
    found.push({ value: taxed.currency, confidence: 0.8, line: taxed.line, via: 'amount-currency:tax' });
  // Where the document names its dollar, every "$" is that one and they agree; where it does not,
  // a sign printed on ten lines is still one guess, not ten readings that corroborate each other.
  for (const sign of dollar ? signs.dollar : signs.dollar.slice(0, 1)) {
    const named = dollar ?? ctx.likelyDollar;
    found.push({
      value: named ?? 'USD',
      confidence: named || !PESO_LANGUAGES.has(ctx.language ?? '') ? SIGN_GUESS : PESO_LANGUAGE_DOLLAR,
      ...sign,
    });
  }
  // A letter read as a sign on ten lines is still one guess, as the dollar's sign is.
  const rand = signs.rand[0];
  if (rand) found.push({ value: 'ZAR', confidence: SIGN_GUESS, ...rand });
  if (found.length === 0 && ctx.currency && ctx.doc.lines[0]) {
    found.push({
      value: ctx.currency,
      confidence: 0.6,
      reading: 'position',
      line: ctx.doc.lines[0],
      via: 'dominant-currency',
    });
  }
  // No amount carries a currency and no label states one: the issuer's country's, as a guess;
  // where the totals print "kr", the sign settles that it is that country's krona, if it has one.
  if (found.length === 0) {
    const country = countryCurrencyCandidates(identifiers, ctx.language);
    const krona = amounts.find((a) => MONEY_TOTALS.has(a.role) && KRONA_SIGN.test(a.line.text));
    const registered = ctx.likelyDollar ?? ctx.krona;
    for (const c of country)
      found.push(krona && KRONOR.has(c.value) ? { ...c, confidence: 0.75, via: 'krona-sign' } : c);
    // No VAT id or IBAN names the country, but a business registration only one krona country
    // issues does (a Swedish org.nr, a Danish CVR): with the totals in "kr", that country's krona.
    if (krona && ctx.krona && country.length === 0)
      found.push({ value: ctx.krona, confidence: 0.75, line: krona.line, via: 'krona-sign:registration' });
    // Nor does any sign, but a registration only one dollar, peso or krona country issues does (an
    // ABN, a Swedish org.nr over bare amounts): that country's currency, the same guess as a VAT
    // id's country.
    else if (country.length === 0 && registered && ctx.doc.lines[0])
      found.push({
        value: registered,
        confidence: 0.6,
        reading: 'position',
        line: ctx.doc.lines[0],
        via: 'issuer-registration',
      });
    // Nor a registration, but both parties' addresses are in the United States: the same guess.
    else if (country.length === 0 && ctx.usDomestic && ctx.doc.lines[0])
      found.push({
        value: 'USD',
        confidence: 0.6,
        reading: 'position',
        line: ctx.doc.lines[0],
        via: 'us-addresses',
      });
    // Nor anything else, but the total in words names its currency ("… baht only"): a guess too.
    if (found.length === 0) found.push(...currencyInWords(ctx.doc.lines));
  } else if (found.every((c) => c.via === 'dominant-currency')) {
    // The only currency printed is away from the totals ("Indemnité forfaitaire : 40 €"): the
    // issuer's country agreeing with it is a second, independent source; disagreeing, nothing.
    found.push(
      ...countryCurrencyCandidates(identifiers, ctx.language).filter((c) => c.value === found[0]?.value),
    );
  }
  return found;
};

/**
 * An Argentine invoice numbers its vouchers per point of sale and prints the two apart ("Punto de
 * Venta: 0003   Comp. Nro: 00001287"); the invoice's number is both ("0003-00001287"), as the
 * tax authority's own records write it. Alone, "00001287" repeats at every point of sale.
 */
const POINT_OF_SALE = /\bPunto de Venta\s*(?:N[°º.o]*\s*)?:?\s*(\d{4,5})\b/iu;

const withPointOfSale = (c: Candidate<string>): Candidate<string> => {
  const at = c.line.text.indexOf(c.value);
  const point = at > 0 && /^\d{8}$/.test(c.value) ? POINT_OF_SALE.exec(c.line.text.slice(0, at)) : null;
  return point ? { ...c, value: `${point[1]}-${c.value}`, via: `${c.via}:point-of-sale` } : c;
};

/**
 * The money fields of a document counted in thousandths (`thousandthsCurrency`): its currency,
 * and no amount, which two decimals would misread.
 */
const unreadMoney = (currency: Candidate<string>) => ({ ...noTotals(), currency: [currency] });

/**
 * Every invoice field's candidates, in any language with a vocabulary: labels from the
 * vocabularies, the title line, the parties' roles, registration numbers and the totals settled by
 * their sums. The item table is read once and shared.
 */
export const invoiceCandidates = (ctx: FinderContext): InvoiceCandidates => {
  const title = titleCandidates(ctx);
  const selfBilled = isSelfBilled(ctx);
  const parties = partyCandidates(ctx, selfBilled);
  const vendorTaxId = vatIdCandidates(ctx);
  const iban = ibanCandidates(ctx);
  const read = findItemTable(ctx);
  const amounts = labelledAmounts(ctx, read?.rows);
  const included = readIncludedTax(ctx, amounts);
  const totals = resolveTotals(amounts, unlabelledSum(amounts, ctx, included !== undefined));
  const paymentTerms = paymentTermsCandidates(ctx);
  const printed = [totals.subtotal[0], totals.total[0]].flatMap((c) => (c ? [c.value] : []));
  const table = read && withUnitPrices(read, printed);
  const thousandths = thousandthsCurrency(ctx.doc.lines);
  const money = thousandths ? unreadMoney(thousandths) : undefined;
  return {
    invoiceNumber: ownNumbers(title, [
      ...findLabelled(ctx.doc, 'invoiceNumber', parseNumberedId, {
        confidence: 0.9,
        weakConfidence: 0.6,
        midCell: 'loose',
        furniture: true,
        via: 'label:invoice-number',
      }).map(withPointOfSale),
      ...title.invoiceNumber,
    ]),
    // A self-billed invoice's German title is "Gutschrift", the word for a credit note too: under
    // the self-billing mention it names the invoice that pays the supplier.
    kind: selfBilled ? title.kind.map((c) => ({ ...c, value: 'invoice' as const })) : title.kind,
    vendor: parties.vendor,
    customer: parties.customer,
    ...invoiceDates(ctx, title.invoiceDate, paymentTerms),
    currency: currencyCandidates(ctx, amounts, table, [...vendorTaxId, ...iban]),
    subtotal: totals.subtotal,
    adjustments: totals.adjustments,
    tax: withIncludedTax(included, totals.tax),
    total: totals.total,
    withholding: totals.withholding,
    amountDue: totals.amountDue,
    lineItems:
      table && !thousandths
        ? [
            {
              value: table.items,
              confidence: table.unreadable === 0 ? 0.85 : 0.5,
              line: table.header,
              via: 'table',
            },
          ]
        : [],
    poNumber: findLabelled(ctx.doc, 'poNumber', parseId, { midCell: 'colon', via: 'label:po' }),
    contractReference: findLabelled(ctx.doc, 'contractReference', parseId, {
      midCell: 'colon',
      via: 'label:contract',
    }),
    paymentTerms,
    vendorTaxId,
    ...money,
    iban,
  };
};
