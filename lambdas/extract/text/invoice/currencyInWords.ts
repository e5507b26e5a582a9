import type { Candidate } from '../../candidates.js';
import type { DocLine } from '../textIndex.js';

/**
 * The currency an amount in words names ("Seventy-one thousand … baht only", "Ringgit Malaysia:
 * One Thousand Two Hundred Only", "… Naira and Fifty Kobo Only"), as invoices in much of Asia and
 * Africa print the total a second time: only names that one currency alone is called by. Not
 * "dollars", "rupees", "riyals", "dirhams", "shillings" or "pesos", which several countries' are.
 */
const ONE_CURRENCY_NAMES: Readonly<Record<string, string>> = {
  baht: 'THB',
  naira: 'NGN',
  ringgit: 'MYR',
  rupiah: 'IDR',
  rand: 'ZAR',
  yen: 'JPY',
  yuan: 'CNY',
  renminbi: 'CNY',
  dong: 'VND',
  taka: 'BDT',
  cedi: 'GHS',
  cedis: 'GHS',
  kyat: 'MMK',
  pula: 'BWP',
  hryvnia: 'UAH',
  zloty: 'PLN',
  forint: 'HUF',
  euro: 'EUR',
  euros: 'EUR',
};

const NAME = new RegExp(`(?<![\\p{L}])(${Object.keys(ONE_CURRENCY_NAMES).join('|')})(?![\\p{L}])`, 'iu');

/** A line that closes an amount in words: it ends with "only" ("… Only.", "… only)"). */
const CLOSES_IN_WORDS = /(?<![\p{L}])only[\s.)]*$/iu;

/** How sure a currency named only in words is: a guess, as the issuer's country is. */
const IN_WORDS_CONFIDENCE = 0.6;

/** The currency the document's amount in words names, where one line names one. */
export const currencyInWords = (lines: readonly DocLine[]): Candidate<string>[] => {
  for (const line of lines) {
    // The words may share their line with the totals' column ("(… baht only)   Total   66,500.00").
    for (const cell of line.cells) {
      if (!CLOSES_IN_WORDS.test(cell.text)) continue;
      const name = NAME.exec(cell.text)?.[1]?.toLowerCase();
      const currency = name ? ONE_CURRENCY_NAMES[name] : undefined;
      if (!currency) continue;
      return [
        {
          value: currency,
          confidence: IN_WORDS_CONFIDENCE,
          reading: 'position',
          line,
          via: 'amount-in-words',
        },
      ];
    }
  }
  return [];
};
