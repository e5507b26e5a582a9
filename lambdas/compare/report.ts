import * as z from 'zod';
import { DecimalSchema } from '../shared/documents/index.js';

/** How much a finding matters: `critical` needs action before paying or signing. */
export const SeveritySchema = z.enum(['info', 'warning', 'critical']);
/** Finding severity. */
export type Severity = z.infer<typeof SeveritySchema>;

/** The stable codes of comparison findings. */
export const FindingCodeSchema = z.enum([
  'no_reference',
  'party_mismatch',
  'contract_number_changed',
  'value_changed',
  'currency_changed',
  'effective_date_changed',
  'term_changed',
  'terms_overlap',
  'payment_terms_changed',
  'governing_law_changed',
  'auto_renewal_changed',
  'termination_notice_changed',
  'contract_reference_mismatch',
  'outside_contract_term',
  'currency_mismatch',
  'payment_terms_mismatch',
  'exceeds_remaining_value',
  'near_contract_value',
]);
/** One finding code. */
export type FindingCode = z.infer<typeof FindingCodeSchema>;

/** One difference or problem found by a comparison. */
export const FindingSchema = z
  .object({
    code: FindingCodeSchema,
    severity: SeveritySchema,
    field: z.string().optional(),
    message: z.string(),
    current: z.unknown().optional(),
    reference: z.unknown().optional(),
  })
  .strict();
/** A comparison finding. */
export type Finding = z.infer<typeof FindingSchema>;

/** The report written to `artifacts/{id}/comparison.json`. */
export const ComparisonReportSchema = z
  .object({
    schemaVersion: z.literal(1),
    kind: z.enum(['contract_vs_previous', 'invoice_vs_contract']),
    /** Workflow id of the reference document, when the caller gave one. */
    referenceId: z.string().optional(),
    findings: z.array(FindingSchema),
    summary: z
      .object({
        /** `no_reference`: nothing to compare with; `consistent`: no finding above info; else the worst. */
        status: z.enum(['no_reference', 'consistent', 'changed', 'attention']),
        critical: z.int().min(0),
        warning: z.int().min(0),
        info: z.int().min(0),
        /** Contract value change: reference -> current, exact. */
        valueChange: z
          .object({
            from: DecimalSchema,
            to: DecimalSchema,
            delta: DecimalSchema,
            percent: z.number().optional(),
          })
          .strict()
          .optional(),
        /** Invoice against contract: value left before and after this invoice (contract currency). */
        remainingValue: z.object({ before: DecimalSchema, after: DecimalSchema }).strict().optional(),
      })
      .strict(),
  })
  .strict();
/** A comparison report. */
export type ComparisonReport = z.infer<typeof ComparisonReportSchema>;

/** Builds the summary counts and status of a list of findings. */
export const summarise = (
  findings: readonly Finding[],
  hasReference: boolean,
): Pick<ComparisonReport['summary'], 'status' | 'critical' | 'warning' | 'info'> => {
  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  const critical = count('critical');
  const warning = count('warning');
  const info = count('info');
  const status = !hasReference
    ? 'no_reference'
    : critical > 0 || warning > 0
      ? 'attention'
      : info > 0
        ? 'changed'
        : 'consistent';
  return { status, critical, warning, info };
};
