import { arithmeticEvidence, compareDecimals, subtractDecimals } from '../../../shared/documents/index.js';
import type { Candidate } from '../../candidates.js';
import { type LabelField, labelsIn } from '../../vocabulary/index.js';
import type { FinderContext } from '../context.js';
import { type LabelledAmount, moneyIn } from './amounts.js';
import { distinct, isTaxAtRate, rateOf } from './unlabelledSums.js';

/** The tax's label field: "MwSt.", "VAT", "TVA", "btw" anywhere in a line. */
const TAX_LABEL: ReadonlySet<LabelField> = new Set<LabelField>(['tax']);

/**
 * The tax a price that includes it states, in any language with a vocabulary: "Im Gesamtbetrag
 * sind 19 % MwSt. (39,90 €) enthalten", "Included VAT at 20%: £31.00", "dont TVA 10 % : 6,00 €".
 * A shop's receipt prints no net, so no sum checks its tax; the rate does, exactly: a line that
 * names the tax, states one rate and one amount other than the total, where that amount is the
 * rate's share of the total less it, to the cent (19 % of 249.90 - 39.90 is 39.90). Only with one
 * total and no net labelled: where a net is printed, the sums check the tax.
 */
export const includedTax = (ctx: FinderContext, amounts: readonly LabelledAmount[]): Candidate<string>[] => {
  const totals = distinct(amounts, (a) => a.role === 'total' && !a.rateRow);
  const [total] = totals;
  if (totals.length !== 1 || !total || amounts.some((a) => a.role === 'subtotal')) return [];
  const found: Candidate<string>[] = [];
  for (const line of ctx.doc.lines) {
    if (line.furniture || labelsIn(line.text, TAX_LABEL).length === 0) continue;
    const rate = rateOf(line);
    const money = moneyIn(ctx, line.text).filter((m) => compareDecimals(m.amount, total.amount) !== 0);
    const [tax] = money;
    if (!rate || money.length !== 1 || !tax || compareDecimals(tax.amount, '0') <= 0) continue;
    const net = subtractDecimals(total.amount, tax.amount);
    if (compareDecimals(net, '0') <= 0 || !isTaxAtRate(tax.amount, net, rate)) continue;
    found.push({
      value: tax.amount,
      confidence: 0.75,
      line,
      via: 'included-tax',
      evidence: [
        arithmeticEvidence(
          `the total ${total.amount} less ${tax.amount} (p${line.page} l${line.line}) is the net ${net}, and ${rate} % of it is the tax`,
        ),
      ],
    });
  }
  return found;
};
