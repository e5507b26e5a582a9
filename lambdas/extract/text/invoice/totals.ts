import {
  addDecimals,
  arithmeticEvidence,
  compareDecimals,
  decimalEquals,
  EVIDENCE_WEIGHT,
  type Evidence,
  subtractDecimals,
} from '../../../shared/documents/index.js';
import type { Candidate } from '../../candidates.js';
import { type LabelledAmount, where } from './amounts.js';
import { gapsFrom, payableRows, type Withheld, withheldFrom } from './payable.js';
import { sectionSum } from './sections.js';
import { adjustmentRows, grossOf, strengthOf, sumOf, type Triple, triples } from './sums.js';
import type { UnlabelledSum } from './unlabelledSums.js';

/**
 * Settles which labelled amounts are the invoice's totals by the sums they make. Labels alone
 * are not enough on a real invoice: "Total" heads a tax table as well as the grand total, a tax
 * row states its basis before its tax, and the amount due differs from the total once something
 * was prepaid, the buyer withholds a tax or the amount to pay is rounded. The one reading where
 * net + tax = gross (to the cent) is the invoice's own, and each amount in it carries that sum as
 * evidence; when no sum holds, every candidate stays a bare reading that a person must confirm.
 */

/** Candidates for each money field, with the sums that hold recorded as evidence. */
export type TotalsCandidates = Record<
  'subtotal' | 'adjustments' | 'tax' | 'total' | 'withholding' | 'amountDue',
  Candidate<string>[]
>;

const candidateOf = (a: LabelledAmount, evidence: Evidence[] = []): Candidate<string> => ({
  value: a.amount,
  confidence: strengthOf(a),
  line: a.line,
  via: `label:${a.role}:${a.label}${a.position === 'later' ? ':later' : ''}`,
  ...(evidence.length ? { evidence } : {}),
});

/** How much a total that is less than a net amount of the same document weighs: it is hardly one. */
const BELOW_NET = 0.8;

const weakened = (c: Candidate<string>): Candidate<string> => ({
  ...c,
  confidence: c.confidence * BELOW_NET,
});

/**
 * A gross total smaller than a net amount the document states (of the same sign: a credit note's
 * are both negative) is no gross total, as tax only adds: the "Total" of a tax table a scan
 * garbled ("Total Gack 46,25 €" under "Total HT 624,90 €") rather than the invoice's.
 */
const belowNet = (total: LabelledAmount, amounts: readonly LabelledAmount[]): boolean => {
  const sign = compareDecimals(total.amount, '0');
  const magnitude = (amount: string) => amount.replace(/^-/, '');
  return amounts.some(
    (net) =>
      net.role === 'subtotal' &&
      compareDecimals(net.amount, '0') === sign &&
      compareDecimals(magnitude(total.amount), magnitude(net.amount)) < 0,
  );
};

/**
 * A sum's gross total as a candidate. Where the printed total is the amount to pay after a
 * withholding or a rounding ("Total factura 1.060,00" after "IRPF -150,00"), the gross is that
 * sum's, read from that line: EN 16931's total with VAT, of which the printed one is the amount
 * to pay.
 */
const grossCandidate = (t: Triple, evidence: Evidence[] = []): Candidate<string> => {
  const printed = candidateOf(t.total, evidence);
  return t.gap ? { ...printed, value: grossOf(t), via: `${printed.via}:gross` } : printed;
};

/** The tax withheld as a candidate, signed like the total it is taken from. */
const withholdingCandidate = (withheld: Withheld, total: string, evidence: Evidence[]): Candidate<string> => {
  const first = withheld.rows[0] as LabelledAmount;
  return {
    ...candidateOf(first, evidence),
    value: withheldFrom(total, withheld),
    ...(withheld.rows.length > 1 ? { via: `withholding-rows:${withheld.rows.length}` } : {}),
  };
};

/** The discounts and charges between net and total as a candidate, read at their first row. */
const adjustmentsCandidate = (
  amounts: readonly LabelledAmount[],
  value: string,
  evidence: Evidence,
): Candidate<string> => ({
  value,
  confidence: 0.75,
  line: (adjustmentRows(amounts)[0] as LabelledAmount).line,
  via: 'discounts-and-charges',
  evidence: [evidence],
});

