import {
  addDecimals,
  compareDecimals,
  decimalEquals,
  subtractDecimals,
} from '../../../shared/documents/index.js';
import { type LabelledAmount, where } from './amounts.js';

/**
 * What lies between an invoice's gross total and the amount it asks to be paid: a prepayment, the
 * income tax the buyer withholds for the seller (Spanish IRPF, Italian ritenuta d'acconto), and
 * the rounding of the amount to pay to the currency's smallest coin (Swedish öresavrundning, Swiss
 * 5-Rappen rounding; EN 16931's BT-114). Each is read from its own labelled row; only a sum that
 * holds says which of them, if any, explain a printed amount.
 */

/** The tax a buyer withholds: its rows, and their sum. */
export interface Withheld {
  rows: LabelledAmount[];
  /** The rows' sum as a magnitude, however they print its sign. */
  magnitude: string;
}

/** One explanation of the gap between a gross total and an amount to pay. */
export interface Gap {
  /** Gross less the amount to pay. */
  amount: string;
  /** What makes it up, for evidence: "withheld 150.00 (p1 l11)". */
  words: string;
  /** The withholding it includes, if any. */
  withheld?: Withheld;
}

/** The rows between a gross total and the amount to pay, read once per document. */
export interface PayableRows {
  withheld?: Withheld;
  /** One rounding row (two would say nothing about which rounded). */
  rounding?: LabelledAmount;
  prepaid: LabelledAmount[];
  /** Balances carried from earlier invoices ("Previous balance"), which the amount due adds. */
  carried: LabelledAmount[];
}

/**
 * One amount per row of `role`: the row's last, as a row that states its basis prints it first
 * ("Ritenuta d'acconto 20% su 1.000,00  -200,00").
 */
const lastPerRow = (amounts: readonly LabelledAmount[], role: LabelledAmount['role']): LabelledAmount[] => {
  const byLine = new Map<number, LabelledAmount>();
  for (const a of amounts) {
    if (a.role !== role) continue;
    if (!byLine.has(a.line.index) || a.position === 'later') byLine.set(a.line.index, a);
  }
  return [...byLine.values()];
};

/** The withholding, rounding and prepayment rows of a totals block. */
export const payableRows = (amounts: readonly LabelledAmount[]): PayableRows => {
  const withheld = lastPerRow(amounts, 'withholding');
  const rounding = lastPerRow(amounts, 'rounding');
  return {
    ...(withheld.length > 0
      ? {
          withheld: {
            rows: withheld,
            magnitude: addDecimals(withheld.map((r) => r.amount.replace(/^-/, ''))),
          },
        }
      : {}),
    ...(rounding.length === 1 ? { rounding: rounding[0] } : {}),
    prepaid: amounts.filter((a) => a.role === 'prepaid'),
    carried: lastPerRow(amounts, 'carried'),
  };
};

/** What a withholding takes off `gross`: its magnitude, signed like the gross (negative on a credit note). */
export const withheldFrom = (gross: string, withheld: Withheld): string =>
  compareDecimals(gross, '0') < 0 ? `-${withheld.magnitude}` : withheld.magnitude;

/**
 * What was paid before and what was carried over, each on its own and together: a prepayment,
 * or all of them, comes off the total however it prints its sign ("Payments received -3,000.00"
 * on an invoice), and a balance carried from earlier invoices is added ("Previous balance
 * 7,500.00").
 */
const settled = (gross: string, rows: PayableRows): (Gap | undefined)[] => {
  const negative = compareDecimals(gross, '0') < 0;
  const each = rows.prepaid.map((p) => {
    const magnitude = p.amount.replace(/^-/, '');
    const amount = negative ? `-${magnitude}` : magnitude;
    return { amount, words: `prepaid ${amount} (${where(p)})` };
  });
  // Several payments before (a final invoice's deducted interim invoices) come off together too.
  const together =
    each.length > 1
      ? [{ amount: addDecimals(each.map((p) => p.amount)), words: each.map((p) => p.words).join(' - ') }]
      : [];
  const paid = [...each, ...together];
  // Taken off like the others, a carried balance is negative: "total 9842.75 - carried -7500.00".
  const carried = rows.carried.map((c) => {
    const amount = subtractDecimals('0', c.amount);
    return { amount, words: `carried ${amount} (${where(c)})` };
  });
  const both = paid.flatMap((p) =>
    carried.map((c) => ({ amount: addDecimals([p.amount, c.amount]), words: `${p.words} - ${c.words}` })),
  );
  return [undefined, ...paid, ...carried, ...both];
};

/**
 * Every gap the rows explain between `gross` and an amount to pay: each combination of a
 * prepayment (only with `prepaid`: a printed total is never after one), the withholding and the
 * rounding, at least one of them. A rounding printed without a sign may have gone either way.
 */
export const gapsFrom = (gross: string, rows: PayableRows, options: { prepaid: boolean }): Gap[] => {
  const { withheld, rounding } = rows;
  const taxes: (Gap | undefined)[] = [undefined];
  if (withheld) {
    const amount = withheldFrom(gross, withheld);
    taxes.push({
      amount,
      words: `withheld ${amount} (${where(withheld.rows[0] as LabelledAmount)})`,
      withheld,
    });
  }
  const roundings: (Gap | undefined)[] = [undefined];
  if (rounding) {
    // The amount to pay is gross + rounding: the gap is its negation.
    const down = subtractDecimals('0', rounding.amount);
    roundings.push({ amount: down, words: `rounding ${down} (${where(rounding)})` });
    if (!rounding.amount.startsWith('-'))
      roundings.push({ amount: rounding.amount, words: `rounding ${rounding.amount} (${where(rounding)})` });
  }
  const paid: (Gap | undefined)[] = options.prepaid ? settled(gross, rows) : [undefined];
  const gaps: Gap[] = [];
  for (const p of paid)
    for (const t of taxes)
      for (const r of roundings) {
        const parts = [p, t, r].filter((g): g is Gap => g !== undefined);
        // A row of nothing ("Öresavrundning 0,00") explains no difference: with it, an amount due
        // equal to the total would corroborate itself.
        if (parts.length === 0 || parts.some((g) => decimalEquals(g.amount, '0'))) continue;
        gaps.push({
          amount: addDecimals(parts.map((g) => g.amount)),
          words: parts.map((g) => g.words).join(' - '),
          ...(t?.withheld ? { withheld: t.withheld } : {}),
        });
      }
  return gaps;
};
