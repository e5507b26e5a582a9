import { addDecimals, compareDecimals, decimalEquals } from '../../../shared/documents/index.js';
import { type LabelledAmount, where } from './amounts.js';
import { amountPerLine } from './sums.js';

/**
 * An invoice billed in sections, each with its own total, and a grand total that is their sum:
 * "Total fees 9,050.00 / Total disbursements 792.75 / Total this invoice 9,842.75". The vocabulary
 * reads every "Total …" row as a total; only the sum says which is the invoice's and which are
 * its sections'.
 */
export interface SectionSum {
  /** The grand total. */
  total: LabelledAmount;
  /** The section totals it adds up. */
  sections: LabelledAmount[];
  /** The tax on the sections' sum, where the sections are net and the total is gross. */
  tax?: LabelledAmount;
  /** The sum, for evidence: "sections 9050.00 (p1 l17) + 792.75 (p1 l21) = total 9842.75 (p1 l22)". */
  detail: string;
}

/**
 * The first total that is the sum of two or more totals printed before it on their own lines, all
 * of one sign, or that sum and a tax printed between the last of them and the total ("Total
 * zero-rated sales / Total standard-rated sales / VAT at 20% / Invoice total", as UK VAT invoices
 * set out their supplies); undefined when none is. Each line counts once, with its first amount:
 * a row that states a basis before its total ("Total 5 % 100,00 5,00") is no section.
 */
export const sectionSum = (amounts: readonly LabelledAmount[]): SectionSum | undefined => {
  const totals: LabelledAmount[] = [];
  for (const a of amounts) {
    if (a.role !== 'total' || a.position !== 'first' || a.rateRow) continue;
    if (totals.some((t) => t.line.index === a.line.index)) continue;
    totals.push(a);
  }
  for (const [k, total] of totals.entries()) {
    const sections = totals.slice(0, k);
    if (sections.length < 2) continue;
    const sign = compareDecimals(total.amount, '0');
    if (sign === 0 || sections.some((s) => compareDecimals(s.amount, '0') !== sign)) continue;
    const sum = addDecimals(sections.map((s) => s.amount));
    const parts = `sections ${sections.map((s) => `${s.amount} (${where(s)})`).join(' + ')}`;
    const to = `total ${total.amount} (${where(total)})`;
    if (decimalEquals(sum, total.amount)) return { total, sections, detail: `${parts} = ${to}` };
    const after = (sections.at(-1) as LabelledAmount).line.index;
    const tax = amountPerLine(amounts, 'tax', 'last').find(
      (t) =>
        t.line.index > after &&
        t.line.index < total.line.index &&
        decimalEquals(addDecimals([sum, t.amount]), total.amount),
    );
    if (tax) return { total, sections, tax, detail: `${parts} + tax ${tax.amount} (${where(tax)}) = ${to}` };
  }
  return undefined;
};