/** Totals with no candidate for any field. */
export const noTotals = (): TotalsCandidates => ({
  subtotal: [],
  adjustments: [],
  tax: [],
  total: [],
  withholding: [],
  amountDue: [],
});

/**
 * The totals' candidates. With a sum that holds, its three amounts are returned with arithmetic
 * evidence (and rival readings stay candidates, so a second, different sum is a conflict); the
 * amount due is checked against the total less what was prepaid, withheld or rounded off. Without
 * one, every labelled amount is a plain candidate of its field, but for a total and a tax that
 * amounts printed without a money label check (`unlabelled`, from `unlabelledSum`).
 */
export const resolveTotals = (
  amounts: readonly LabelledAmount[],
  unlabelled?: UnlabelledSum,
): TotalsCandidates => {
  const out = noTotals();
  const payable = payableRows(amounts);
  const { withheld } = payable;
  const [best, ...others] = triples(amounts);
  const gross = best && grossOf(best);
  // A grand total over its sections' totals is the invoice's; the sections' are no rivals.
  const sections = best ? undefined : sectionSum(amounts);
  const rivals = others.filter((t) => !t.intermediate && !decimalEquals(grossOf(t), gross ?? 'x'));
  if (best) {
    const adjusted = best.adjustment ? ` + discounts and charges ${best.adjustment}` : '';
    const taxWords = best.tax
      ? `tax ${best.tax.amount} (${where(best.tax)})`
      : best.taxRows
        ? `the tax rows' sum ${sumOf(best.taxRows)}`
        : 'no tax';
    const netWords = best.netRows
      ? `the net rows' sum ${best.subtotal.amount}`
      : `net ${best.subtotal.amount} (${where(best.subtotal)})`;
    const gapWords = best.gap ? ` - ${best.gap.words}` : '';
    const sum = arithmeticEvidence(
      `${netWords}${adjusted} + ${taxWords}${gapWords} = ${best.gap ? 'to pay' : 'total'} ${best.total.amount} (${where(best.total)})`,
    );
    out.total.push(grossCandidate(best, [sum]));
    if (best.gap?.withheld)
      out.withholding.push(withholdingCandidate(best.gap.withheld, best.total.amount, [sum]));
    // The net after the discounts and charges is the invoice's (EN 16931's "total without VAT"):
    // the printed one before them is the items' sum.
    const net = best.netRows
      ? { ...candidateOf(best.subtotal, [sum]), confidence: 0.75, via: `net-rows:${best.netRows.length}` }
      : candidateOf(best.subtotal, [sum]);
    out.subtotal.push(
      best.adjustment === undefined
        ? net
        : {
            ...net,
            value: addDecimals([best.subtotal.amount, best.adjustment]),
            via: `${net.via}+adjustments`,
          },
    );
    if (best.adjustment !== undefined)
      out.adjustments.push(adjustmentsCandidate(amounts, best.adjustment, sum));
    // "Subtotal 1,000.00 / Discount -100.00 / Taxable amount 900.00": the net printed after the
    // discounts made the sum; the discounts that bridge the items' sum to it are its adjustments.
    const bridge =
      best.adjustment === undefined
        ? others.find(
            (t) =>
              t.adjustment !== undefined &&
              t.total === best.total &&
              t.tax === best.tax &&
              decimalEquals(addDecimals([t.subtotal.amount, t.adjustment]), best.subtotal.amount),
          )
        : undefined;
    if (bridge?.adjustment !== undefined) {
      const bridged = arithmeticEvidence(
        `net ${bridge.subtotal.amount} (${where(bridge.subtotal)}) + discounts and charges ${bridge.adjustment} = net ${best.subtotal.amount} (${where(best.subtotal)})`,
      );
      out.adjustments.push(adjustmentsCandidate(amounts, bridge.adjustment, bridged));
    }
    if (best.tax) out.tax.push(candidateOf(best.tax, [sum]));
    else if (best.taxRows) {
      const first = best.taxRows[0] as LabelledAmount;
      out.tax.push({
        value: sumOf(best.taxRows),
        confidence: 0.75,
        line: first.line,
        via: `tax-rows:${best.taxRows.length}`,
        evidence: [sum],
      });
    }
    for (const rival of rivals) out.total.push(grossCandidate(rival));
  } else {
    // Two rows of a tax breakdown with the same amount ("CGST @ 9% 4,275.00", "SGST @ 9% 4,275.00")
    // are two taxes or one printed twice: nothing says which, so they are one reading, not two
    // that agree.
    const rateRowAmounts = new Set<string>();
    const checked = unlabelled ? [arithmeticEvidence(unlabelled.detail)] : [];
    if (unlabelled?.net)
      out.subtotal.push({
        value: unlabelled.net.value,
        confidence: 0.75,
        line: unlabelled.net.line,
        via: 'net-by-rate',
        evidence: checked,
      });
    const sectionLines = new Set(sections?.sections.map((s) => s.line.index));
    const bySections = sections ? [arithmeticEvidence(sections.detail)] : [];
    // Sections that tax lifts to the total are its net, as the net rows of a breakdown are.
    if (sections?.tax) {
      const [first] = sections.sections as [LabelledAmount];
      out.subtotal.push({
        value: sumOf(sections.sections),
        confidence: 0.75,
        line: first.line,
        via: `section-rows:${sections.sections.length}`,
        evidence: bySections,
      });
    }
    for (const a of amounts) {
      if (a === sections?.total) out.total.push(candidateOf(a, bySections));
      else if (a.role === 'total' && !sectionLines.has(a.line.index))
        out.total.push(
          belowNet(a, amounts)
            ? weakened(candidateOf(a))
            : candidateOf(a, a.amount === unlabelled?.total.amount ? checked : []),
        );
      if (a.role === 'subtotal') out.subtotal.push(candidateOf(a));
      // A tax row that states basis and tax ("VAT 19%  336.00  63.84") gives its last amount.
      const rowHasLater = amounts.some(
        (b) => b.line.index === a.line.index && b.role === 'tax' && b.position === 'later',
      );
      if (a.role === 'tax' && !(a.rateRow && a.position === 'first' && rowHasLater)) {
        if (a.rateRow && rateRowAmounts.has(a.amount)) continue;
        if (a.rateRow) rateRowAmounts.add(a.amount);
        const taxChecked = a === sections?.tax ? bySections : [];
        out.tax.push(candidateOf(a, a.amount === unlabelled?.tax?.amount ? checked : taxChecked));
      }
    }
    // An amount due states the total too, unless a prepayment, a withholding or a rounding
    // explains why it differs: then the same figure in two places agrees, and two different
    // figures are a conflict for a person.
    for (const due of amounts.filter((a) => a.role === 'amountDue')) {
      const explained = out.total.some((t) =>
        gapsFrom(t.value, payable, { prepaid: true }).some((d) =>
          decimalEquals(subtractDecimals(t.value, d.amount), due.amount),
        ),
      );
      const dueChecked = due.amount === unlabelled?.total.amount ? checked : [];
      if (!explained) out.total.push({ ...candidateOf(due, dueChecked), confidence: strengthOf(due) * 0.9 });
    }
  }
  const dues = amounts.filter((a) => a.role === 'amountDue');
  // A printed total after a withholding or a rounding is the amount to pay.
  if (best?.gap && best.total.role !== 'amountDue') dues.push(best.total);
  let withheldCheck: Evidence | undefined;
  for (const due of dues) {
    const evidence: Evidence[] = [];
    // The total may have been read from this very line (an amount due that is the gross): a line
    // does not corroborate itself.
    if (
      gross !== undefined &&
      best &&
      due.line.index !== best.total.line.index &&
      decimalEquals(due.amount, gross)
    ) {
      evidence.push({
        kind: 'agreement',
        weight: EVIDENCE_WEIGHT.agreement,
        detail: `equals the total at ${where(best.total)}`,
      });
    }
    const settled = gross ?? sections?.total.amount;
    const by =
      settled === undefined
        ? undefined
        : gapsFrom(settled, payable, { prepaid: true }).find((d) =>
            decimalEquals(subtractDecimals(settled, d.amount), due.amount),
          );
    if (by) {
      const check = arithmeticEvidence(`total ${settled} - ${by.words} = ${due.amount}`);
      evidence.push(check);
      if (by.withheld) withheldCheck ??= check;
    }
    out.amountDue.push(candidateOf(due, evidence));
  }
  if (withheld && out.withholding.length === 0) {
    const from = gross ?? out.total[0]?.value ?? '0';
    out.withholding.push(withholdingCandidate(withheld, from, withheldCheck ? [withheldCheck] : []));
  }
  return out;
};
