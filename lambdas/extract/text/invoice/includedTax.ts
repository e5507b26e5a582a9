import {
  addDecimals,
  arithmeticEvidence,
  compareDecimals,
  multiplyDecimals,
  subtractDecimals,
} from '../../../shared/documents/index.js';
import type { Candidate } from '../../candidates.js';
import { type LabelField, labelsIn } from '../../vocabulary/index.js';
import type { FinderContext } from '../context.js';
import type { DocLine } from '../textIndex.js';
import type { LabelledAmount } from './amounts.js';
import { moneyIn } from './money.js';
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
 *
 * A receipt of goods taxed at two or more rates prints a line for each ("enthaltene USt. 10 %:
 * 3,75", "enthaltene USt. 20 %: 0,80"): no one of them is the total's share, but together they
 * are. Their tax is their sum where some nets, each of which its line's tax is the rate's share
 * of to the cent, add up with the taxes to the total. Undefined where neither check holds.
 */
export const readIncludedTax = (
  ctx: FinderContext,
  amounts: readonly LabelledAmount[],
): IncludedTax | undefined => {
  const totals = distinct(amounts, (a) => a.role === 'total' && !a.rateRow);
  const [total] = totals;
  if (totals.length !== 1 || !total || amounts.some((a) => a.role === 'subtotal')) return undefined;
  const found: Candidate<string>[] = [];
  const rows: RateRow[] = [];
  for (const line of ctx.doc.lines) {
    if (line.furniture || labelsIn(line.text, TAX_LABEL).length === 0) continue;
    const rate = rateOf(line);
    const money = moneyIn(ctx, line.text).filter((m) => compareDecimals(m.amount, total.amount) !== 0);
    const [tax] = money;
    if (!rate || money.length !== 1 || !tax || compareDecimals(tax.amount, '0') <= 0) continue;
    rows.push({ line, rate, tax: tax.amount });
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
  if (found.length > 0) return { candidates: found, parts: new Set() };
  const together = ratesTogether(rows, total.amount);
  return together.length > 0
    ? { candidates: together, parts: new Set(rows.map((r) => r.line.index)) }
    : undefined;
};

/** The tax a price includes, as `readIncludedTax` read it. */
export interface IncludedTax {
  candidates: Candidate<string>[];
  /** Lines of the rows a sum of several rates' taxes is made of. */
  parts: ReadonlySet<number>;
}

/**
 * The tax's candidates with the included tax's: the rows a sum of rates' taxes is made of are its
 * parts, not other readings of the tax, and leave `labelled`.
 */
export const withIncludedTax = (
  included: IncludedTax | undefined,
  labelled: readonly Candidate<string>[],
): Candidate<string>[] =>
  included
    ? [...labelled.filter((c) => !included.parts.has(c.line.index)), ...included.candidates]
    : [...labelled];

/** A line stating one rate and the tax at it. */
interface RateRow {
  line: DocLine;
  rate: string;
  tax: string;
}

/** Most rates a receipt prints: a reduced, a standard and a zero or super-reduced one. */
const MOST_RATES = 4;

/**
 * The rows' taxes summed, where they are the rates' shares of nets that add up with them to
 * `total`: each net n may be any for which |100 x tax - rate x n| <= 1 (the single rate's test), so
 * the nets' sum lies between the sums of (100 x tax -/+ 1) / rate, and must hold the total less
 * the taxes. Both sides are multiplied by the rates' product, so nothing is divided.
 */
const ratesTogether = (rows: readonly RateRow[], total: string): Candidate<string>[] => {
  const rates = new Set(rows.map((r) => r.rate));
  const [first] = rows;
  if (!first || rows.length < 2 || rows.length > MOST_RATES || rates.size !== rows.length) return [];
  if (rows.some((r) => compareDecimals(r.rate, '0') <= 0)) return [];
  const tax = addDecimals(rows.map((r) => r.tax));
  const nets = subtractDecimals(total, tax);
  if (compareDecimals(nets, '0') <= 0) return [];
  const product = rows.reduce((p, r) => multiplyDecimals(p, r.rate), '1');
  const others = (i: number) => rows.reduce((p, r, j) => (j === i ? p : multiplyDecimals(p, r.rate)), '1');
  const bound = (sign: '-1' | '1') =>
    addDecimals(
      rows.map((r, i) => multiplyDecimals(addDecimals([multiplyDecimals(r.tax, '100'), sign]), others(i))),
    );
  const scaled = multiplyDecimals(nets, product);
  if (compareDecimals(scaled, bound('-1')) < 0 || compareDecimals(scaled, bound('1')) > 0) return [];
  const taxes = rows.map((r) => `${r.rate} %: ${r.tax} (p${r.line.page} l${r.line.line})`).join(', ');
  return [
    {
      value: tax,
      confidence: 0.75,
      line: first.line,
      via: 'included-tax:rates',
      evidence: [
        arithmeticEvidence(
          `the taxes at ${taxes} are their rates' shares of nets that add up with them to the total ${total}`,
        ),
      ],
    },
  ];
};
