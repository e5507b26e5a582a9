import {
  addDecimals,
  type ContractFields,
  compareDecimals,
  decimalToNumber,
  type InvoiceFields,
  paymentTermsDays,
  subtractDecimals,
} from '../shared/documents/index.js';
import { contractEnd } from './compareContract.js';
import { type ComparisonReport, type Finding, summarise } from './report.js';

/** Share of the contract value used (after this invoice) above which an `info` finding is added. */
export const NEAR_VALUE_PERCENT = 90;

/** What the caller knows about the contract's billing so far. */
export interface InvoiceCompareOptions {
  /** Sum of the totals of completed invoices already billed against the contract (default "0"). */
  invoicedBefore?: string;
  /** Workflow id of the contract, for the report. */
  contractId?: string;
}

const DAY_MS = 86_400_000;

/**
 * Compares an invoice with the completed contract of its provider: the contract reference, the
 * invoice date within the term (after the end is only a warning when the contract renews
 * automatically), the currency, the payment terms and that the total fits in the contract
 * value not yet invoiced.
 */
export const compareInvoice = (
  invoice: InvoiceFields,
  contract: ContractFields | undefined,
  options: InvoiceCompareOptions = {},
): ComparisonReport => {
  const findings: Finding[] = [];
  const base = {
    schemaVersion: 1 as const,
    kind: 'invoice_vs_contract' as const,
    ...(options.contractId ? { referenceId: options.contractId } : {}),
  };
  if (!contract) {
    findings.push({
      code: 'no_reference',
      severity: 'warning',
      message: `No completed contract with ${invoice.vendor} is on file.`,
    });
    return { ...base, findings, summary: summarise(findings, false) };
  }
  if (invoice.contractReference && invoice.contractReference !== contract.contractNumber) {
    findings.push({
      code: 'contract_reference_mismatch',
      severity: 'warning',
      field: 'contractReference',
      message: `The invoice cites contract ${invoice.contractReference}, but the provider's contract is ${contract.contractNumber}.`,
      current: invoice.contractReference,
      reference: contract.contractNumber,
    });
  }
  const end = contractEnd(contract);
  if (invoice.invoiceDate < contract.effectiveDate || (end !== undefined && invoice.invoiceDate > end)) {
    const afterEnd = end !== undefined && invoice.invoiceDate > end;
    findings.push({
      code: 'outside_contract_term',
      severity: afterEnd && contract.autoRenewal ? 'warning' : 'critical',
      field: 'invoiceDate',
      message: `Invoice date ${invoice.invoiceDate} is outside the contract term ${contract.effectiveDate} to ${end ?? 'open'}${afterEnd && contract.autoRenewal ? ' (the contract renews automatically: check the renewal)' : ''}.`,
      current: invoice.invoiceDate,
      reference: { effectiveDate: contract.effectiveDate, end },
    });
  }
  const currencyMatches = invoice.currency === contract.totalValue.currency;
  if (!currencyMatches) {
    findings.push({
      code: 'currency_mismatch',
      severity: 'critical',
      field: 'currency',
      message: `The invoice is in ${invoice.currency}, the contract in ${contract.totalValue.currency}.`,
      current: invoice.currency,
      reference: contract.totalValue.currency,
    });
  }
  const contractDays = contract.paymentTerms ? paymentTermsDays(contract.paymentTerms) : undefined;
  const invoiceDays =
    invoice.paymentTerms !== undefined
      ? paymentTermsDays(invoice.paymentTerms)
      : invoice.dueDate !== undefined
        ? Math.round((Date.parse(invoice.dueDate) - Date.parse(invoice.invoiceDate)) / DAY_MS)
        : undefined;
  if (contractDays !== undefined && invoiceDays !== undefined && invoiceDays !== contractDays) {
    findings.push({
      code: 'payment_terms_mismatch',
      severity: 'warning',
      field: invoice.paymentTerms !== undefined ? 'paymentTerms' : 'dueDate',
      message: `The invoice asks for payment in ${invoiceDays} days; the contract allows ${contractDays}.`,
      current: invoiceDays,
      reference: contractDays,
    });
  }
  let remainingValue: ComparisonReport['summary']['remainingValue'];
  if (currencyMatches) {
    const before = subtractDecimals(contract.totalValue.amount, options.invoicedBefore ?? '0');
    const after = subtractDecimals(before, invoice.total);
    remainingValue = { before, after };
    if (compareDecimals(after, '0') < 0) {
      findings.push({
        code: 'exceeds_remaining_value',
        severity: 'critical',
        field: 'total',
        message: `The total ${invoice.total} exceeds the ${before} ${invoice.currency} left on the contract by ${after.slice(1)}.`,
        current: invoice.total,
        reference: before,
      });
    } else {
      const used = addDecimals([options.invoicedBefore ?? '0', invoice.total]);
      const share = (decimalToNumber(used) / decimalToNumber(contract.totalValue.amount)) * 100;
      if (share >= NEAR_VALUE_PERCENT) {
        findings.push({
          code: 'near_contract_value',
          severity: 'info',
          field: 'total',
          message: `With this invoice ${Math.round(share)}% of the contract value is billed; ${after} ${invoice.currency} remain.`,
          current: used,
          reference: contract.totalValue.amount,
        });
      }
    }
  }
  return {
    ...base,
    findings,
    summary: { ...summarise(findings, true), ...(remainingValue ? { remainingValue } : {}) },
  };
};
