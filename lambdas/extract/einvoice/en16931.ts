import {
  addDecimals,
  compareDecimals,
  decimalEquals,
  multiplyDecimals,
  subtractDecimals,
} from '../../shared/documents/index.js';
import type { EInvoiceData, Located } from './types.js';

/**
 * The EN 16931 sums an e-invoice states about itself, checked in exact decimals: the totals
 * (BR-CO-10 to BR-CO-16) and each tax rate's amount against its basis. Consistent data is not
 * yet trusted data (a forger's sums add up too), but inconsistent data is never trusted.
 */

/**
 * A decimal as XML states it ("529.87", "-8.79", "9.9000"); anything else is not an amount. The
 * digits are bounded: the exact arithmetic takes at most 12 fraction digits (more would throw),
 * and no invoice needs 20 integer digits, while a hostile one could state a million to make
 * every sum slow.
 */
const AMOUNT = /^[+-]?\d{1,20}(\.\d{1,12})?$/;
/** How much of a value that is not an amount an issue quotes. */
const QUOTED_CHARS = 40;

/** Tax per rate may be off by rounding: basis x rate is rounded to the cent once per rate. */
const TAX_TOLERANCE = '0.01';

const normalise = (value: string): string => value.replace(/^\+/, '');

/** The result of checking an e-invoice's sums. */
export interface ConsistencyReport {
  /** True when every sum the data states checks, and the grand total is stated. */
  consistent: boolean;
  /** Each sum that did not check, in words with both values. */
  issues: string[];
  /** The rules that were checked and held (for evidence on the fields they cover). */
  held: string[];
}

const abs = (value: string): string => (value.startsWith('-') ? value.slice(1) : value);

/** Checks the sums of `data`. Values that are not decimals are reported, never guessed. */
export const checkEn16931 = (data: EInvoiceData): ConsistencyReport => {
  const issues: string[] = [];
  const held: string[] = [];
  const t = data.totals;
  const valid = (v: Located<string> | string | undefined, what: string): string | undefined => {
    if (v === undefined) return undefined;
    const text = typeof v === 'string' ? v : v.value;
    if (AMOUNT.test(text)) return normalise(text);
    const quoted = text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}...` : text;
    issues.push(`${what} "${quoted}" is not a decimal amount`);
    return undefined;
  };
  const check = (rule: string, stated: string | undefined, computed: string | undefined, words: string) => {
    if (stated === undefined || computed === undefined) return;
    if (decimalEquals(stated, computed)) held.push(rule);
    else issues.push(`${rule}: ${words} is ${computed}, but the data states ${stated}`);
  };

  const lineTotal = valid(t.lineTotal, 'the line total');
  const allowanceTotal = valid(t.allowanceTotal, 'the allowance total');
  const chargeTotal = valid(t.chargeTotal, 'the charge total');
  const taxBasis = valid(t.taxBasisTotal, 'the tax basis total');
  const taxTotal = valid(t.taxTotal, 'the tax total');
  const grand = valid(t.grandTotal, 'the grand total');
  const prepaid = valid(t.prepaid, 'the prepaid amount');
  const rounding = valid(t.rounding, 'the rounding amount');
  const due = valid(t.duePayable, 'the amount due');

  const lineAmounts = data.lines.map((l, i) => valid(l.amount, `line ${i + 1}'s amount`));
  if (data.lines.length > 0 && lineAmounts.every((a) => a !== undefined)) {
    check('BR-CO-10', lineTotal, addDecimals(lineAmounts as string[]), 'the sum of the line amounts');
  }
  const allowances = data.allowanceCharges
    .filter((a) => !a.charge)
    .map((a) => valid(a.amount, 'an allowance'));
  const charges = data.allowanceCharges.filter((a) => a.charge).map((a) => valid(a.amount, 'a charge'));
  if (allowances.length > 0 && allowances.every((a) => a !== undefined)) {
    check('BR-CO-11', allowanceTotal, addDecimals(allowances as string[]), 'the sum of the allowances');
  }
  if (charges.length > 0 && charges.every((a) => a !== undefined)) {
    check('BR-CO-12', chargeTotal, addDecimals(charges as string[]), 'the sum of the charges');
  }
  if (lineTotal !== undefined) {
    check(
      'BR-CO-13',
      taxBasis,
      subtractDecimals(addDecimals([lineTotal, chargeTotal ?? '0']), allowanceTotal ?? '0'),
      'line total - allowances + charges',
    );
  }
  const taxAmounts = data.taxes.map((x, i) => valid(x.amount, `tax row ${i + 1}'s amount`));
  if (data.taxes.length > 0 && taxAmounts.every((a) => a !== undefined)) {
    check('BR-CO-14', taxTotal, addDecimals(taxAmounts as string[]), 'the sum of the tax rows');
  }
  for (const [i, row] of data.taxes.entries()) {
    const basis = valid(row.basis, `tax row ${i + 1}'s basis`);
    const rate = valid(row.rate, `tax row ${i + 1}'s rate`);
    const amount = taxAmounts[i];
    if (basis === undefined || rate === undefined || amount === undefined) continue;
    const expected = multiplyDecimals(basis, multiplyDecimals(rate, '0.01', 4), 4);
    const off = abs(subtractDecimals(expected, amount, 4));
    if (compareDecimals(off, TAX_TOLERANCE) <= 0) held.push(`tax-rate-${row.rate}`);
    else issues.push(`tax at ${row.rate}% of ${basis} is ${expected}, but the data states ${amount}`);
  }
  if (taxBasis !== undefined) {
    check('BR-CO-15', grand, addDecimals([taxBasis, taxTotal ?? '0']), 'tax basis total + tax total');
  }
  // Profiles without a paid amount (Factur-X MINIMUM, BASIC WL) cannot state a prepayment, so an
  // amount due below the total says something was paid, not that the data contradicts itself.
  if (grand !== undefined && (prepaid !== undefined || (due !== undefined && decimalEquals(due, grand)))) {
    check(
      'BR-CO-16',
      due,
      subtractDecimals(addDecimals([grand, rounding ?? '0']), prepaid ?? '0'),
      'grand total - prepaid + rounding',
    );
  }
  if (grand === undefined) issues.push('the data states no grand total (BT-112)');
  else if (taxBasis === undefined) {
    issues.push('the data states no tax basis total (BT-109), so nothing checks the grand total');
  }
  return { consistent: issues.length === 0, issues, held };
};
