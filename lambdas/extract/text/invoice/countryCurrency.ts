import type { Candidate } from '../../candidates.js';
import { GSTIN_SHAPE } from '../context.js';

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
  RO: 'RON',
  // No IBAN or VAT id opens with "IN": this is what an Indian GSTIN's shape says (below).
  IN: 'INR',
};

/** How sure a currency read off a country is: a guess, as a business may bill in another. */
const COUNTRY_CONFIDENCE = 0.6;

/** An Indian GST registration, the whole value. */
const GSTIN = new RegExp(`^${GSTIN_SHAPE}$`);

const digitsOf = (text: string): number[] => [...text].map(Number);

/** A digit doubled, its two digits added (Luhn's step: 7 gives 14, which gives 5). */
const doubled = (n: number): number => (n * 2 > 9 ? n * 2 - 9 : n * 2);

/** An Italian partita IVA's last digit: the Luhn check of the ten before it. */
const italianVatNumber = (id: string): boolean => {
  if (!/^\d{11}$/.test(id)) return false;
  const d = digitsOf(id);
  const sum = d.slice(0, 10).reduce((acc, n, i) => acc + (i % 2 === 0 ? n : doubled(n)), 0);
  return (10 - (sum % 10)) % 10 === d[10];
};

/** A Spanish NIF (DNI or NIE: its letter) or CIF (its control digit or letter). */
const spanishTaxNumber = (id: string): boolean => {
  // A DNI is eight digits and a letter; a NIE "X", "Y" or "Z" (0, 1, 2) and seven digits first.
  const personal = /^(?:(\d{8})|([XYZ])(\d{7}))([A-Z])$/.exec(id);
  if (personal) {
    const digits = personal[1] ?? `${'XYZ'.indexOf(personal[2] as string)}${personal[3]}`;
    return 'TRWAGMYFPDXBNJZSQVHLCKE'[Number(digits) % 23] === personal[4];
  }
  const company = /^([ABCDEFGHJNPQRSUVW])(\d{7})([\dA-J])$/.exec(id);
  if (!company) return false;
  const d = digitsOf(company[2] as string);
  const sum = d.reduce((acc, n, i) => acc + (i % 2 === 1 ? n : doubled(n)), 0);
  const control = (10 - (sum % 10)) % 10;
  return company[3] === String(control) || company[3] === 'JABCDEFGHI'[control];
};

/** A Portuguese NIF: nine digits, the last a check of the eight before it (modulo 11). */
const portugueseTaxNumber = (id: string): boolean => {
  if (!/^[1-35-9]\d{8}$/.test(id)) return false;
  const d = digitsOf(id);
  const rest = d.slice(0, 8).reduce((acc, n, i) => acc + n * (9 - i), 0) % 11;
  return (rest < 2 ? 0 : 11 - rest) === d[8];
};

/**
 * The country of a tax number printed without its country's prefix, as domestic invoices print
 * it ("P.IVA 03456789012", "CIF B12345678", "NIF 212345678"): where the document is in that
 * country's language and the number's check digits hold, which no other shape of that length
 * and language passes by chance more than once in ten.
 */
const NATIONAL_NUMBERS: Readonly<Record<string, { country: string; holds: (id: string) => boolean }>> = {
  it: { country: 'IT', holds: italianVatNumber },
  es: { country: 'ES', holds: spanishTaxNumber },
  pt: { country: 'PT', holds: portugueseTaxNumber },
};

/**
 * The currency of the country the document's VAT ids and IBANs share, as one guess below the
 * doubt floor (a Belgian printer bills in euros unless it says otherwise; only a person or the
 * vendor master can tell it did not). None when they name countries of different currencies, or
 * none this table knows.
 */
export const countryCurrencyCandidates = (
  identifiers: readonly Candidate<unknown>[],
  language: string | undefined,
): Candidate<string>[] => {
  const national = NATIONAL_NUMBERS[language ?? ''];
  const currencies = new Set<string>();
  // The line cited is the first identifier that names a currency's country, not a customer
  // number or a VAT id of a country the table does not know.
  let source: Candidate<unknown> | undefined;
  for (const id of identifiers) {
    // "CHE-123.456.789" is Swiss, an Indian GSTIN opens with its state's two digits
    // ("33AABCN1234F1Z5"); every other VAT id and IBAN opens with its country's two letters.
    const value = typeof id.value === 'string' ? id.value : undefined;
    const country =
      value &&
      (GSTIN.test(value)
        ? 'IN'
        : national?.holds(value)
          ? national.country
          : /^(?:CHE|[A-Z]{2})/.exec(value)?.[0]);
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
