import * as z from 'zod';
import { LEGAL_PREFIXES, LEGAL_SUFFIXES } from './legalForms.js';

/**
 * A known counterparty (a row of the Providers table). The same schema is the import file format
 * of `docket providers import FILE.json` (an array of these).
 */
export const ProviderSchema = z
  .object({
    id: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .regex(/^[^#]/, 'must not start with "#" (kept for Docket\'s own records in the table)'),
    name: z.string().trim().min(2).max(200),
    aliases: z.array(z.string().trim().min(2).max(200)).max(50).optional(),
    taxId: z.string().trim().min(2).max(64).optional(),
    /** Bank accounts the vendor is known to be paid to: an invoice asking for another one goes to review. */
    ibans: z.array(z.string().trim().min(15).max(40)).max(20).optional(),
  })
  .strict();

/** A known counterparty. */
export type Provider = z.infer<typeof ProviderSchema>;

/** The `docket providers import` file: an array of providers with unique ids. */
export const ProvidersFileSchema = z
  .array(ProviderSchema)
  .max(100_000)
  .refine((list) => new Set(list.map((p) => p.id)).size === list.length, {
    error: 'provider ids must be unique',
  });

/** What validation asks the Providers table. */
export interface ProviderQuery {
  name: string;
  taxId?: string;
}

/**
 * Looks a counterparty up. Resolves `undefined` when none matches; rejects when the table could
 * not be read (validation turns that into a retryable error).
 */
export type ProviderLookup = (query: ProviderQuery) => Promise<Provider | undefined>;

/** A dotted initial in a script other than Latin, before another ("Α.Ε.", "О.О.О."). */
const OTHER_SCRIPT_INITIAL =
  /(?<![\p{L}\p{N}])((?!\p{Script=Latin})\p{L})\.(?=(?!\p{Script=Latin})\p{L}(?![\p{L}\p{N}]))/gu;

/** Letters written in capitals as other letters, and the plain letters that match both. */
const CASE_TWIN_KEYS: Readonly<Record<string, string>> = { ı: 'i', ß: 'ss', ẞ: 'ss' };
const CASE_TWINS = /[ıßẞ]/g;

/**
 * `text` with the letters whose capital is another letter's written as plain letters: the Turkish
 * dotless ı is printed "I" in capitals ("YAZILIM" is "Yazılım"), the German ß "SS" ("STRASSE").
 * The same words then compare alike in either case: company names' keys, the labels' index.
 */
export const plainCaseTwins = (text: string): string =>
  text.replace(CASE_TWINS, (letter) => CASE_TWIN_KEYS[letter] ?? letter);

/** What a comparison key leaves out: all but a-z, 0-9 and the letters of scripts other than Latin. */
const NOT_A_KEY = /(?:[^\p{L}0-9]|(?![a-z])\p{Script=Latin})+/gu;

/**
 * A company name reduced to what identifies it: lower case, "&" as "and", no punctuation, no
 * leading "the" and no legal forms ("Acme Corp." and "ACME Corporation" both give "acme", "UAB
 * Baltijos Tiekimas" and "Baltijos Tiekimas UAB" both "baltijos tiekimas").
 */
export const normalizeCompanyName = (name: string): string => {
  const leading = name.trim().split(/\s+/, 1)[0] ?? '';
  const words = plainCaseTwins(
    name
      // Dotted initials are one word: "K.K." is "KK", "L.P." is "LP", "Α.Ε." is "ΑΕ".
      .replace(/\b([A-Za-z])\.(?=[A-Za-z]\b)/g, '$1')
      .replace(OTHER_SCRIPT_INITIAL, '$1'),
  )
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    // Letters of other scripts stay ("ΑΛΦΑ Trading Α.Ε." is not "trading"); Latin letters without
    // a plain form ("ø", "ł") go, as they always have, so stored comparison keys stay the same.
    .replace(NOT_A_KEY, ' ')
    .trim()
    .split(' ')
    .filter((w) => w.length > 0);
  if (words[0] === 'the' && words.length > 1) words.shift();
  // A form written before the name, in capitals as registered ("UAB Baltijos Tiekimas").
  if (LEGAL_PREFIXES.has(leading) && words.length > 1) words.shift();
  while (words.length > 1 && LEGAL_SUFFIXES.has(words[words.length - 1] ?? '')) words.pop();
  return words.join(' ');
};

/** A tax id or IBAN reduced to its letters and digits, upper case: "DE 123 456 789" is "DE123456789". */
export const normalizeTaxId = (taxId: string): string => taxId.toUpperCase().replace(/[^A-Z0-9]/g, '');

/**
 * Finds the provider a query names: by tax id when both sides have one, else by normalised name
 * or alias. Exact after normalisation: a near miss is an unknown provider for a human to check,
 * never a guess.
 */
export const matchProvider = (providers: readonly Provider[], query: ProviderQuery): Provider | undefined => {
  if (query.taxId) {
    const taxId = normalizeTaxId(query.taxId);
    const byTax = providers.find((p) => p.taxId !== undefined && normalizeTaxId(p.taxId) === taxId);
    if (byTax) return byTax;
  }
  const name = normalizeCompanyName(query.name);
  if (name === '') return undefined;
  return providers.find((p) => [p.name, ...(p.aliases ?? [])].some((n) => normalizeCompanyName(n) === name));
};

/** A `ProviderLookup` over an in-memory list (tests, the benchmark, a cached table scan). */
export const providerLookupFrom =
  (providers: readonly Provider[]): ProviderLookup =>
  async (query) =>
    matchProvider(providers, query);
