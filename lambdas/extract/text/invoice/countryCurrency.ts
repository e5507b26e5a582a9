import type { Candidate } from '../../candidates.js';

/**
 * The currency of the countries whose VAT ids and IBANs name an issuer: for an invoice that prints
 * no currency at all ("Total HTVA 1.000,00", "Imponibile 1.040,00"), as many domestic invoices in
 * Europe do. Only the long-standing members of the euro area: an invoice from a country that
 * joined lately (Croatia, Bulgaria) may predate its euro.
 */
const COUNTRY_CURRENCY: Readonly<Record<string, string>> = {
  AT: 'EUR',
  BE: 'EUR',
  CY: 'EUR',
  DE: 'EUR',
  EE: 'EUR',
  EL: 'EUR',
  GR: 'EUR',
  ES: 'EUR',
  FI: 'EUR',
  FR: 'EUR',
  IE: 'EUR',
  IT: 'EUR',
  LT: 'EUR',
  LU: 'EUR',
  LV: 'EUR',
  MT: 'EUR',
  NL: 'EUR',
  PT: 'EUR',
  SI: 'EUR',
  SK: 'EUR',
  GB: 'GBP',
  CH: 'CHF',
  LI: 'CHF',
  SE: 'SEK',
  DK: 'DKK',
  NO: 'NOK',
  IS: 'ISK',
  PL: 'PLN',
  CZ: 'CZK',
  HU: 'HUF',
  // No IBAN or VAT id opens with "IN": this is what an Indian GSTIN's shape says (below).
  IN: 'INR',
};

/** How sure a currency read off a country is: a guess, as a business may bill in another. */
const COUNTRY_CONFIDENCE = 0.6;

/** An Indian GST registration: state code, the holder's PAN, entity number, "Z", check character. */
const GSTIN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/**
 * The currency of the country the document's VAT ids and IBANs share, as one guess below the
 * doubt floor (a Belgian printer bills in euros unless it says otherwise; only a person or the
 * vendor master can tell it did not). None when they name countries of different currencies, or
 * none this table knows.
 */
export const countryCurrencyCandidates = (
  identifiers: readonly Candidate<unknown>[],
): Candidate<string>[] => {
  const currencies = new Set<string>();
  // The line cited is the first identifier that names a currency's country, not a customer
  // number or a VAT id of a country the table does not know.
  let source: Candidate<unknown> | undefined;
  for (const id of identifiers) {
    // "CHE-123.456.789" is Swiss, an Indian GSTIN opens with its state's two digits
    // ("33AABCN1234F1Z5"); every other VAT id and IBAN opens with its country's two letters.
    const value = typeof id.value === 'string' ? id.value : undefined;
    const country = value && (GSTIN.test(value) ? 'IN' : /^(?:CHE|[A-Z]{2})/.exec(value)?.[0]);
    const currency = country === 'CHE' ? 'CHF' : country ? COUNTRY_CURRENCY[country] : undefined;
    if (!currency) continue;
    currencies.add(currency);
    source ??= id;
  }
  if (currencies.size !== 1 || !source) return [];
  return [
    {
      value: [...currencies][0] as string,
      confidence: COUNTRY_CONFIDENCE,
      reading: 'position',
      line: source.line,
      via: 'issuer-country',
    },
  ];
};
