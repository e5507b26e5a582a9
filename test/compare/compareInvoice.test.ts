import { describe, expect, it } from 'vitest';
import { ComparisonReportSchema, compareInvoice } from '../../lambdas/compare/index.js';
import type { ContractFields, InvoiceFields } from '../../lambdas/shared/documents/index.js';

const contract: ContractFields = {
  contractNumber: 'MSA-2025-0007',
  provider: 'Brightline Software LLC',
  customer: 'Globex Corporation',
  effectiveDate: '2025-01-01',
  termMonths: 12,
  totalValue: { amount: '10000.00', currency: 'USD' },
  paymentTerms: 'Net 30',
};

const invoice: InvoiceFields = {
  invoiceNumber: 'BL-1',
  vendor: 'Brightline Software LLC',
  invoiceDate: '2025-03-05',
  dueDate: '2025-04-04',
  currency: 'USD',
  total: '2500.00',
  contractReference: 'MSA-2025-0007',
};

describe('compareInvoice', () => {
  it('finds an invoice within term, currency, terms and value consistent, with the value left', () => {
    // Act
    const report = compareInvoice(invoice, contract, { invoicedBefore: '5000.00', contractId: 'wf-9' });

    // Assess
    expect(ComparisonReportSchema.safeParse(report).success).toBe(true);
    expect(report.findings).toEqual([]);
    expect(report.summary).toMatchObject({
      status: 'consistent',
      remainingValue: { before: '5000.00', after: '2500.00' },
    });
    expect(report.referenceId).toBe('wf-9');
  });

  it('warns when the provider has no contract on file', () => {
    // Act
    const report = compareInvoice(invoice, undefined);

    // Assess
    expect(report.summary.status).toBe('no_reference');
    expect(report.findings).toEqual([expect.objectContaining({ code: 'no_reference', severity: 'warning' })]);
  });

  it('flags a total above the value not yet invoiced, exactly', () => {
    // Act
    const report = compareInvoice({ ...invoice, total: '5000.01' }, contract, { invoicedBefore: '5000.00' });

    // Assess
    expect(report.findings).toEqual([
      expect.objectContaining({ code: 'exceeds_remaining_value', severity: 'critical' }),
    ]);
    expect(report.findings[0]?.message).toContain('by 0.01');
    expect(report.summary.remainingValue).toEqual({ before: '5000.00', after: '-0.01' });
  });

  it('notes when the contract value is nearly used up', () => {
    // Act
    const report = compareInvoice({ ...invoice, total: '4500.00' }, contract, { invoicedBefore: '5000.00' });

    // Assess
    expect(report.findings.map((f) => [f.code, f.severity])).toEqual([['near_contract_value', 'info']]);
  });

  it('flags an invoice dated outside the term; after the end of a renewing contract only warns', () => {
    // Act
    const before = compareInvoice({ ...invoice, invoiceDate: '2024-12-31', dueDate: '2025-01-30' }, contract);
    const after = compareInvoice({ ...invoice, invoiceDate: '2026-02-01', dueDate: '2026-03-03' }, contract);
    const renewing = compareInvoice(
      { ...invoice, invoiceDate: '2026-02-01', dueDate: '2026-03-03' },
      { ...contract, autoRenewal: true },
    );

    // Assess
    expect(before.findings.map((f) => [f.code, f.severity])).toEqual([['outside_contract_term', 'critical']]);
    expect(after.findings.map((f) => [f.code, f.severity])).toEqual([['outside_contract_term', 'critical']]);
    expect(renewing.findings.map((f) => [f.code, f.severity])).toEqual([
      ['outside_contract_term', 'warning'],
    ]);
  });

  it('flags another currency, other payment terms and another contract number', () => {
    // Act
    const report = compareInvoice(
      { ...invoice, currency: 'EUR', paymentTerms: 'Net 15', contractReference: 'MSA-2024-0001' },
      contract,
    );

    // Assess
    expect(report.findings.map((f) => f.code)).toEqual([
      'contract_reference_mismatch',
      'currency_mismatch',
      'payment_terms_mismatch',
    ]);
    expect(report.summary.remainingValue).toBeUndefined();
  });

  it('reads the invoice terms from its due date when it states none', () => {
    // Act
    const report = compareInvoice({ ...invoice, dueDate: '2025-03-19' }, contract);

    // Assess
    expect(report.findings).toEqual([
      expect.objectContaining({
        code: 'payment_terms_mismatch',
        field: 'dueDate',
        current: 14,
        reference: 30,
      }),
    ]);
  });
});
