import type { ComparisonReport } from '../../lambdas/compare/index.js';
import type { CheckedFields } from '../../lambdas/shared/documents/index.js';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import { workflowView } from '../../lambdas/shared/workflowViews.js';
import { formatConfidence, formatDuration, formatRelative, formatValue, renderTable } from '../format.js';
import type { Target } from '../target.js';

/** Everything `show` knows about one workflow. */
export const workflowDetails = async (target: Target, item: WorkflowItem) => {
  const { getJsonArtifact } = await import('../../lambdas/shared/artifacts.js');
  const { loadRecordView } = await import('../../lambdas/shared/recordView.js');
  const record = await loadRecordView(target.s3, target.bucket, item);
  const comparison = item.artifacts?.comparison
    ? await getJsonArtifact<ComparisonReport>(target.s3, target.bucket, item.artifacts.comparison)
    : undefined;
  const { docType, fields } = record;
  // Loaded here, not at the top: the documents module and the policy bring zod and big.js, which every other
  // command (and `docket --version`) would otherwise pay for at start.
  const { checkedFields, describeCheckedFields } = await import('../../lambdas/shared/documents/index.js');
  const { resolvePolicy } = await import('../../statemachine/index.js');
  const checked: CheckedFields | undefined = checkedFields(
    docType,
    fields,
    resolvePolicy().confidenceThreshold / 100,
  );
  return {
    workflow: workflowView(item),
    docType,
    ...(checked && { checked, checkedText: describeCheckedFields(checked) }),
    ...(record.language && { language: record.language }),
    ...(record.textOrigin && { textOrigin: record.textOrigin }),
    ...(record.einvoice && { einvoice: record.einvoice }),
    fields,
    rejected: record.rejected,
    comparison,
  };
};

const TEXT_ORIGIN = { 'text-layer': 'the PDF text', ocr: 'OCR of a scan', xml: 'e-invoice XML' } as const;
/** Evidence kinds that check a value (shown), as opposed to how it was read. */
const CHECKS: ReadonlySet<string> = new Set(['agreement', 'arithmetic', 'master', 'checksum']);

/**
 * What is checked and what is not ("4 of 5 required fields checked; weakest: total (45%)"), then the
 * overall figure the queue sorts by: a mean alone reads 10% when one field is missing.
 */
const confidenceLine = (checkedText: string | undefined, overall?: number): string =>
  checkedText === undefined
    ? `${overall ?? '-'}`
    : `${checkedText}${overall === undefined ? '' : ` (overall ${overall})`}`;

/** `docket show` as text: the workflow, its review, its fields with their checks, its comparison. */
export const showText = (details: Awaited<ReturnType<typeof workflowDetails>>, now: Date): string => {
  const w = details.workflow;
  const lines = [
    `${w.id}  ${w.docType ?? 'document'}  ${w.state} (for ${formatDuration(now.getTime() - Date.parse(w.stateEnteredAt))})`,
    `  tenant      ${w.tenant}`,
    `  file        ${w.source?.key ?? '-'}${w.pageCount ? ` (${w.pageCount} page${w.pageCount === 1 ? '' : 's'})` : ''}`,
    `  confidence  ${confidenceLine(details.checkedText, w.confidence)}`,
    ...(details.language ? [`  language    ${details.language}`] : []),
    ...(details.textOrigin ? [`  read from   ${TEXT_ORIGIN[details.textOrigin]}`] : []),
    ...(details.einvoice
      ? [
          `  e-invoice   ${details.einvoice.syntax.toUpperCase()} ${details.einvoice.attachment}: sums ${details.einvoice.consistent ? 'hold' : `do not hold (${details.einvoice.issues.join('; ')})`}`,
        ]
      : []),
    `  retries     ${w.retryCount}${w.failedAtStep ? ` (failed at ${w.failedAtStep})` : ''}`,
    `  created     ${w.createdAt}`,
  ];
  if (w.lastError) lines.push(`  last error  ${w.lastError.type}: ${w.lastError.message}`);
  if (w.review && (w.state === 'review_required' || w.review.reasons.length > 0 || w.review.decision)) {
    const r = w.review;
    lines.push(
      '',
      `Review: priority ${r.priority}${w.state === 'review_required' ? `, due ${formatRelative(r.dueAt, now)}` : ''}${r.claimedBy ? `, claimed by ${r.claimedBy}` : ''}`,
    );
    for (const reason of r.reasons) lines.push(`  - ${reason.code}: ${reason.message}`);
    if (r.decision) {
      lines.push(
        `  decided: ${r.decision.decision} by ${r.decision.reviewer} at ${r.decision.at}${r.decision.reason ? ` (${r.decision.reason})` : ''}`,
      );
    }
  }
  const fields = Object.entries(details.fields);
  if (fields.length > 0) {
    lines.push(
      '',
      'Fields',
      renderTable(
        fields,
        [
          { header: 'FIELD', value: ([name]) => name },
          { header: 'VALUE', value: ([, f]) => formatValue(f.value), max: 60 },
          { header: 'CONF', value: ([, f]) => formatConfidence(f.confidence), align: 'right' },
          {
            header: 'SOURCE',
            value: ([, f]) =>
              f.corrected
                ? 'corrected'
                : f.source && 'page' in f.source
                  ? `p${f.source.page} l${f.source.line}`
                  : f.source
                    ? 'e-invoice data'
                    : '-',
          },
          {
            header: 'CHECKED BY',
            value: ([, f]) =>
              [...new Set((f.evidence ?? []).filter((e) => CHECKS.has(e.kind)).map((e) => e.kind))].join(
                ', ',
              ) || '-',
          },
        ],
        '',
        '  ',
      ),
    );
  }
  for (const r of details.rejected) lines.push(`  ! ${r.field}: "${r.raw}" (${r.reason})`);
  if (details.comparison) {
    const s = details.comparison.summary;
    lines.push(
      '',
      `Comparison: ${s.status} (${s.critical} critical, ${s.warning} warning, ${s.info} info)${details.comparison.referenceId ? ` against ${details.comparison.referenceId}` : ''}`,
    );
    for (const f of details.comparison.findings) lines.push(`  - [${f.severity}] ${f.code}: ${f.message}`);
  }
  return lines.join('\n');
};
