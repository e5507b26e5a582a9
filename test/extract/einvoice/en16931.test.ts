import { describe, expect, it } from 'vitest';
import { type ConsistencyReport, readEInvoice } from '../../../lambdas/extract/einvoice/index.js';
import { ciiXml, type InvoiceSpec, spec, ublXml } from '../../fixtures/einvoices.js';

/** The EN 16931 report on the CII (or UBL) invoice of `s`. */
const reportOf = (s: InvoiceSpec, syntax: 'cii' | 'ubl' = 'cii'): ConsistencyReport => {
  const outcome = readEInvoice([{ name: 'invoice.xml', xml: syntax === 'cii' ? ciiXml(s) : ublXml(s) }]);
  if (outcome.kind !== 'einvoice') throw new Error(`expected an e-invoice, got ${outcome.kind}`);
  return outcome.reading.report;
};

describe('EN 16931 sums', () => {
  it.each(['cii', 'ubl'] as const)('hold for a consistent %s invoice', (syntax) => {
    // Prepare
    const consistent = spec();

    // Act
    const report = reportOf(consistent, syntax);

    // Assess
    expect(report.issues).toEqual([]);
    expect(report.consistent).toBe(true);
    expect(report.held).toEqual([
      'BR-CO-10',
      'BR-CO-13',
      'BR-CO-14',
      'tax-rate-19.00',
      'BR-CO-15',
      'BR-CO-16',
    ]);
  });

  it('report a grand total that is not net + tax (BR-CO-15)', () => {
    // Prepare
    const mutated = spec({ grandTotal: '562.97' });

    // Act
    const report = reportOf(mutated);

    // Assess
    expect(report.consistent).toBe(false);
    expect(report.issues).toEqual([
      'BR-CO-15: tax basis total + tax total is 562.87, but the data states 562.97',
    ]);
  });

  it('report a tax total that is not the sum of the tax rows (BR-CO-14) and breaks the grand total', () => {
    // Prepare: the header says 98.87, the breakdown row still says 89.87.
    const mutated = spec({ tax: '98.87', taxRowAmount: '89.87' });

    // Act
    const report = reportOf(mutated, 'ubl');

    // Assess
    expect(report.consistent).toBe(false);
    expect(report.issues).toEqual([
      'BR-CO-14: the sum of the tax rows is 89.87, but the data states 98.87',
      'BR-CO-15: tax basis total + tax total is 571.87, but the data states 562.87',
    ]);
  });

  it('report a tax row that is not its rate of its basis', () => {
    // Prepare: 19 % of 473.00 is 89.87; a row (and total) of 79.87 with a grand total to match.
    const mutated = spec({ tax: '79.87', grandTotal: '552.87', duePayable: '552.87' });

    // Act
    const report = reportOf(mutated);

    // Assess
    expect(report.consistent).toBe(false);
    expect(report.issues).toEqual(['tax at 19.00% of 473.00 is 89.8700, but the data states 79.87']);
  });

  it('accept a tax row one cent off its rate (rounded once per rate), not two', () => {
    // Prepare
    const oneCent = spec({ tax: '89.88', grandTotal: '562.88', duePayable: '562.88' });
    const twoCents = spec({ tax: '89.89', grandTotal: '562.89', duePayable: '562.89' });

    // Act
    const reports = [reportOf(oneCent), reportOf(twoCents)];

    // Assess
    expect(reports.map((r) => r.consistent)).toEqual([true, false]);
  });

  it('report line amounts that do not add up to the line total (BR-CO-10)', () => {
    // Prepare
    const lines = spec().lines.map((l, i) => (i === 1 ? { ...l, amount: '257.00' } : l));
    const mutated = spec({ lines });

    // Act
    const report = reportOf(mutated);

    // Assess
    expect(report.consistent).toBe(false);
    expect(report.issues).toEqual([
      'BR-CO-10: the sum of the line amounts is 455.00, but the data states 473.00',
    ]);
  });

  it('check document allowances against their total (BR-CO-11) and the net (BR-CO-13)', () => {
    // Prepare: 473.00 - 23.00 - 50.00 = 400.00 net, 19 % = 76.00, 476.00 gross.
    const withAllowances = {
      allowances: ['23.00', '50.00'],
      taxBasis: '400.00',
      tax: '76.00',
      grandTotal: '476.00',
      duePayable: '476.00',
    };
    const consistent = spec({ ...withAllowances, allowanceTotal: '73.00' });
    const wrongTotal = spec({ ...withAllowances, allowanceTotal: '70.00' });

    // Act
    const [good, bad] = [reportOf(consistent), reportOf(wrongTotal)];

    // Assess
    expect(good.issues).toEqual([]);
    expect(good.held).toEqual(expect.arrayContaining(['BR-CO-11', 'BR-CO-13']));
    expect(bad.issues).toEqual([
      'BR-CO-11: the sum of the allowances is 73.00, but the data states 70.00',
      'BR-CO-13: line total - allowances + charges is 403.00, but the data states 400.00',
    ]);
  });

  it.each(['cii', 'ubl'] as const)(
    'hold for a %s invoice with a prepayment: due = grand total - prepaid (BR-CO-16)',
    (syntax) => {
      // Prepare
      const prepaid = spec({ prepaid: '100.00', duePayable: '462.87' });

      // Act
      const report = reportOf(prepaid, syntax);

      // Assess
      expect(report.issues).toEqual([]);
      expect(report.held).toContain('BR-CO-16');
    },
  );

  it('report an amount due that does not subtract the prepayment (BR-CO-16)', () => {
    // Prepare
    const mutated = spec({ prepaid: '100.00', duePayable: '562.87' });

    // Act
    const report = reportOf(mutated);

    // Assess
    expect(report.issues).toEqual([
      'BR-CO-16: grand total - prepaid + rounding is 462.87, but the data states 562.87',
    ]);
  });

  it('read an amount due below the total as a payment when no prepaid amount can be stated', () => {
    // Prepare: profiles without BT-113 (Factur-X MINIMUM) only show the payment in the amount due.
    const partlyPaid = spec({ duePayable: '62.87' });

    // Act
    const report = reportOf(partlyPaid);

    // Assess
    expect(report.consistent).toBe(true);
    expect(report.held).not.toContain('BR-CO-16');
  });

  it('report amounts that are not decimals instead of guessing them', () => {
    // Prepare
    const mutated = spec({ grandTotal: '1,562.87' });

    // Act
    const report = reportOf(mutated);

    // Assess
    expect(report.consistent).toBe(false);
    expect(report.issues).toContain('the grand total "1,562.87" is not a decimal amount');
  });

  it('report amounts with more digits than money has, without failing', () => {
    // Prepare: 13 fraction digits, and 60 integer digits (big numbers are slow to compute with).
    const longFraction = spec({ grandTotal: '562.8700000000001', duePayable: '562.8700000000001' });
    const longInteger = spec({ taxBasis: '9'.repeat(60) });

    // Act
    const reports = [reportOf(longFraction), reportOf(longInteger)];

    // Assess
    expect(reports[0]?.issues).toContain('the grand total "562.8700000000001" is not a decimal amount');
    expect(reports[1]?.issues).toContain(
      `the tax basis total "${'9'.repeat(40)}..." is not a decimal amount`,
    );
  });

  it('report an invoice without a grand total', () => {
    // Prepare
    const xml = ciiXml().replace(/<ram:GrandTotalAmount>.*<\/ram:GrandTotalAmount>/, '');

    // Act
    const outcome = readEInvoice([{ name: 'invoice.xml', xml }]);

    // Assess
    expect(outcome.kind === 'einvoice' && outcome.reading.report.issues).toContain(
      'the data states no grand total (BT-112)',
    );
  });
});
