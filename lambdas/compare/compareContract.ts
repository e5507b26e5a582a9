import {
  type ContractFields,
  compareDecimals,
  decimalToNumber,
  normalizeCompanyName,
  subtractDecimals,
} from '../shared/documents/index.js';
import { type ComparisonReport, type Finding, summarise } from './report.js';

/** A value change above this share of the previous value is a warning, not just information. */
export const VALUE_CHANGE_WARNING_PERCENT = 10;

/** The day a contract ends: its expiration date, or effective date + term, or undefined. */
export const contractEnd = (
  c: Pick<ContractFields, 'effectiveDate' | 'expirationDate' | 'termMonths'>,
): string | undefined => {
  if (c.expirationDate) return c.expirationDate;
  if (c.termMonths === undefined) return undefined;
  const [y, m, d] = c.effectiveDate.split('-').map(Number) as [number, number, number];
  const end = new Date(Date.UTC(y, m - 1 + c.termMonths, d - 1));
  return end.toISOString().slice(0, 10);
};

const changed = (a: unknown, b: unknown): boolean => JSON.stringify(a) !== JSON.stringify(b);

/**
 * Compares a contract with the previous completed contract of the same provider and customer:
 * parties, number, value (exact delta and percent), currency, dates and term, overlap, payment
 * terms, governing law, renewal and notice. Without a previous contract the report says so.
 */
export const compareContract = (
  current: ContractFields,
  previous: ContractFields | undefined,
  options: { previousId?: string } = {},
): ComparisonReport => {
  const findings: Finding[] = [];
  const base = {
    schemaVersion: 1 as const,
    kind: 'contract_vs_previous' as const,
    ...(options.previousId ? { referenceId: options.previousId } : {}),
  };
  if (!previous) {
    findings.push({
      code: 'no_reference',
      severity: 'info',
      message: 'No previous completed contract with this provider and customer.',
    });
    return { ...base, findings, summary: summarise(findings, false) };
  }
  for (const party of ['provider', 'customer'] as const) {
    if (normalizeCompanyName(current[party]) !== normalizeCompanyName(previous[party])) {
      findings.push({
        code: 'party_mismatch',
        severity: 'critical',
        field: party,
        message: `The ${party} differs from the previous contract's ("${current[party]}" vs "${previous[party]}"): the wrong reference may have been chosen.`,
        current: current[party],
        reference: previous[party],
      });
    }
  }
  if (current.contractNumber !== previous.contractNumber) {
    findings.push({
      code: 'contract_number_changed',
      severity: 'info',
      field: 'contractNumber',
      message: `New contract number ${current.contractNumber} (previously ${previous.contractNumber}).`,
      current: current.contractNumber,
      reference: previous.contractNumber,
    });
  }
  let valueChange: ComparisonReport['summary']['valueChange'];
  if (current.totalValue.currency !== previous.totalValue.currency) {
    findings.push({
      code: 'currency_changed',
      severity: 'warning',
      field: 'totalValue',
      message: `The contract currency changed from ${previous.totalValue.currency} to ${current.totalValue.currency}; values are not compared.`,
      current: current.totalValue,
      reference: previous.totalValue,
    });
  } else if (compareDecimals(current.totalValue.amount, previous.totalValue.amount) !== 0) {
    const delta = subtractDecimals(current.totalValue.amount, previous.totalValue.amount);
    const before = decimalToNumber(previous.totalValue.amount);
    const percent = before === 0 ? undefined : Math.round((decimalToNumber(delta) / before) * 1000) / 10;
    valueChange = {
      from: previous.totalValue.amount,
      to: current.totalValue.amount,
      delta,
      ...(percent !== undefined ? { percent } : {}),
    };
    findings.push({
      code: 'value_changed',
      severity:
        percent === undefined || Math.abs(percent) > VALUE_CHANGE_WARNING_PERCENT ? 'warning' : 'info',
      field: 'totalValue',
      message: `Total value ${delta.startsWith('-') ? 'decreased' : 'increased'} by ${delta.replace('-', '')} ${current.totalValue.currency}${percent !== undefined ? ` (${percent > 0 ? '+' : ''}${percent}%)` : ''}.`,
      current: current.totalValue,
      reference: previous.totalValue,
    });
  }
  if (current.effectiveDate !== previous.effectiveDate) {
    findings.push({
      code: 'effective_date_changed',
      severity: 'info',
      field: 'effectiveDate',
      message: `Effective ${current.effectiveDate} (previously ${previous.effectiveDate}).`,
      current: current.effectiveDate,
      reference: previous.effectiveDate,
    });
  }
  const end = contractEnd(current);
  const previousEnd = contractEnd(previous);
  if (end !== previousEnd || current.termMonths !== previous.termMonths) {
    findings.push({
      code: 'term_changed',
      severity: 'info',
      field: current.expirationDate ? 'expirationDate' : 'termMonths',
      message: `Term ${current.termMonths ?? '?'} months ending ${end ?? 'not stated'} (previously ${previous.termMonths ?? '?'} months ending ${previousEnd ?? 'not stated'}).`,
      current: { expirationDate: end, termMonths: current.termMonths },
      reference: { expirationDate: previousEnd, termMonths: previous.termMonths },
    });
  }
  if (previousEnd && current.effectiveDate <= previousEnd && current.effectiveDate > previous.effectiveDate) {
    findings.push({
      code: 'terms_overlap',
      severity: 'warning',
      field: 'effectiveDate',
      message: `The new contract starts ${current.effectiveDate}, before the previous one ends (${previousEnd}): both may be billed.`,
      current: current.effectiveDate,
      reference: previousEnd,
    });
  }
  const optional = [
    ['paymentTerms', 'payment_terms_changed', 'warning', 'Payment terms'],
    ['governingLaw', 'governing_law_changed', 'warning', 'Governing law'],
    ['autoRenewal', 'auto_renewal_changed', 'warning', 'Automatic renewal'],
    ['terminationNoticeDays', 'termination_notice_changed', 'info', 'Termination notice (days)'],
  ] as const;
  for (const [field, code, severity, label] of optional) {
    if (changed(current[field], previous[field])) {
      findings.push({
        code,
        severity,
        field,
        message: `${label}: ${String(current[field] ?? 'not stated')} (previously ${String(previous[field] ?? 'not stated')}).`,
        current: current[field],
        reference: previous[field],
      });
    }
  }
  return {
    ...base,
    findings,
    summary: { ...summarise(findings, true), ...(valueChange ? { valueChange } : {}) },
  };
};
