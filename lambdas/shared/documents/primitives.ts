import * as z from 'zod';
import { DECIMAL_PATTERN } from './decimal.js';

/**
 * Value schemas the field schemas are built from. Each carries a description: the Bedrock tool
 * schema is generated from these, so the description is what the model is told.
 */

/** A calendar date `YYYY-MM-DD` (real dates only: no 2025-02-30) between 1900 and 2199. */
export const IsoDateSchema = z.iso
  .date({ error: 'must be a calendar date written YYYY-MM-DD', abort: true })
  .refine((d) => d >= '1900-01-01' && d <= '2199-12-31', { error: 'must be between 1900 and 2199' })
  .describe('Calendar date as YYYY-MM-DD');

/** An exact decimal string, e.g. "1234.50" or "-20.00"; never a float. */
export const DecimalSchema = z
  .string()
  .regex(DECIMAL_PATTERN, {
    error: 'must be a decimal string like "1234.50" (dot, no thousands separators)',
    abort: true,
  })
  .describe('Decimal number as a string with a dot and no thousands separators, e.g. "1234.50"');

/** A decimal string that is zero or more. */
export const NonNegativeDecimalSchema = DecimalSchema.refine((d) => !d.startsWith('-'), {
  error: 'must not be negative',
}).describe('Non-negative decimal number as a string, e.g. "1234.50"');

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** True for an ISO 4217 code the runtime knows (the ICU list shipped with Node). */
export const isCurrencyCode = (code: string): boolean => CURRENCIES.has(code);

/** An ISO 4217 currency code in upper case, e.g. "EUR". */
export const CurrencyCodeSchema = z
  .string()
  .regex(/^[A-Z]{3}$/, { error: 'must be a 3-letter upper-case ISO 4217 code like "EUR"', abort: true })
  .refine(isCurrencyCode, { error: 'is not an ISO 4217 currency code' })
  .describe('ISO 4217 currency code, e.g. "USD"');

/** An amount of money with its currency. */
export const MoneySchema = z
  .object({ amount: NonNegativeDecimalSchema, currency: CurrencyCodeSchema })
  .strict()
  .describe('Amount of money: decimal string amount and ISO 4217 currency');

/** A company or person named as a party. */
export const PartyNameSchema = z
  .string()
  .trim()
  .min(2, { error: 'must be a name of at least 2 characters' })
  .max(200)
  .describe('Legal name of the party as written in the document');

/** A document identifier such as a contract or invoice number. */
export const DocumentNumberSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  // Letters of any script: a Greek invoice's series is Greek ("Α-1456").
  .regex(/^[\p{L}0-9][\p{L}0-9 ./#_-]*$/u, {
    error: 'must start with a letter or digit and hold only letters, digits, spaces and . / # _ -',
  })
  .describe('Identifier exactly as printed, e.g. "INV-2025-0042"');

/** A VAT or tax registration number as printed, spaces and punctuation removed ("DE123456789"). */
export const TaxIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Z0-9][A-Z0-9./-]{3,30}$/, {
    error: 'must be a tax id of 4 to 31 letters and digits, like "DE123456789"',
  })
  .describe('VAT or tax registration number, e.g. "DE123456789"');

/** An IBAN in its electronic form: upper case, no spaces ("DE88200800000970375700"). */
export const IbanSchema = z
  .string()
  .regex(/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/, {
    error: 'must be an IBAN written without spaces, like "DE88200800000970375700"',
    abort: true,
  })
  .refine((iban) => ibanChecksumValid(iban), { error: 'has IBAN check digits that do not hold' })
  .describe('IBAN without spaces, e.g. "DE88200800000970375700"');

/** True when an IBAN's check digits hold (ISO 13616 mod 97). */
export const ibanChecksumValid = (iban: string): boolean => {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
};

/** Payment terms, normalised to "Net N" or "Due on receipt" when recognised. */
export const PaymentTermsSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('Payment terms, normalised to "Net N" (N days) or "Due on receipt" when possible');

/**
 * Days allowed by payment terms ("Net 30" -> 30, "Due on receipt" -> 0), or undefined: also for
 * terms that run to the end of a month ("Net 30 EOM"), which no fixed count of days gives.
 */
export const paymentTermsDays = (terms: string): number | undefined => {
  if (/\bEOM\b/.test(terms)) return undefined;
  if (/due (up)?on receipt|payable (up)?on receipt|immediate/i.test(terms)) return 0;
  const net = /net\s*(\d{1,3})/i.exec(terms) ?? /(\d{1,3})\s*days/i.exec(terms);
  return net?.[1] === undefined ? undefined : Number(net[1]);
};

const DAY_MS = 86_400_000;

/** The ISO date `days` days after `iso` ("2024-06-06" + 30 = "2024-07-06"). */
export const isoPlusDays = (iso: string, days: number): string =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The day before the same date `months` later: a term of 24 months from 2024-09-26 ends 2026-09-25. */
const termEnd = (iso: string, months: number): string => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const total = m - 1 + months;
  const year = y + Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return isoPlusDays(
    `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`,
    -1,
  );
};

/**
 * The whole months from `effective` to `expiration`, where the term ends the day before or on the
 * same date that many months later (2024-07-01 to 2027-06-30 is 36); undefined otherwise.
 */
export const termMonthsBetween = (effective: string, expiration: string): number | undefined => {
  const [y1, m1] = effective.split('-').map(Number) as [number, number];
  const [y2, m2] = expiration.split('-').map(Number) as [number, number];
  for (const months of [(y2 - y1) * 12 + (m2 - m1), (y2 - y1) * 12 + (m2 - m1) + 1]) {
    if (months < 1) continue;
    const end = termEnd(effective, months);
    if (end === expiration || isoPlusDays(end, 1) === expiration) return months;
  }
  return undefined;
};

/**
 * Formats days as the normalised payment terms string; `endOfMonth` for terms counted to the end
 * of a month ("30 jours fin de mois", "60 gg d.f.f.m.", "Net 30 EOM").
 */
export const formatPaymentTerms = (days: number, endOfMonth = false): string =>
  days === 0 ? 'Due on receipt' : `Net ${days}${endOfMonth ? ' EOM' : ''}`;
