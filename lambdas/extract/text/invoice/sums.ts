import { addDecimals, decimalEquals, subtractDecimals } from '../../../shared/documents/index.js';
import type { LabelledAmount, MoneyRole } from './amounts.js';
import { type Gap, gapsFrom, type PayableRows, payableRows } from './payable.js';

/**
 * The sums that settle an invoice's totals: every reading of labelled amounts where net (after
 * discounts and charges) + tax = total, to the cent, or where that total less what the buyer
 * withholds or the rounding takes off is the printed amount to pay, scored by how strongly each
 * amount was read. `totals.ts` turns the best of them into candidates with its evidence.
 */

/** Reading strength of a labelled amount: the label, where the amount sits, how clean it parsed. */
export const strengthOf = (a: LabelledAmount): number => {
  let s = a.strength === 'strong' ? 0.85 : 0.6;
  if (a.position === 'later') s -= 0.1;
  if (a.rateRow && (a.role === 'total' || a.role === 'subtotal')) s -= 0.15;
  if (!a.certain) s *= 0.85;
  return Math.max(0.2, s);
};

/** One reading where the sum holds. */
export interface Triple {
  subtotal: LabelledAmount;
  /** When the net is the sum of a breakdown's net rows, one per rate. */
  netRows?: LabelledAmount[];
  tax?: LabelledAmount;
  /** When the tax is the sum of a tax breakdown's rows. */
  taxRows?: LabelledAmount[];
  /** The discounts and charges between net and total, when the sum needs them. */
  adjustment?: string;
  /**
   * What lies between the gross and the printed total, when that total is the amount to pay after
   * a withholding or a rounding ("Base imponible 1.000,00 / IVA 210,00 / IRPF -150,00 / Total
   * factura 1.060,00"): the invoice's gross is then `grossOf` the triple.
   */
  gap?: Gap;
  total: LabelledAmount;
  score: number;
  /** A total printed before the discounts and charges that a later total includes: no rival. */
  intermediate?: boolean;
}

/** The invoice's gross total a triple settles: the printed total, plus the gap to it. */
export const grossOf = (t: Triple): string =>
  t.gap ? addDecimals([t.total.amount, t.gap.amount]) : t.total.amount;

/**
 * What the discounts and charges of a totals block add to the net: a charge (shipping, freight)
 * as printed, a discount taken off whether printed "-348.00" or "348.00". One amount per line: a
 * rate row's first ("Discount (10%) -348.00"), on a line of at most three cells (label, rate,
 * amount).
 */
/**
 * The discount and charge rows between net and total. A row of the item table ("Freight charges
 * 9  58,841  529,569") is an item, already in the net.
 */
export const adjustmentRows = (amounts: readonly LabelledAmount[]): LabelledAmount[] =>
  amounts.filter(
    (a) =>
      (a.role === 'discount' || a.role === 'charge') && a.position === 'first' && a.line.cells.length <= 3,
  );

const adjustmentOf = (amounts: readonly LabelledAmount[]): string | undefined => {
  const rows = adjustmentRows(amounts);
  if (rows.length === 0) return undefined;
  return addDecimals(rows.map((a) => (a.role === 'discount' ? `-${a.amount.replace(/^-/, '')}` : a.amount)));
};

/**
 * One amount of `role` per line that has one: the line's first ("Netto 7 % 220,00"), or with
 * `last`, its last where it states more than one ("VAT 19%  336.00  63.84" gives the tax, not its
 * basis).
 */
export const amountPerLine = (
  amounts: readonly LabelledAmount[],
  role: MoneyRole,
  pick: 'first' | 'last',
): LabelledAmount[] => {
  const byLine = new Map<number, LabelledAmount>();
  for (const a of amounts) {
    if (a.role !== role) continue;
    if (!byLine.has(a.line.index) || (pick === 'last' && a.position === 'later')) byLine.set(a.line.index, a);
  }
  return [...byLine.values()];
};

/**
 * One amount of `role` per row of a breakdown that states a rate, as `amountPerLine` picks it. A
 * row of zeros is a rate the invoice does not use ("12 %  0,00  0,00  0,00", printed by programs
 * that list every rate the law knows): no share of the invoice, so no row here.
 */
