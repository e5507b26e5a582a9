import { describe, expect, it } from 'vitest';
import { ComparisonReportSchema, compareContract, contractEnd } from '../../lambdas/compare/index.js';
import type { ContractFields } from '../../lambdas/shared/documents/index.js';

const previous: ContractFields = {
  contractNumber: 'MSA-2024-0001',
  provider: 'Acme Logistics, Inc.',
  customer: 'Globex Corporation',
  effectiveDate: '2024-01-01',
  expirationDate: '2024-12-31',
  totalValue: { amount: '100000.00', currency: 'USD' },
  paymentTerms: 'Net 30',
  governingLaw: 'New York',
  autoRenewal: false,
  terminationNoticeDays: 60,
};

describe('compareContract', () => {
  it('reports no reference when there is no previous contract', () => {
    // Act
    const report = compareContract(previous, undefined);

    // Assess
    expect(ComparisonReportSchema.safeParse(report).success).toBe(true);
    expect(report.summary.status).toBe('no_reference');
    expect(report.findings.map((f) => f.code)).toEqual(['no_reference']);
  });

  it('finds nothing to report for the same contract under another spelling of the provider', () => {
    // Act
    const report = compareContract({ ...previous, provider: 'ACME LOGISTICS INC' }, previous, {
      previousId: 'wf-1',
    });

    // Assess
    expect(report.findings).toEqual([]);
    expect(report.summary).toEqual({ status: 'consistent', critical: 0, warning: 0, info: 0 });
    expect(report.referenceId).toBe('wf-1');
  });

  it('reports a renewal: new number, dates, exact value change with percent, changed terms', () => {
    // Prepare
    const renewal: ContractFields = {
      ...previous,
      contractNumber: 'MSA-2025-0001',
      effectiveDate: '2025-01-01',
      expirationDate: '2026-12-31',
      totalValue: { amount: '112500.10', currency: 'USD' },
      paymentTerms: 'Net 45',
      autoRenewal: true,
    };

    // Act
    const report = compareContract(renewal, previous);

    // Assess
    expect(report.findings.map((f) => [f.code, f.severity])).toEqual([
      ['contract_number_changed', 'info'],
      ['value_changed', 'warning'],
      ['effective_date_changed', 'info'],
      ['term_changed', 'info'],
      ['payment_terms_changed', 'warning'],
      ['auto_renewal_changed', 'warning'],
    ]);
    expect(report.summary.valueChange).toEqual({
      from: '100000.00',
      to: '112500.10',
      delta: '12500.10',
      percent: 12.5,
    });
    expect(report.summary.status).toBe('attention');
  });

  it('keeps a small value change as information', () => {
    // Act
    const report = compareContract(
      { ...previous, totalValue: { amount: '95000.00', currency: 'USD' } },
      previous,
    );

    // Assess
    expect(report.findings).toEqual([expect.objectContaining({ code: 'value_changed', severity: 'info' })]);
    expect(report.findings[0]?.message).toContain('decreased by 5000.00 USD (-5%)');
    expect(report.summary.status).toBe('changed');
  });

  it('flags overlapping terms, a currency change and a different customer', () => {
    // Prepare
    const current: ContractFields = {
      ...previous,
      customer: 'Initech Holdings, Inc.',
      effectiveDate: '2024-10-01',
      expirationDate: '2025-09-30',
      totalValue: { amount: '90000.00', currency: 'EUR' },
    };

    // Act
    const report = compareContract(current, previous);

    // Assess
    const codes = report.findings.map((f) => f.code);
    expect(codes).toEqual(expect.arrayContaining(['party_mismatch', 'currency_changed', 'terms_overlap']));
    expect(codes).not.toContain('value_changed');
    expect(report.summary.critical).toBe(1);
  });

  it('works out the end of a term given in months', () => {
    expect(contractEnd({ effectiveDate: '2025-01-15', termMonths: 12 })).toBe('2026-01-14');
    expect(contractEnd({ effectiveDate: '2025-01-15', expirationDate: '2025-06-30', termMonths: 12 })).toBe(
      '2025-06-30',
    );
    expect(contractEnd({ effectiveDate: '2025-01-15' })).toBeUndefined();
  });
});