const rateRowAmounts = (
  amounts: readonly LabelledAmount[],
  role: MoneyRole,
  pick: 'first' | 'last',
): LabelledAmount[] => {
  const used = new Set(amounts.filter((a) => !decimalEquals(a.amount, '0')).map((a) => a.line.index));
  return amountPerLine(
    amounts.filter((a) => a.rateRow && used.has(a.line.index)),
    role,
    pick,
  );
};

export const sumOf = (rows: readonly LabelledAmount[]): string => addDecimals(rows.map((r) => r.amount));

/**
 * Two amounts read from one line: a line's own amounts make no sum ("VAT 19%  336.00  63.84"
 * states a basis and its tax), unless each stands under its own heading of a breakdown.
 */
const sameLine = (a: LabelledAmount, b: LabelledAmount): boolean =>
  a.line.index === b.line.index &&
  (a.column === undefined || b.column === undefined || a.column === b.column);

/**
 * A net, tax and gross read across one rate's row of a breakdown that has rows for other rates
 * too ("7 %  274,77  19,23  294,00" over "19 %  45,38  8,62  54,00"): the row adds up, but to
 * that rate's share, not to the invoice's total.
 */
const oneRateOfSeveral = (
  subtotal: LabelledAmount,
  tax: LabelledAmount,
  total: LabelledAmount,
  taxRows: readonly LabelledAmount[],
): boolean =>
  subtotal.rateRow &&
  tax.rateRow &&
  total.rateRow &&
  subtotal.line.index === total.line.index &&
  tax.line.index === total.line.index &&
  taxRows.some((row) => row.line.index !== total.line.index);

/** Whether more amounts follow `a` on its line, read under the same label. */
const firstOfSeveral = (a: LabelledAmount, amounts: readonly LabelledAmount[]): boolean =>
  a.position === 'first' && amounts.some((o) => o.line.index === a.line.index && o.position === 'later');

/** The gap between the sum of `parts` (a gross total) and the printed `total`, if rows explain it. */
const gapTo = (parts: readonly string[], rows: PayableRows, total: LabelledAmount): Gap | undefined => {
  const gross = addDecimals(parts);
  return gapsFrom(gross, rows, { prepaid: false }).find((g) =>
    decimalEquals(subtractDecimals(gross, g.amount), total.amount),
  );
};

/**
 * Every reading where subtotal + tax = total (or the amount to pay after a withholding or a
 * rounding), best first.
 */
export const triples = (amounts: readonly LabelledAmount[]): Triple[] => {
  const of = (role: MoneyRole) => amounts.filter((a) => a.role === role);
  const totals = [...of('total'), ...of('amountDue')];
  // "Summe 1.000,00 / MwSt. 190,00 / Rechnungsbetrag 1.190,00", "Total £1,000 / VAT £200 / Amount
  // due £1,200": a total-labelled amount that tax lifts to another total is the net. It takes a
  // tax other than zero to say so ("Gesamtbetrag der Zuschläge 0,00" + "Steuerbetrag 0,00" is no
  // invoice's sum), and a labelled net ranks first.
  const nets = [...of('subtotal'), ...of('total')];
  const taxes = of('tax');
  const rows = rateRowAmounts(amounts, 'tax', 'last');
  const perRate = rateRowAmounts(amounts, 'subtotal', 'first');
  const adjustment = adjustmentOf(amounts);
  const payable = payableRows(amounts);
  const between = payable.withheld !== undefined || payable.rounding !== undefined;
  const found: Triple[] = [];
  for (const total of totals) {
    for (const subtotal of nets) {
      if (sameLine(subtotal, total)) continue;
      // Zeros add up whatever they are ("0,00 + 0,00 = 0,00" across a summary's unused rates).
      if (decimalEquals(total.amount, '0') && decimalEquals(subtotal.amount, '0')) continue;
      const labelledNet = subtotal.role === 'subtotal';
      const base =
        strengthOf(total) +
        strengthOf(subtotal) +
        (total.role === 'total' ? 0.2 : 0) -
        (labelledNet ? 0 : 0.4);
      for (const tax of taxes) {
        if (sameLine(tax, total) || sameLine(tax, subtotal)) continue;
        if (!labelledNet && decimalEquals(tax.amount, '0')) continue;
        // Nor does a tax printed after both totals lift the first to the second ("Total zero-rated
        // sales 120.00 / Total standard-rated sales 150.00 / VAT 30.00"): it is a later total's.
        if (!labelledNet && subtotal.line.index < total.line.index && tax.line.index > total.line.index)
          continue;
        // Tax on a net of nothing is no invoice's sum: a misread net ("2 000,00" as "000,00").
        if (decimalEquals(subtotal.amount, '0') && !decimalEquals(tax.amount, '0')) continue;
        if (oneRateOfSeveral(subtotal, tax, total, rows)) continue;
        if (decimalEquals(addDecimals([subtotal.amount, tax.amount]), total.amount)) {
          found.push({ subtotal, tax, total, score: base + strengthOf(tax) });
        } else if (
          adjustment !== undefined &&
          decimalEquals(addDecimals([subtotal.amount, adjustment, tax.amount]), total.amount)
        ) {
          // "Subtotal 3,480.00 / Discount -348.00 / Shipping 120.00 / Sales tax 0.00 / Total 3,252.00".
          found.push({ subtotal, tax, adjustment, total, score: base + strengthOf(tax) - 0.1 });
        } else {
          const gap = between ? gapTo([subtotal.amount, tax.amount], payable, total) : undefined;
          if (gap) found.push({ subtotal, tax, gap, total, score: base + strengthOf(tax) - 0.05 });
        }
      }
      if (rows.length > 1 && decimalEquals(addDecimals([subtotal.amount, sumOf(rows)]), total.amount)) {
        found.push({ subtotal, taxRows: rows, total, score: base + 0.5 });
      }
      // Tax-free invoices (exempt, reverse charge): net and gross are the same amount, or differ
      // by the discounts and charges between them ("Sub Total 5,000.00 / Freight 250.00 / Total").
      // Not where the total is a row's first of several amounts ("Summe  2.358,33  314,96
      // 2.673,29", a breakdown's sum row whose columns a text layer lost): net, tax and gross.
      if (labelledNet && taxes.length === 0 && !firstOfSeveral(total, amounts)) {
        const gap = between ? gapTo([subtotal.amount], payable, total) : undefined;
        if (decimalEquals(subtotal.amount, total.amount)) found.push({ subtotal, total, score: base - 0.3 });
        else if (gap) found.push({ subtotal, gap, total, score: base - 0.35 });
        else if (
          adjustment !== undefined &&
          decimalEquals(addDecimals([subtotal.amount, adjustment]), total.amount)
        )
          found.push({ subtotal, adjustment, total, score: base - 0.4 });
      }
    }
    // Two rates and no net for both ("Netto 7 %  220,00  MwSt. 7 %  15,40", "Netto 19 %  60,00
    // MwSt. 19 %  11,40", "Gesamt brutto  306,80"): the rows' nets and taxes make the total.
    const rateNets = perRate.filter((n) => n.line.index !== total.line.index);
    if (
      rateNets.length > 1 &&
      rows.length === rateNets.length &&
      decimalEquals(addDecimals([sumOf(rateNets), sumOf(rows)]), total.amount)
    ) {
      const first = rateNets[0] as LabelledAmount;
      found.push({
        subtotal: { ...first, amount: sumOf(rateNets) },
        netRows: rateNets,
        taxRows: rows,
        total,
        score: strengthOf(total) + strengthOf(first) + 0.4,
      });
    }
  }
  // "Total honoraires TTC 1 200,00 / Débours 135,00 / Total à payer 1 335,00": a total above every
  // discount and charge, which a sum with them to a later total includes, is an intermediate one.
  const moves = adjustmentRows(amounts);
  const lastMove = Math.max(...moves.map((m) => m.line.index));
  const intermediate = (t: Triple): boolean =>
    moves.length > 0 &&
    moves.every((m) => m.line.index > t.total.line.index) &&
    found.some((o) => o.adjustment !== undefined && o.total.line.index > lastMove);
  return found
    .map((t) => (intermediate(t) ? { ...t, intermediate: true } : t))
    .sort((a, b) => Number(a.intermediate ?? false) - Number(b.intermediate ?? false) || b.score - a.score);
};
